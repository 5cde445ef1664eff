function requireToken(req, res, next) {
  const token = req.headers['x-admin-token'];
  if (token === process.env.ADMIN_TOKEN) return next();
  res.status(403).json({ error: 'forbidden' });
}
