app.use(session({
  secret: process.env.SESSION_SECRET,
  cookie: { secure: false, httpOnly: false },
}));
