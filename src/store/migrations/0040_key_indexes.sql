-- Two indexes of api_keys that no query reads any more, and that every key creation wrote.
-- api_keys_prefix: a key in use is found by its hash (the UNIQUE key_hash), and a key named by id
-- or prefix among its owner's keys is found through api_keys_user (user_id first); the plans of
-- both backends never chose this one, and its random page was in every creation's commit (a
-- quarter of the WAL a creation wrote on SQLite). api_keys_active made the count of an account's
-- active keys index-only (0030) until users.active_keys replaced that count (0035). Portable SQL.
DROP INDEX IF EXISTS api_keys_prefix;
DROP INDEX IF EXISTS api_keys_active;
