-- Red team v2 (issue 20): every reply is judged by every detector. An attack row keeps what fired
-- (a JSON array of {detector, severity, evidence}, evidence masked), the escalation path that
-- produced the reply kept (the transformations and turns, as text) and how many requests the
-- attack took, escalation included.
ALTER TABLE engagement_attacks ADD COLUMN findings TEXT;
ALTER TABLE engagement_attacks ADD COLUMN path TEXT;
ALTER TABLE engagement_attacks ADD COLUMN requests INTEGER NOT NULL DEFAULT 1;
