router.get('/avatar/:file', (req: Request, res: Response) => {
  const file = path.basename(req.params.file);
  res.sendFile(file, { root: AVATAR_DIR });
});
