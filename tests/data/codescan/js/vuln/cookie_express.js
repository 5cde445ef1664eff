  res.cookie('sessionId', sessionId, { httpOnly: false, secure: false, maxAge: 86400000 });
  res.json({ ok: true });
