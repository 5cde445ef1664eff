  app.enableCors({ origin: ['https://app.example.com'], credentials: true });
