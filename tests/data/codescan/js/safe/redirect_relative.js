app.get('/auth/callback', (req, res) => {
  const returnTo = req.query.returnTo;
  const safe = typeof returnTo === 'string' && returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : '/';
  res.redirect(safe);
});
