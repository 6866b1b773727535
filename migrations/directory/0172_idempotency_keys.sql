-- Idempotency-Key headers of public endpoints (signup), as the shards keep the manage API's
-- (api/idempotency): organization_id is the nil uuid, the key is bound to its request's hash.
CREATE TABLE idempotency_keys (
    organization_id uuid NOT NULL,
    key             text NOT NULL,
    request_hash    bytea NOT NULL,
    status          smallint,
    content_type    text,
    body            bytea,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (organization_id, created_at);
