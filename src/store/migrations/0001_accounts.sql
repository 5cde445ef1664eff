-- Accounts, API keys and service settings. Portable SQL: runs on SQLite and PostgreSQL.
-- Times are ISO 8601 UTC text (sortable); booleans are 0/1 integers.
CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    tier          TEXT NOT NULL,
    role          TEXT NOT NULL DEFAULT 'user',
    managed_by    TEXT REFERENCES users(id),
    key_seq       BIGINT NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id),
    key_hash     TEXT NOT NULL UNIQUE,
    key_prefix   TEXT NOT NULL,
    label        TEXT NOT NULL,
    active       INTEGER NOT NULL DEFAULT 1,
    created_at   TEXT NOT NULL,
    revoked_at   TEXT,
    last_used_at TEXT,
    rotated_from TEXT
);
CREATE INDEX api_keys_user ON api_keys (user_id, created_at);
CREATE INDEX api_keys_prefix ON api_keys (key_prefix);

-- Generated secrets shared by every instance on this database (JWT signing secret, admin key hash).
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
