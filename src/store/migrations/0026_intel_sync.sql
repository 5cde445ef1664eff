-- The intel sync's state per source (src/services/intel_sync.h): the validators of the last
-- response imported (ETag, Last-Modified) and the URL they belong to, so the next fetch of the
-- same URL is conditional (If-None-Match / If-Modified-Since: a 304 moves nothing); and the last
-- attempt's outcome, for operators. Portable SQL.
CREATE TABLE intel_sync_state (
    source        TEXT PRIMARY KEY, -- kev | epss | atlas
    url           TEXT NOT NULL,    -- the URL the validators were given for
    etag          TEXT NOT NULL,    -- "" when the server sent none
    last_modified TEXT NOT NULL,    -- "" when the server sent none
    checked_at    TEXT NOT NULL,    -- the last attempt
    imported_at   TEXT NOT NULL,    -- the last import of new bytes ("" never)
    status        TEXT NOT NULL,    -- imported | not_modified | rejected | failed
    error         TEXT NOT NULL     -- why, for rejected and failed
);
