const http = require('http');

function proxyImage(req, res) {
  const target = new URL(req.query.src);
  http.get(target, (upstream) => upstream.pipe(res));
}
