-- Monthly collection (workflows/collection): saved payment methods, the donation's lifecycle fields,
-- one approved transaction per donation-period at most, the version history and periodic increases.
-- Citus rules hold: organization_id is in every primary key, unique constraint/index and foreign key.

-- A card saved at the gateway. Only what the gateway gives back after tokenising in the browser:
-- never a card number or a security code.
CREATE TABLE payment_methods (
    organization_id   uuid NOT NULL REFERENCES organizations (organization_id),
    id                uuid NOT NULL,
    donor_id          uuid NOT NULL,
    gateway           text NOT NULL DEFAULT 'mercadopago',
    customer_id       text NOT NULL,  -- the gateway's customer
    card_id           text NOT NULL,  -- the gateway's saved card
    brand             text NOT NULL,  -- visa, master, amex, naranja…
    bin               text CHECK (bin ~ '^[0-9]{6,8}$'),
    last_four         char(4) NOT NULL CHECK (last_four ~ '^[0-9]{4}$'),
    expiry_month      smallint NOT NULL CHECK (expiry_month BETWEEN 1 AND 12),
    expiry_year       smallint NOT NULL CHECK (expiry_year BETWEEN 2000 AND 2200),
    holder_name       text NOT NULL DEFAULT '',
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    UNIQUE (organization_id, gateway, customer_id, card_id),
    FOREIGN KEY (organization_id, donor_id) REFERENCES donors (organization_id, id)
);

ALTER TABLE donations
    ADD COLUMN payment_method_id          uuid,
    ADD COLUMN paused_reason              text CHECK (paused_reason IN (
        'all_not_approved','by_api','by_org','cc_expired','cc_invalid_number','cc_missing_security_code',
        'donor_request_stop_debit','invalid_amount','last_transaction_card_cancelled',
        'last_transaction_charge_back','last_transaction_high_risk','last_transaction_stolen_issue',
        'last_transactions_not_approved','last_x_months_not_approved','payment_method_invalid',
        'payment_method_missing','payment_method_not_supported','unknown')),
    ADD COLUMN paused_since               timestamptz,
    ADD COLUMN discarded_at               timestamptz,
    ADD COLUMN discard_reason             text,
    ADD COLUMN next_charge_date           date,
    ADD COLUMN consecutive_failed_periods integer NOT NULL DEFAULT 0 CHECK (consecutive_failed_periods >= 0),
    ADD COLUMN updated_at                 timestamptz NOT NULL DEFAULT now(),
    ADD CONSTRAINT donations_payment_method_fk FOREIGN KEY (organization_id, payment_method_id)
        REFERENCES payment_methods (organization_id, id),
    ADD CONSTRAINT donations_paused_has_reason CHECK (status <> 'paused' OR paused_reason IS NOT NULL);

-- Collection charges a period at most once: each attempt is its own row (attempt 1…n), and at most
-- one row of a donation-period can ever be approved. The workflow's activities upsert on
-- (donation, period, attempt), so retries and replays never add rows.
ALTER TABLE transactions
    ADD COLUMN attempt            smallint NOT NULL DEFAULT 1 CHECK (attempt >= 1),
    ADD COLUMN payment_method_id  uuid,
    ADD COLUMN status_detail      text,
    ADD COLUMN charged_at         timestamptz,
    ADD COLUMN updated_at         timestamptz NOT NULL DEFAULT now(),
    ADD CONSTRAINT transactions_payment_method_fk FOREIGN KEY (organization_id, payment_method_id)
        REFERENCES payment_methods (organization_id, id),
    ADD CONSTRAINT transactions_period_attempt_key UNIQUE (organization_id, donation_id, period, attempt);
CREATE UNIQUE INDEX transactions_one_approved_per_period
    ON transactions (organization_id, donation_id, period) WHERE status = 'approved';

-- Who changed what on a donation, and when. Written by the collection workflow's activities, keyed by
-- a change id so an activity retry does not write a second row.
CREATE TABLE donation_versions (
    organization_id  uuid NOT NULL,
    id               uuid NOT NULL,
    donation_id      uuid NOT NULL,
    actor            text NOT NULL,  -- user id, "system" or "api"
    field            text NOT NULL,  -- amount, payment_method, status, upgrade…
    before           jsonb,
    after            jsonb,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, donation_id) REFERENCES donations (organization_id, id)
);
CREATE INDEX donation_versions_donation_idx ON donation_versions (organization_id, donation_id, created_at);

-- Periodic increase: the amount grows by percentage every period_months (1, 2, 3, 4, 6 or 12).
CREATE TABLE upgrades (
    organization_id  uuid NOT NULL,
    id               uuid NOT NULL,
    donation_id      uuid NOT NULL,
    percentage       numeric(6,2) NOT NULL CHECK (percentage > 0 AND percentage <= 1000),
    period_months    smallint NOT NULL CHECK (period_months IN (1, 2, 3, 4, 6, 12)),
    old_amount_minor bigint NOT NULL CHECK (old_amount_minor > 0),
    new_amount_minor bigint NOT NULL CHECK (new_amount_minor > 0),
    next_date        date NOT NULL,
    auto             boolean NOT NULL DEFAULT true,
    removed_at       timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, donation_id) REFERENCES donations (organization_id, id)
);
CREATE INDEX upgrades_donation_idx ON upgrades (organization_id, donation_id);

-- Every time an upgrade was applied: one row per upgrade and date, so a retried activity is a no-op.
CREATE TABLE upgrade_history (
    organization_id  uuid NOT NULL,
    upgrade_id       uuid NOT NULL,
    applied_on       date NOT NULL,
    old_amount_minor bigint NOT NULL,
    new_amount_minor bigint NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, upgrade_id, applied_on),
    FOREIGN KEY (organization_id, upgrade_id) REFERENCES upgrades (organization_id, id)
);
