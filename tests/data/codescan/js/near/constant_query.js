const TABLES = ['users', 'orders'];

async function counts(pool) {
  const out = {};
  for (const t of TABLES) {
    const { rows } = await pool.query(`SELECT COUNT(*) AS n FROM ${t}`);
    out[t] = rows[0].n;
  }
  return out;
}
