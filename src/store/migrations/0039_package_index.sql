-- Indexes of existing package names that an operator imports (`bulwark packages import`, issue
-- 20): the red team's LLM09 check asks them after the embedded lists (data/packages), so a real
-- package missing from those lists is not reported as invented. Names are kept in their
-- ecosystem's normal form (src/engine/pkgindex.h), so a check is one primary-key probe. In the
-- database, not a file in the data directory: an import survives restarts, and every instance
-- on one database sees it at its next check, with no reload to signal. Portable SQL.
CREATE TABLE package_names (
    ecosystem TEXT NOT NULL, -- npm | pypi
    name      TEXT NOT NULL,
    PRIMARY KEY (ecosystem, name)
);
-- One row per ecosystem that has an index: how many names, and what the last import read.
CREATE TABLE package_indexes (
    ecosystem   TEXT PRIMARY KEY,
    names       BIGINT NOT NULL,
    source      TEXT NOT NULL, -- the last imported file's name
    format      TEXT NOT NULL, -- the format it was read as
    imported_at TEXT NOT NULL
);
