-- EPSS on intel records and "changed since" (src/engine/intel/epss.h): the record's current EPSS
-- score in parts per billion (-1: none) and the moment anything about it last changed here
-- (facts or EPSS; enriched_us moves with facts only). Rows stored before keep their facts' time.
ALTER TABLE intel_records ADD COLUMN epss BIGINT NOT NULL DEFAULT -1;
ALTER TABLE intel_records ADD COLUMN changed_us BIGINT NOT NULL DEFAULT 0;
-- the feed entry gains its last member, "epss" (null until a score arrives): appended to the
-- stored text, which always ends in its closing brace
UPDATE intel_records SET changed_us = enriched_us, entry = substr(entry, 1, length(entry) - 1) || ',"epss":null}';
-- The feed's other orders (sort=risk, sort=epss), each read from an index in list order for every
-- combination of the type and severity filters, as published is (0004); epss_min is a range of
-- the epss indexes, and since (like epss_min under the other orders) filters along them.
-- changed_us answers since's count and the feed's updated_at (its maximum).
CREATE INDEX intel_feed_risk ON intel_records (risk_score, id);
CREATE INDEX intel_feed_type_risk ON intel_records (type, risk_score, id);
CREATE INDEX intel_feed_severity_risk ON intel_records (severity, risk_score, id);
CREATE INDEX intel_feed_type_severity_risk ON intel_records (type, severity, risk_score, id);
CREATE INDEX intel_feed_epss ON intel_records (epss, id);
CREATE INDEX intel_feed_type_epss ON intel_records (type, epss, id);
CREATE INDEX intel_feed_severity_epss ON intel_records (severity, epss, id);
CREATE INDEX intel_feed_type_severity_epss ON intel_records (type, severity, epss, id);
CREATE INDEX intel_feed_changed ON intel_records (changed_us, id);
