app.get('/products', async (req, res) => {
  const { rows } = await pool.query('SELECT * FROM products WHERE category = $1', [req.query.category]);
  res.json(rows);
});
