app.get('/download', function (req, res) {
  var file = req.query.file;
  res.download('./files/' + file, function (err) {
    if (err) console.log(err)
  }
