export async function activeUsers(db: Kysely<DB>) {
  return db.selectFrom('users').select(['id', 'email']).where('active', '=', true).execute();
}
const LIST_SQL = 'SELECT id, name FROM teams ORDER BY name';
