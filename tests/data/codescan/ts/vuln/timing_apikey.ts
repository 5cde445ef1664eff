  if (req.header('x-api-key') != config.apiKey) {
    throw new UnauthorizedException();
  }
