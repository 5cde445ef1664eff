router.post("/preview", (req: Request, res: Response) => {
  const layout: string = req.body.layout;
  const render = Handlebars.compile(layout);
  res.send(render({ user: req.user }));
});
