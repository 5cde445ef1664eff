router.get('/avatar/:file', (req: Request, res: Response) => {
  const stream = fs.createReadStream(path.join(AVATAR_DIR, req.params.file));
  stream.pipe(res);
});
