  app.enableCors({
    origin: (origin, callback) => callback(null, true),
    credentials: true,
  });
