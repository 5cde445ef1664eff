app.get('/auth/callback', (req, res) => {
  const returnTo = req.query.returnTo || '/';
  res.redirect(returnTo);
});
