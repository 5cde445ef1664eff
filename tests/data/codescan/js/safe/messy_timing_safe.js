  // constant-time API key check
  const given = Buffer.from(String(req.query.key || ''))
  const expected = Buffer.from(API_KEY)
  if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) {
    next()
  } else {
    res.status(401).send('Unauthorized')
  }
