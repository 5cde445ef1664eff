-- GET /api/accounts pages accounts newest first by (created_at, id), every account for an admin
-- and an mssp's own (managed_by = it) for an mssp: one index each, so a page (offset or keyset) is
-- a range read backwards with nothing sorted, however many accounts there are. Portable SQL.
CREATE INDEX users_page ON users (created_at, id);
CREATE INDEX users_managed_page ON users (managed_by, created_at, id);
