-- The web console's sessions (src/auth/console.h): a row per signed-in browser, found by the
-- SHA-256 (hex) of the opaque id its HttpOnly cookie carries (the id itself is never stored). gen
-- is the account's token generation when the session began: a password change, disable or role
-- change moves the account's on and so ends every session begun before it, as it ends session
-- tokens. Times are epoch seconds: begun (absolute limit) and last seen (idle limit).
CREATE TABLE console_sessions (
    id_hash    TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id),
    gen        BIGINT NOT NULL,
    created_s  BIGINT NOT NULL,
    seen_s     BIGINT NOT NULL
);
CREATE INDEX console_sessions_user ON console_sessions (user_id, created_s);
