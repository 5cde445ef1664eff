app.get('/welcome', (req, res) => {
  const name = req.query.name || 'guest';
  res.send(`<!doctype html><title>Welcome</title><h1>Welcome back, ${name}!</h1>`);
});
