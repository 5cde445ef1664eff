async function createUser(email, password) {
  const salt = crypto.randomBytes(16);
  const key = await new Promise((resolve, reject) =>
    crypto.scrypt(password, salt, 64, { N: 2 ** 15, maxmem: 64 * 1024 * 1024 }, (err, k) => (err ? reject(err) : resolve(k))));
  const stored = `${salt.toString('hex')}:${key.toString('hex')}`;
  return db.query('INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING id', [email, stored]);
}
