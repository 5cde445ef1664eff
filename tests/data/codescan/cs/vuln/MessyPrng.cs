var sessionId = new Random().Next().ToString("X8") + new Random().Next().ToString("X8");
_sessions[sessionId] = user.Id;
