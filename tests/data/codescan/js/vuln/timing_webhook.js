app.post('/webhooks/stripe', express.raw({ type: '*/*' }), (req, res) => {
  const sig = req.get('X-Signature');
  const expected = crypto.createHmac('sha256', process.env.WEBHOOK_SECRET).update(req.body).digest('hex');
  if (sig !== expected) {
    return res.status(401).send('bad signature');
  }
  handle(JSON.parse(req.body));
  res.sendStatus(200);
});
