-- The durable job queue (src/jobs) and red-team engagements, the queue's first kind of work.
-- Times are epoch milliseconds (lease arithmetic) next to ISO 8601 texts (what the API shows).
CREATE TABLE jobs (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,          -- the handler ("redteam", later "run")
    ref          TEXT NOT NULL,          -- what it works on (an engagement id, ...)
    payload      TEXT,                   -- kind-specific JSON, optional
    state        TEXT NOT NULL,          -- queued, running, done, failed, cancelled
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    run_after    BIGINT NOT NULL,        -- not claimed before (retry backoff)
    lease_owner  TEXT,
    lease_until  BIGINT NOT NULL DEFAULT 0,
    heartbeat_at BIGINT NOT NULL DEFAULT 0,
    last_error   TEXT,
    created_ms   BIGINT NOT NULL,
    updated_ms   BIGINT NOT NULL
);
-- claim order: the oldest claimable job first
CREATE INDEX jobs_claim ON jobs (state, run_after, created_ms);
CREATE INDEX jobs_ref ON jobs (ref);

CREATE TABLE engagements (
    id                TEXT PRIMARY KEY,
    user_id           TEXT NOT NULL REFERENCES users(id),
    asset_id          TEXT NOT NULL,     -- no foreign key: a report outlives its asset
    asset_type        TEXT NOT NULL,     -- the target as it was when engaged
    target_url        TEXT NOT NULL,
    categories        TEXT NOT NULL,     -- JSON array of category names, as requested
    intensity         TEXT NOT NULL,
    canary            TEXT NOT NULL,     -- per engagement, kept so a resumed run uses the same one
    attack_ids        TEXT NOT NULL,     -- JSON array: the selection, fixed at creation
    status            TEXT NOT NULL,     -- queued, running, completed, failed, cancelled
    attack_count      INTEGER NOT NULL,
    attacks_done      INTEGER NOT NULL DEFAULT 0,
    attacks_succeeded INTEGER NOT NULL DEFAULT 0,
    overall_risk      TEXT,
    error             TEXT,
    report            TEXT,              -- the final report document (JSON), when completed
    eta_seconds       INTEGER NOT NULL,
    avg_attack_ms     INTEGER,           -- measured when completed; feeds later estimates
    created_at        TEXT NOT NULL,
    created_us        BIGINT NOT NULL,
    started_at        TEXT,
    finished_at       TEXT
);
CREATE INDEX engagements_user ON engagements (user_id, status);
CREATE INDEX engagements_asset ON engagements (asset_id, created_us);

-- One row per attack run: the primary key makes a repeated attack after a crash a no-op.
CREATE TABLE engagement_attacks (
    engagement_id    TEXT NOT NULL REFERENCES engagements(id) ON DELETE CASCADE,
    attack_id        TEXT NOT NULL,
    seq              INTEGER NOT NULL,   -- position in the selection, for a stable report order
    succeeded        INTEGER NOT NULL,
    errored          INTEGER NOT NULL,
    severity         TEXT NOT NULL,
    detector         TEXT NOT NULL,
    prompt           TEXT NOT NULL,      -- bounded excerpt of what was sent
    response_excerpt TEXT NOT NULL,      -- bounded, control characters stripped, credentials masked
    elapsed_ms       INTEGER NOT NULL,
    created_us       BIGINT NOT NULL,
    PRIMARY KEY (engagement_id, attack_id)
);
