-- Webhooks (issue #20): an organisation's HTTPS endpoints, and one delivery per event and endpoint.
-- Tenant tables: organization_id leads every key (Citus).

-- secret is envelope-encrypted (internal/secrets), bound to the row; shown once when made, never
-- answered or logged again. events are the event types the endpoint takes (internal/webhook).
-- An endpoint whose deliveries kept failing for the whole retry window is disabled (disabled_at).
CREATE TABLE webhook_endpoints (
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    id              uuid NOT NULL,
    url             text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
    description     text NOT NULL DEFAULT '' CHECK (length(description) <= 200),
    events          text[] NOT NULL CHECK (cardinality(events) > 0),
    secret          bytea NOT NULL,
    key_id          text NOT NULL,
    status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
    disabled_at     timestamptz,
    last_success_at timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id)
);

-- Written in the transaction of the change the event tells (internal/webhook.Enqueue), one row per
-- subscribed active endpoint; body is the exact JSON sent, the same on every attempt and resend.
-- dispatched_at: the endpoint's workflow started the delivery's. resent_from: a resend's original
-- (an event reaches an endpoint once, unless resent). attempts and last_* are the delivery log.
CREATE TABLE webhook_deliveries (
    organization_id  uuid NOT NULL,
    endpoint_id      uuid NOT NULL,
    id               uuid NOT NULL,
    event_id         uuid NOT NULL,
    event_type       text NOT NULL,
    body             jsonb NOT NULL,
    resent_from      uuid,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    dispatched_at    timestamptz,
    attempts         integer NOT NULL DEFAULT 0,
    last_attempt_at  timestamptz,
    last_status_code integer,
    last_duration_ms integer,
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX webhook_deliveries_event_key ON webhook_deliveries (organization_id, endpoint_id, event_id) WHERE resent_from IS NULL;
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (organization_id, endpoint_id, created_at DESC);
CREATE INDEX webhook_deliveries_undispatched_idx ON webhook_deliveries (organization_id, endpoint_id, created_at) WHERE dispatched_at IS NULL;
