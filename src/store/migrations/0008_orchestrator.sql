-- The orchestrator (src/orch): runs of the 16-phase pipeline and the snapshots they persist.
-- A scope is "all" (admin key, admin role) or "acct:<user id>" (an ENTERPRISE or mssp account;
-- an mssp scope also covers the accounts it manages, resolved when the run starts).
CREATE TABLE orch_runs (
    job_id       TEXT PRIMARY KEY,       -- also the id of its row in jobs
    scope_key    TEXT NOT NULL,
    requested_by TEXT NOT NULL,          -- user id, or "admin_key"
    max_items    INTEGER NOT NULL,
    status       TEXT NOT NULL,          -- queued, running, completed, failed
    active       INTEGER,                -- 1 while queued or running, NULL afterwards
    phase        INTEGER NOT NULL DEFAULT 0, -- the phase running (1..16), 0 before the first
    phases_done  INTEGER NOT NULL DEFAULT 0,
    accepted_at  TEXT NOT NULL,
    accepted_us  BIGINT NOT NULL,
    started_at   TEXT,
    finished_at  TEXT,
    error        TEXT
);
-- At most one active run per scope: NULLs are distinct on both backends, so finished runs never
-- collide, and a second insert while one is active fails with a constraint error (409).
CREATE UNIQUE INDEX orch_runs_active ON orch_runs (scope_key, active);
CREATE INDEX orch_runs_scope ON orch_runs (scope_key, accepted_us);

CREATE TABLE orch_snapshots (
    id         TEXT PRIMARY KEY,        -- snp_...
    scope_key  TEXT NOT NULL,
    job_id     TEXT NOT NULL,
    max_items  INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    created_us BIGINT NOT NULL,
    ciso       TEXT NOT NULL,           -- the four packs as served (JSON)
    aspm       TEXT NOT NULL,
    compliance TEXT NOT NULL,
    hunt       TEXT NOT NULL
);
CREATE INDEX orch_snapshots_scope ON orch_snapshots (scope_key, created_us);

-- The pipeline reads the riskiest records first and every KEV entry: without these it would
-- sort or scan the whole intel table.
CREATE INDEX intel_risk ON intel_records (risk_score, id);
CREATE INDEX intel_kev ON intel_records (kev, risk_score);
