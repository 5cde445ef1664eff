const verificationCode = String(Math.floor(100000 + Math.random() * 900000));
await redis.set(`verify:${user.id}`, verificationCode, 'EX', 600);
await sms.send(user.phone, `Your code is ${verificationCode}`);
