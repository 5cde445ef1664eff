-- Shared rate-limit state (src/auth/ratelimit.c with BULWARK_RATE_LIMIT_STORE=database, the
-- default on PostgreSQL): one GCRA "theoretical arrival time" per limiter key, so that every
-- instance on one database spends the same budget. `k` is "<limiter>|<key>" (rate|u:<id>,
-- rate|ip:<addr>, login_email|..., login_ip|...); `tat` is epoch microseconds; `refused` tells
-- the caller of the upsert whether its request was the one refused. A row whose tat has passed
-- is the same as no row; those are swept about once a minute. Portable SQL.
CREATE TABLE rate_limits (
    k       TEXT PRIMARY KEY,
    tat     BIGINT NOT NULL,
    refused INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX rate_limits_tat ON rate_limits (tat);
