app.get('/calc', (req, res) => {
  const result = eval(req.query.expression);
  res.json({ result });
});
