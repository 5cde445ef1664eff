const { DOMParser } = require('@xmldom/xmldom');
const xpath = require('xpath');

const directory = new DOMParser().parseFromString(
  fs.readFileSync(path.join(__dirname, 'data', 'directory.xml'), 'utf8'),
  'text/xml'
);

// GET /api/users/:name/email -> { email }
app.get('/api/users/:name/email', (req, res) => {
  const query = `//user[@name='${req.params.name}']/email/text()`;
  const node = xpath.select1(query, directory);
  res.json({ email: node ? node.nodeValue : null });
});
