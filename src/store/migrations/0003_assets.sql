-- The AI asset register (models, agents, RAG pipelines, APIs), per account.
CREATE TABLE assets (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users(id),
    name           TEXT NOT NULL,
    type           TEXT NOT NULL,
    provider       TEXT,
    endpoint       TEXT NOT NULL,
    env            TEXT NOT NULL,
    security_score INTEGER NOT NULL,
    risk_level     TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    created_us     BIGINT NOT NULL -- microseconds, so "newest first" is exact within a second
);
CREATE INDEX assets_user ON assets (user_id, created_us);
