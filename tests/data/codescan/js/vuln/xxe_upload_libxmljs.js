const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 2 * 1024 * 1024 } });

app.post('/import/products', upload.single('feed'), (req, res) => {
  const doc = libxmljs.parseXml(req.file.buffer.toString('utf8'), { noent: true, nonet: false });
  const products = doc.find('//product').map((p) => ({ sku: p.attr('sku').value(), name: p.get('name').text() }));
  res.json({ count: products.length });
});
