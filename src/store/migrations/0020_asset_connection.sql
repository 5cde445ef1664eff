-- Assets gain a connection (how bulwark speaks to the model behind the endpoint) and an honest
-- score basis. The connection document is stored without its secret; the secret is sealed
-- (crypto_secretbox, common/seal.h) in a column of its own, which nothing but the chat client's
-- caller ever reads. score_basis: 'static' (the registration's estimate, never better than
-- MEDIUM: at most 79) or 'live' (a completed live scan).
ALTER TABLE assets ADD COLUMN connection TEXT;
ALTER TABLE assets ADD COLUMN auth_sealed TEXT;
ALTER TABLE assets ADD COLUMN score_basis TEXT NOT NULL DEFAULT 'static';
UPDATE assets SET score_basis = 'live' WHERE last_scan_id IS NOT NULL;
-- a registration score used to read LOW without any scan: it is an estimate, so at most MEDIUM
UPDATE assets SET security_score = 79, risk_level = 'MEDIUM' WHERE score_basis = 'static' AND security_score > 79;
-- a scan the egress policy stopped is kept but moves nothing: 'completed' or 'incomplete'
ALTER TABLE asset_scans ADD COLUMN status TEXT NOT NULL DEFAULT 'completed';
-- Assessments read back newest first, paged by (created_at, id) (keyset cursors, 0013's pattern).
CREATE INDEX assessments_page ON assessments (user_id, created_at, id);
