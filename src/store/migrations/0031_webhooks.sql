-- Webhooks (issue 22): an account's endpoints for events, and one row per delivery of an event to
-- one endpoint (src/store/store_webhooks.h). The signing secret is sealed (common/seal.h) like an
-- asset's connection secret; events is the subscribed event names as ",a,b," so a subscription
-- is one exact LIKE ',name,' test. A delivery keeps the body it sends (every try sends the same
-- bytes, signed afresh with the try's timestamp) and the outcome of its last try. Portable SQL.
CREATE TABLE webhooks (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id),
    url           TEXT NOT NULL,
    events        TEXT NOT NULL,
    secret_sealed TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    created_us    BIGINT NOT NULL
);
CREATE INDEX webhooks_user ON webhooks (user_id, created_us);

CREATE TABLE webhook_deliveries (
    id           TEXT PRIMARY KEY,
    webhook_id   TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    event        TEXT NOT NULL,
    event_id     TEXT NOT NULL,
    body         TEXT NOT NULL,
    status       TEXT NOT NULL,    -- pending | delivered | failed
    tries        INTEGER NOT NULL, -- tries made so far
    last_status  INTEGER NOT NULL, -- HTTP status of the last try's response; 0 when none came
    error        TEXT NOT NULL,    -- why the last try failed; "" after a success
    created_at   TEXT NOT NULL,
    created_us   BIGINT NOT NULL,
    updated_at   TEXT NOT NULL,
    next_try_at  TEXT NOT NULL,    -- "" when no try is planned
    delivered_at TEXT NOT NULL     -- "" until delivered
);
-- the delivery log of one webhook, newest first, keyset paged
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries (webhook_id, created_us, id);
