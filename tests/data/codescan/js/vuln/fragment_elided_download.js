router.get('/download/:name', auth, async (req, res) => {
  ...
  const filePath = `${UPLOAD_DIR}/${req.params.name}`;
  res.download(filePath);
});
