-- Threat intelligence: normalised records (src/engine/intel/intel.h), the feed's counters, and saved
-- playbook generations. Portable SQL: runs on SQLite and PostgreSQL.
CREATE TABLE intel_records (
    id          TEXT PRIMARY KEY,
    type        TEXT NOT NULL,   -- ai_cve | model_advisory | prompt_attack | agent_threat
    title       TEXT NOT NULL,
    severity    TEXT NOT NULL,
    published   TEXT NOT NULL,   -- ISO 8601 UTC, fixed width: text order is time order
    updated     TEXT NOT NULL,
    enriched_at TEXT NOT NULL,   -- when the record's facts last changed here
    enriched_us BIGINT NOT NULL, -- the same in microseconds, so "newest change" is exact
    version     BIGINT NOT NULL, -- 1, then +1 per change of facts
    risk_score  INTEGER NOT NULL,
    kev         INTEGER NOT NULL,
    source      TEXT NOT NULL,
    doc         TEXT NOT NULL,   -- the canonical record document
    entry       TEXT NOT NULL    -- its feed entry, serialised once here rather than per request
);
-- The feed reads newest first (published, then id), optionally filtered by type and/or severity:
-- one index per filter combination, so that every page is read in index order, never sorted, and
-- costs the same with a million records as with a hundred.
CREATE INDEX intel_feed ON intel_records (published, id);
CREATE INDEX intel_feed_type ON intel_records (type, published, id);
CREATE INDEX intel_feed_severity ON intel_records (severity, published, id);
CREATE INDEX intel_feed_type_severity ON intel_records (type, severity, published, id);
CREATE INDEX intel_changed ON intel_records (enriched_us);

-- Records per (type, severity), changed in the same transaction as intel_records: the feed's
-- total is a sum over at most 16 rows instead of a count over an index.
CREATE TABLE intel_counts (
    type     TEXT NOT NULL,
    severity TEXT NOT NULL,
    n        BIGINT NOT NULL,
    PRIMARY KEY (type, severity)
);

-- One row that every intel writer (import, first-start seed) updates first: it serialises them,
-- also across instances sharing one PostgreSQL.
CREATE TABLE intel_lock (
    id  INTEGER PRIMARY KEY,
    seq BIGINT NOT NULL
);
INSERT INTO intel_lock (id, seq) VALUES (1, 0);

-- Saved playbook generations, per account and threat; the text is served as stored.
CREATE TABLE playbooks (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users(id),
    threat_id      TEXT NOT NULL REFERENCES intel_records(id),
    record_version BIGINT NOT NULL, -- stale once the record's version is higher
    risk_tier      TEXT NOT NULL,
    playbook       TEXT NOT NULL,
    generated_at   TEXT NOT NULL,
    generated_us   BIGINT NOT NULL
);
CREATE INDEX playbooks_latest ON playbooks (user_id, threat_id, generated_us);
CREATE INDEX playbooks_history ON playbooks (user_id, generated_us);
