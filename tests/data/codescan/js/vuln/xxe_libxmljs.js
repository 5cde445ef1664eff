const libxmljs = require('libxmljs');

app.post('/import', express.text({ type: 'application/xml' }), (req, res) => {
  const doc = libxmljs.parseXml(req.body, { noent: true, dtdload: true });
  res.json({ items: doc.find('//item').length });
});
