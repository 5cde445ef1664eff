-- Every list page from an index (keyset cursors, src/common/cursor.h): each list's order ends in
-- its id, so "the rows after (key, id)" is one range of an index in list order, for each filter
-- combination a list offers. The old indexes are prefixes of these and go.
DROP INDEX assets_user;
CREATE INDEX assets_page ON assets (user_id, created_us, id);
CREATE INDEX assets_page_type ON assets (user_id, type, created_us, id);
CREATE INDEX assets_page_risk ON assets (user_id, risk_level, created_us, id);
CREATE INDEX assets_page_type_risk ON assets (user_id, type, risk_level, created_us, id);
DROP INDEX playbooks_history;
CREATE INDEX playbooks_page ON playbooks (user_id, generated_us, id);
-- The scan and engagement lists (newest first per asset / per account, filtered by status and
-- asset) read the same way.
DROP INDEX asset_scans_asset;
CREATE INDEX asset_scans_page ON asset_scans (asset_id, created_us, id);
CREATE INDEX engagements_page ON engagements (user_id, created_us, id);
CREATE INDEX engagements_page_status ON engagements (user_id, status, created_us, id);
CREATE INDEX engagements_page_asset ON engagements (user_id, asset_id, created_us, id);
CREATE INDEX engagements_page_asset_status ON engagements (user_id, asset_id, status, created_us, id);
