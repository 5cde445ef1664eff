async function createUser(email, password) {
  const passwordHash = crypto.createHash('sha256').update(password).digest('hex');
  return db.query('INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING id', [email, passwordHash]);
}
