app.get('/static/:name', (req, res) => {
  res.sendFile(req.params.name, { root: path.join(__dirname, 'public'), dotfiles: 'deny' });
});
