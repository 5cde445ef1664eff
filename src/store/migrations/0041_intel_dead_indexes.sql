-- Two indexes of intel_records that no query reads, and that every record insert and update
-- wrote (17 indexes per row with the primary key's before this, 15 after). intel_risk (0008) is the same index as
-- intel_feed_risk (0025, risk_score then id), so each plan that ordered by risk could take either
-- and the other was dead weight. intel_changed (0004, enriched_us) served "what changed since"
-- until changed_us and intel_feed_changed (0025) took over that read. Portable SQL.
DROP INDEX IF EXISTS intel_risk;
DROP INDEX IF EXISTS intel_changed;
