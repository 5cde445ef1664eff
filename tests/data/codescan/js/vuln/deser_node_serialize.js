const serialize = require('node-serialize');

app.get('/profile', (req, res) => {
  const raw = Buffer.from(req.cookies.profile, 'base64').toString();
  const profile = serialize.unserialize(raw);
  res.send(`Hello ${escapeHtml(profile.name)}`);
});
