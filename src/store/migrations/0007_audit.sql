-- The service's own audit events (src/audit), aggregated: one row per (kind, principal, minute
-- bucket, sub), written by upsert (n adds up, first_ms/last_ms widen), so a flood of one principal
-- grows one row per minute. `sub` is the client IP of a key_use row (distinct IPs per key are what
-- KEY_MULTI_IP counts) and '' for the other kinds. Rows older than 7 days are deleted by the
-- recorder. Portable SQL: runs on SQLite and PostgreSQL.
CREATE TABLE audit_counts (
    kind           TEXT NOT NULL,   -- auth_failure | rate_limited | privileged_denied | key_use
    principal      TEXT NOT NULL,   -- client IP (IPv6 as its /64), API key prefix or account id
    bucket_ms      BIGINT NOT NULL, -- start of the minute, epoch milliseconds
    sub            TEXT NOT NULL DEFAULT '',
    principal_type TEXT NOT NULL,   -- ip | api_key | account
    account_id     TEXT,            -- the account the principal belongs to; NULL for an IP
    detail         TEXT NOT NULL DEFAULT '', -- the latest event's detail (key prefix, route, IP)
    n              BIGINT NOT NULL, -- events in the bucket
    first_ms       BIGINT NOT NULL,
    last_ms        BIGINT NOT NULL,
    PRIMARY KEY (kind, principal, bucket_ms, sub)
);
-- the anomaly rules pick the principals of one kind over the last 24 hours (newest first), for
-- everyone or for one account; retention deletes by kind and age
CREATE INDEX audit_counts_time ON audit_counts (kind, bucket_ms);
CREATE INDEX audit_counts_account ON audit_counts (account_id, kind, bucket_ms);
