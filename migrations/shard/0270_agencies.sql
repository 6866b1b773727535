-- External teams (agencies) of an organisation: face-to-face fundraisers who sign donors up on the
-- campaigns the organisation authorised. In sandbox mode their acquisitions are practice (kept
-- apart, never charged, never synced); in live mode each waits sync_delay seconds, during which the
-- agency may correct or void it, then becomes the organisation's donation (workflows/agencysync).
CREATE TABLE agencies (
    organization_id  uuid NOT NULL REFERENCES organizations (organization_id),
    id               uuid NOT NULL,
    name             text NOT NULL CHECK (length(name) BETWEEN 3 AND 120),
    mode             text NOT NULL DEFAULT 'sandbox' CHECK (mode IN ('sandbox','live')),
    sync_delay       integer NOT NULL DEFAULT 0 CHECK (sync_delay IN (0, 60, 300, 600, 1800, 3600, 7200)),
    discarded_at     timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id)
);

-- The campaigns an agency may sign donors up on, and how its form offers them.
CREATE TABLE agency_campaigns (
    organization_id     uuid NOT NULL,
    agency_id           uuid NOT NULL,
    campaign_id         uuid NOT NULL,
    allow_one_time      boolean NOT NULL DEFAULT false,
    allow_other_amount  boolean NOT NULL DEFAULT false,
    amounts             bigint[] NOT NULL DEFAULT '{}' CHECK (cardinality(amounts) <= 8 AND 0 < ALL (amounts)),
    created_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, agency_id, campaign_id),
    FOREIGN KEY (organization_id, agency_id) REFERENCES agencies (organization_id, id),
    FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id)
);
