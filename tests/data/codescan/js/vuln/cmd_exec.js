const { exec } = require('child_process');

app.post('/convert', (req, res) => {
  exec(`ffmpeg -i uploads/${req.body.file} -f mp3 out.mp3`, (err, stdout) => {
    res.send(err ? 'failed' : 'ok');
  });
});
