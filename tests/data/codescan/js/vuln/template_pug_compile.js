  const greeting = `p Hello #{name}, welcome to ${req.query.team}`;
  const fn = pug.compile(greeting);
  res.send(fn({ name: req.user.name }));
