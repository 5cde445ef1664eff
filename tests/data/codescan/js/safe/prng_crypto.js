const token = crypto.randomBytes(32).toString('hex');
const sessionId = crypto.randomUUID();
const shuffled = items.sort(() => Math.random() - 0.5);
