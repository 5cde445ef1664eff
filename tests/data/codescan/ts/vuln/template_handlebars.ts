export async function renderEmail(req: Request, res: Response) {
  const template = Handlebars.compile(req.body.template);
  res.send(template({ user: req.user }));
}
