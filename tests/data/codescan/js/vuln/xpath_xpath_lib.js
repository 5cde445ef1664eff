const xpath = require('xpath');
const { DOMParser } = require('@xmldom/xmldom');

app.get('/user', (req, res) => {
  const doc = new DOMParser().parseFromString(fs.readFileSync('users.xml', 'utf8'));
  const nodes = xpath.select(`//user[username/text()='${req.query.username}']`, doc);
  res.json(nodes.map(String));
});
