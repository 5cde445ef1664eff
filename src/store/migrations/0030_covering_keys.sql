-- Creating a key counts the account's active keys under the account's lock
-- (SELECT COUNT(*) FROM api_keys WHERE user_id = ? AND active = 1). On api_keys_user (user_id,
-- created_at) that is a table lookup per key the account ever had, to read `active`: with
-- thousands of keys, thousands of row reads per creation. With `active` in the index the count
-- reads the index alone (SQLite: COVERING INDEX; PostgreSQL: Index Only Scan). The key list keeps
-- api_keys_user for its order.
CREATE INDEX api_keys_active ON api_keys (user_id, active);
