app.post('/convert', (req, res) => {
  const name = path.basename(req.body.file);
  execFile('ffmpeg', ['-i', path.join('uploads', name), '-f', 'mp3', 'out.mp3'], (err) => {
    res.send(err ? 'failed' : 'ok');
  });
});
