-- CRM integrations (issue #16): an organisation's connection to its Salesforce-style CRM, the
-- mapping of our attributes to the CRM's fields, the queue of changes still to send, and the log
-- of every call made. Tenant tables: organization_id leads every key (Citus).

-- client_secret is envelope-encrypted (internal/secrets), bound to the row; never answered or logged.
-- usage_* is the last Sforce-Limit-Info the CRM reported; parked_until is set when its daily budget
-- (or ours, daily_call_limit) ran out; describes caches the CRM's sObject describes the mapping
-- is validated against.
CREATE TABLE crm_integrations (
    organization_id   uuid NOT NULL REFERENCES organizations (organization_id),
    id                uuid NOT NULL,
    name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    login_url         text NOT NULL,
    client_id         text NOT NULL,
    client_secret     bytea NOT NULL,
    key_id            text NOT NULL,
    external_id_field text NOT NULL DEFAULT 'Aporta_Id__c',
    daily_call_limit  integer CHECK (daily_call_limit > 0),
    status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'needs_attention')),
    last_error        text,
    usage_used        integer,
    usage_max         integer,
    usage_at          timestamptz,
    parked_until      timestamptz,
    describes         jsonb NOT NULL DEFAULT '{}',
    resync_total      integer NOT NULL DEFAULT 0,
    resync_started_at timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id)
);

-- One attribute of ours (class_name's) to one field of a CRM object; a field takes one attribute.
-- value_map translates our values (statuses…) into the CRM's (a picklist's), {"paused": "Paused"}.
CREATE TABLE crm_rules (
    organization_id uuid NOT NULL,
    integration_id  uuid NOT NULL,
    id              uuid NOT NULL,
    class_name      text NOT NULL CHECK (class_name IN ('donor', 'donation', 'campaign')),
    attribute       text NOT NULL,
    crm_object      text NOT NULL CHECK (crm_object IN ('contact', 'campaign', 'opportunity', 'recurring_donation')),
    field           text NOT NULL,
    sync_rule       text NOT NULL CHECK (sync_rule IN ('always_override', 'override_if_empty')),
    value_map       jsonb NOT NULL DEFAULT '{}',
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    CONSTRAINT crm_rules_field_key UNIQUE (organization_id, integration_id, crm_object, field),
    FOREIGN KEY (organization_id, integration_id) REFERENCES crm_integrations (organization_id, id) ON DELETE CASCADE
);

-- The outbox of the sync: written in the transaction that changes a donor, donation or campaign.
-- One pending row per record (a later change bumps version; the sync deletes a row only at the
-- version it sent, so a change made while a batch is in flight is sent again). A record the CRM
-- refused stays as 'failed' with its error and the request that failed it, until retried.
CREATE TABLE crm_changes (
    organization_id uuid NOT NULL,
    integration_id  uuid NOT NULL,
    id              uuid NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('donor', 'donation', 'campaign')),
    record_id       uuid NOT NULL,
    version         integer NOT NULL DEFAULT 1,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed')),
    enqueued_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    error           text,
    request_id      uuid,
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, integration_id) REFERENCES crm_integrations (organization_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX crm_changes_pending_key ON crm_changes (organization_id, integration_id, kind, record_id) WHERE status = 'pending';
CREATE INDEX crm_changes_queue_idx ON crm_changes (organization_id, integration_id, status, enqueued_at);
CREATE INDEX crm_changes_request_idx ON crm_changes (organization_id, request_id) WHERE request_id IS NOT NULL;

-- Every call made to the CRM: what, how many records, the outcome and the budget left after it.
CREATE TABLE crm_requests (
    organization_id uuid NOT NULL,
    integration_id  uuid NOT NULL,
    id              uuid NOT NULL,
    at              timestamptz NOT NULL,
    object          text NOT NULL DEFAULT '',
    operation       text NOT NULL,
    records         integer NOT NULL DEFAULT 0,
    failed          integer NOT NULL DEFAULT 0,
    status          integer NOT NULL DEFAULT 0,
    outcome         text NOT NULL CHECK (outcome IN ('ok', 'partial', 'failed', 'limited', 'session_expired')),
    error           text,
    usage_used      integer,
    usage_max       integer,
    duration_ms     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, integration_id) REFERENCES crm_integrations (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX crm_requests_log_idx ON crm_requests (organization_id, integration_id, at DESC);
