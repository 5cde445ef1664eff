app.get('/api/fetch', async (req, res) => {
  const { url } = req.query;
  const response = await axios.get(url);
  res.send(response.data);
});
