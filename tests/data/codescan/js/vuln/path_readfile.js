app.get('/logs', (req, res) => {
  fs.readFile('/var/log/app/' + req.query.file, 'utf8', (err, data) => {
    if (err) return res.status(404).end();
    res.type('text/plain').send(data);
  });
});
