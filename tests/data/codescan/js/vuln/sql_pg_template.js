async function findUser(email) {
  const { rows } = await pool.query(`SELECT * FROM users WHERE email = '${email}'`);
  return rows[0];
}
