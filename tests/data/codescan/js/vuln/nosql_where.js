app.post('/search', async (req, res) => {
  const docs = await db.collection('users').find({ $where: `this.name == '${req.body.name}'` }).toArray();
  res.json(docs);
});
