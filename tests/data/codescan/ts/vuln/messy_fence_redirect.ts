```ts
// after login, send the user back where they came from
app.post('/login', async (req: Request, res: Response) => {
  const user = await auth.login(req.body.email, req.body.password);
  if (!user) return res.status(401).json({ error: 'invalid credentials' });
  req.session.userId = user.id;
  return res.redirect(String(req.query.from || '/'));
});
```
