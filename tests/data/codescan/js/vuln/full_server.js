const express = require('express');
const { exec } = require('child_process');

const app = express();
app.use(express.json());

app.post('/api/dns', (req, res) => {
  const domain = req.body.domain;
  exec('nslookup ' + domain, (err, stdout, stderr) => {
    if (err) return res.status(500).json({ error: stderr });
    res.json({ output: stdout });
  });
});

app.get('/api/health', (req, res) => res.json({ ok: true }));

app.listen(3000, () => console.log('listening on 3000'));
