const got = require('got');

router.post('/integrations/test', requireAuth, async (req, res) => {
  const { webhookUrl } = req.body;
  try {
    const response = await got.post(webhookUrl, { json: { test: true }, timeout: { request: 5000 } });
    res.json({ status: response.statusCode });
  } catch (err) {
    res.status(502).json({ error: 'unreachable' });
  }
});
