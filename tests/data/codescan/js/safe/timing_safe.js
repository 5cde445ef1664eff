function verify(body, sig) {
  const expected = crypto.createHmac('sha256', process.env.WEBHOOK_SECRET).update(body).digest();
  const given = Buffer.from(sig || '', 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
