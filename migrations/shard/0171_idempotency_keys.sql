-- Idempotency-Key headers of the manage API (api/idempotency): each key is bound to the request
-- that first used it (a hash of its method, path, caller and body) and keeps that request's
-- answer for 24 hours, so a retry replays it and another request with the key is refused.
-- A tenant table: organization_id leads its primary key.
CREATE TABLE idempotency_keys (
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    key             text NOT NULL,
    request_hash    bytea NOT NULL,
    status          smallint,      -- NULL while the first request runs
    content_type    text,
    body            bytea,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (organization_id, created_at);
