-- Creating a key counted the account's active keys (migration 0030 made that an index-only
-- scan, but still one index entry per active key: with thousands of keys, the count was most of a
-- key creation's time). The count is now kept on the account's row, changed in the transaction
-- that changes a key's state (create +1, revoke -1, rotate 0, disable to 0), and a creation is one
-- conditional UPDATE of that row (which is also the per-account lock) and the INSERT. Portable SQL.
ALTER TABLE users ADD COLUMN active_keys BIGINT NOT NULL DEFAULT 0;
UPDATE users SET active_keys = (SELECT COUNT(*) FROM api_keys k WHERE k.user_id = users.id AND k.active = 1);
