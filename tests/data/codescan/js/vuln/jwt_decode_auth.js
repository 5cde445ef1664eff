const jwt = require('jsonwebtoken');

function authenticate(req, res, next) {
  const token = (req.headers.authorization || '').replace('Bearer ', '');
  const payload = jwt.decode(token);
  if (!payload) return res.sendStatus(401);
  req.user = payload;
  next();
}
