-- Account management and recovery (bulwark user passwd|disable|enable|set-role|delete, POST
-- /api/auth/password). token_gen is carried in every session token as the claim `gen`: a password
-- change, a disable or a role change adds one, which ends every token issued before (the account
-- row is read through the credential cache anyway, so this costs no read). Tokens issued before
-- this migration have no `gen` and count as 0, the default. disabled = 1: no login, no session, no
-- API key. Portable SQL.
ALTER TABLE users ADD COLUMN token_gen BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
