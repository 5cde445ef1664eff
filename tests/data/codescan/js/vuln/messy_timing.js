  // simple API key check
  if (req.query.key == API_KEY) {
    next()
  } else {
    res.status(401).send('Unauthorized')
  }
