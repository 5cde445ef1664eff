-- What each live scan is evidence of for governance assessments, computed from the scan result
-- when the row is written (src/services/evidence.c with src/engine/assetscan.c), so that gathering
-- evidence reads columns and parses no documents. NULL in every column for scans stored before
-- this migration: the evidence service derives those from the stored document instead.
ALTER TABLE asset_scans ADD COLUMN open_critical INTEGER; -- findings by severity
ALTER TABLE asset_scans ADD COLUMN open_high INTEGER;
ALTER TABLE asset_scans ADD COLUMN open_medium INTEGER;
ALTER TABLE asset_scans ADD COLUMN open_low INTEGER;
ALTER TABLE asset_scans ADD COLUMN owasp_hit INTEGER;    -- bit k: a finding reported OWASP LLM(k+1)
ALTER TABLE asset_scans ADD COLUMN owasp_tested INTEGER; -- bit k: the scan probed LLM(k+1)
ALTER TABLE asset_scans ADD COLUMN owasp_findings TEXT;  -- finding ids per risk: "01:ID,ID;07:ID"
