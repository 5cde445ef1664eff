app.get('/products', (req, res) => {
  const category = req.query.category;
  db.query("SELECT * FROM products WHERE category = '" + category + "'", (err, rows) => {
    res.json(rows);
  });
});
