-- Governance assessments: the whole result document, kept per account so it can be read again.
CREATE TABLE assessments (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id),
    framework_id TEXT NOT NULL,
    body         TEXT NOT NULL,
    created_at   TEXT NOT NULL
);
CREATE INDEX assessments_user ON assessments (user_id, created_at);
