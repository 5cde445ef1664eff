app.use((req: Request, res: Response, next: NextFunction) => {
  const origin = req.headers.origin as string;
  res.header('Access-Control-Allow-Origin', origin);
  res.header('Access-Control-Allow-Credentials', 'true');
  ...
  next();
