router.get('/logout', (req: Request, res: Response) => {
  req.session.destroy(() => {
    res.redirect(req.query.next as string);
  });
});
