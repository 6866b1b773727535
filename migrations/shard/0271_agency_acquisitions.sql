-- Donors an agency signed up (api/agency work area). The id is also the donation's once synced, and
-- the Keto Donation object from the start. In sandbox mode (practice) a row stays here for good: no
-- gateway call, never charged, never synced. In live mode it waits sync_delay seconds (the agency's
-- delay when it was made) as 'pending', when the agent or a supervisor may correct or void it, then
-- workflows/agencysync makes it the organisation's donation ('synced', donation_id set) or voids it
-- when the agency was discarded meanwhile. The card is saved at the gateway when the agent submits
-- (browser tokens are single-use): customer and card ids only, never card data.
CREATE TABLE agency_acquisitions (
    organization_id  uuid NOT NULL,
    id               uuid NOT NULL,
    agency_id        uuid NOT NULL,
    campaign_id      uuid NOT NULL,
    agent_id         uuid NOT NULL,
    mode             text NOT NULL CHECK (mode IN ('sandbox','live')),
    status           text NOT NULL CHECK (status IN ('practice','pending','synced','voided')),
    void_reason      text,
    amount_minor     bigint NOT NULL CHECK (amount_minor > 0),
    currency         char(3) NOT NULL,
    recurrence       smallint NOT NULL CHECK (recurrence IN (0, 1)),
    email            text NOT NULL,
    first_name       text NOT NULL,
    last_name        text NOT NULL,
    uid_type         text,
    uid_number       text,
    customer_id      text,
    card_id          text,
    brand            text NOT NULL DEFAULT '',
    bin              text NOT NULL DEFAULT '',
    last_four        text NOT NULL DEFAULT '',
    expiry_month     smallint NOT NULL DEFAULT 0,
    expiry_year      smallint NOT NULL DEFAULT 0,
    holder_name      text NOT NULL DEFAULT '',
    sync_delay       integer NOT NULL,
    sync_at          timestamptz,
    donation_id      uuid,
    idempotency_key  text NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    UNIQUE (organization_id, agency_id, idempotency_key),
    FOREIGN KEY (organization_id, agency_id) REFERENCES agencies (organization_id, id),
    FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id)
);
CREATE INDEX agency_acquisitions_agency_idx ON agency_acquisitions (organization_id, agency_id, created_at DESC);

-- Who acquired a donation: the organisation's lists filter and show it.
ALTER TABLE donations ADD COLUMN agency_id uuid, ADD COLUMN acquired_by uuid,
    ADD CONSTRAINT donations_agency_fk FOREIGN KEY (organization_id, agency_id) REFERENCES agencies (organization_id, id);
