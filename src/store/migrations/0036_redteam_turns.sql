-- Adaptive attacks (issue 20). Each request of an attack's escalation is stored as it happens
-- (engagement_turns, keyed by the attack's request index `step`), so a resumed engagement
-- replays what it has instead of asking the target again; `exchange` is the reply text and the
-- answer body as JSON, sealed (common/seal.h) like an asset's secret when the server has a key,
-- because a reply may hold what the target leaked. An engagement keeps its budget (requests and
-- seconds of target time, fixed at engage), an attack row how its search ended. Portable SQL.
CREATE TABLE engagement_turns (
    engagement_id TEXT NOT NULL,
    attack_id     TEXT NOT NULL,
    step          INTEGER NOT NULL,
    path          TEXT NOT NULL,    -- the node, e.g. "persona+base64"; "" for the attack as written
    turn          INTEGER NOT NULL, -- the user turn within the node
    status        INTEGER NOT NULL, -- 0 a reply; else the HTTP status a guard rejected it with
    exchange      TEXT NOT NULL,
    elapsed_ms    INTEGER NOT NULL,
    created_us    BIGINT NOT NULL,
    PRIMARY KEY (engagement_id, attack_id, step)
);
ALTER TABLE engagements ADD COLUMN budget_requests INTEGER NOT NULL DEFAULT 0;
ALTER TABLE engagements ADD COLUMN budget_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE engagement_attacks ADD COLUMN search TEXT;
