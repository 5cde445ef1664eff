router.get('/weather', async (req, res) => {
  const city = req.query.city;
  const base = req.headers['x-weather-backend'] || 'http://weather.internal';
  const endpoint = `${base}/v2/forecast?city=${encodeURIComponent(city)}`;
  const r = await fetch(endpoint);
  res.json(await r.json());
});
