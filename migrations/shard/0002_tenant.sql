-- Tenant tables. Citus rules, checked by tenants' catalog test: organization_id is in every primary
-- key, every unique constraint and every foreign key between tenant tables, so all of an
-- organisation's rows are co-located on one worker and joins never cross nodes.

CREATE TABLE organizations (
    organization_id  uuid PRIMARY KEY,
    name             text NOT NULL CHECK (length(name) >= 3),
    country          char(2) NOT NULL REFERENCES countries (code),
    uid_type         text,
    uid              text,
    timezone         text NOT NULL,
    plan_code        text NOT NULL DEFAULT 'original' REFERENCES plans (code),
    status           text NOT NULL DEFAULT 'onboarding'
                     CHECK (status IN ('onboarding','verifying','enabled','disabled')),
    -- Completed onboarding steps (verification, gateway, documents), kept by the onboarding workflow.
    onboarding_steps text[] NOT NULL DEFAULT '{}',
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE campaigns (
    organization_id  uuid NOT NULL REFERENCES organizations (organization_id),
    id               uuid NOT NULL,
    slug             text NOT NULL,
    title            text NOT NULL,
    description      text NOT NULL DEFAULT '',
    type             text NOT NULL CHECK (type IN ('crowdfund','custom','fundraise','promoted','tickets')),
    channel          text NOT NULL DEFAULT 'public' CHECK (channel IN ('agents','f2f','private','public')),
    currency         char(3) NOT NULL REFERENCES currencies (code),
    published        boolean NOT NULL DEFAULT false,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    UNIQUE (organization_id, slug)
);

CREATE TABLE donors (
    organization_id  uuid NOT NULL REFERENCES organizations (organization_id),
    id               uuid NOT NULL,
    email            text NOT NULL,
    first_name       text NOT NULL,
    last_name        text NOT NULL,
    uid_type         text REFERENCES document_types (code),
    uid_number       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    UNIQUE (organization_id, email)
);

CREATE TABLE donations (
    organization_id  uuid NOT NULL,
    id               uuid NOT NULL,
    campaign_id      uuid NOT NULL,
    donor_id         uuid NOT NULL,
    amount_minor     bigint NOT NULL CHECK (amount_minor > 0),
    currency         char(3) NOT NULL REFERENCES currencies (code),
    recurrence       smallint NOT NULL DEFAULT 1 CHECK (recurrence IN (0, 1)), -- 1 monthly, 0 one-time
    collect_day      smallint CHECK (collect_day BETWEEN 1 AND 31), -- NULL: last day of month
    status           text NOT NULL DEFAULT 'active' CHECK (status IN ('active','paused','discarded')),
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id),
    FOREIGN KEY (organization_id, donor_id) REFERENCES donors (organization_id, id)
);
CREATE INDEX donations_campaign_idx ON donations (organization_id, campaign_id, created_at);

CREATE TABLE transactions (
    organization_id  uuid NOT NULL,
    id               uuid NOT NULL,
    donation_id      uuid NOT NULL,
    period           char(7), -- YYYY-MM for monthly charges, NULL for one-time
    amount_minor     bigint NOT NULL CHECK (amount_minor > 0),
    currency         char(3) NOT NULL REFERENCES currencies (code),
    status           text NOT NULL CHECK (status IN ('approved','cancelled','charged_back','in_mediation',
                     'in_process','pending','planned','refunded','rejected','non_existant')),
    gateway_payment_id text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, donation_id) REFERENCES donations (organization_id, id)
);
CREATE INDEX transactions_donation_idx ON transactions (organization_id, donation_id, created_at);
