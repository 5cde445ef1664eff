-- Live posture scans of AI assets: every scan is kept (the asset row carries the latest score).
ALTER TABLE assets ADD COLUMN last_scan_id TEXT;
ALTER TABLE assets ADD COLUMN last_scanned_at TEXT;
CREATE TABLE asset_scans (
    id          TEXT PRIMARY KEY,
    asset_id    TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users(id),
    score       INTEGER NOT NULL,
    risk_level  TEXT NOT NULL,
    body        TEXT NOT NULL, -- the scan result document as answered
    created_at  TEXT NOT NULL,
    created_us  BIGINT NOT NULL
);
CREATE INDEX asset_scans_asset ON asset_scans (asset_id, created_us);
CREATE INDEX asset_scans_user ON asset_scans (user_id, created_us);
