  const sessionId = Math.floor(Math.random() * 1e16).toString(16);
  sessions.set(sessionId, user.id);
