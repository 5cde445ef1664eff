const ROOT = path.resolve(__dirname, 'uploads');

app.get('/files/:name', (req, res) => {
  const filePath = path.resolve(ROOT, req.params.name);
  if (!filePath.startsWith(ROOT + path.sep)) return res.sendStatus(403);
  res.sendFile(filePath);
});
