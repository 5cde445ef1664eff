const apiKey = 'sk_' + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2)
await db.keys.insert({ userId, apiKey })
