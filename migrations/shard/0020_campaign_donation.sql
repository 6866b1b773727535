-- Campaign settings (donor spec §3), the public form's donations with their idempotency key, visits
-- and leads. Citus rules hold: organization_id is in every primary key, unique constraint and foreign key.

ALTER TABLE campaigns
    ADD COLUMN objective                text NOT NULL DEFAULT '',
    -- [{"amount": minor units, "label": "…"}], in the order the form shows them.
    ADD COLUMN amounts                  jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN allow_one_time           boolean NOT NULL DEFAULT true,
    ADD COLUMN allow_other_amount       boolean NOT NULL DEFAULT true,
    ADD COLUMN min_other_amount_minor   bigint CHECK (min_other_amount_minor > 0),
    ADD COLUMN instalments              smallint NOT NULL DEFAULT 0 CHECK (instalments IN (0, 3, 6, 9, 12)),
    ADD COLUMN form_color               text CHECK (form_color ~ '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$'),
    ADD COLUMN cover_key                text,
    ADD COLUMN ends_at                  timestamptz,
    ADD COLUMN upgrade_enabled          boolean NOT NULL DEFAULT false,
    ADD COLUMN upgrade_percentage       numeric(6,2),
    ADD COLUMN upgrade_period_months    smallint CHECK (upgrade_period_months IN (1, 2, 3, 4, 6, 12)),
    ADD COLUMN upgrade_min_percentage   numeric(6,2),
    ADD COLUMN upgrade_max_percentage   numeric(6,2),
    ADD COLUMN pixel_id                 text NOT NULL DEFAULT '',
    ADD COLUMN analytics_id             text NOT NULL DEFAULT '',
    ADD COLUMN tag_manager_id           text NOT NULL DEFAULT '',
    ADD COLUMN thanks_instant           text NOT NULL DEFAULT '',
    ADD COLUMN thanks_email_subject     text NOT NULL DEFAULT '',
    ADD COLUMN thanks_email             text NOT NULL DEFAULT '',
    ADD COLUMN immediate_charge         boolean NOT NULL DEFAULT false,
    -- Event extras for tickets campaigns: {category, format, starts_at, ends_at, ticket_sales_end,
    -- tickets: [{name, quantity|null}]} (null quantity: unlimited).
    ADD COLUMN event                    jsonb,
    -- Ordered form fields: [{type, title, label, width, required, hide_on_mobile, value_related_to}].
    ADD COLUMN form_fields              jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN published_at             timestamptz;

-- The public form's key: a double click or a retry finds the donation the first request made.
-- 'pending' (first charge not settled yet) and 'rejected' (first charge refused) are never collected.
ALTER TABLE donations
    ADD COLUMN idempotency_key   text,
    ADD COLUMN items             jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN upgrade_opt_in    boolean NOT NULL DEFAULT false,
    ADD COLUMN instalments       smallint NOT NULL DEFAULT 0,
    ADD COLUMN converted_at      timestamptz,
    ADD CONSTRAINT donations_idempotency_key UNIQUE (organization_id, idempotency_key),
    DROP CONSTRAINT donations_status_check,
    ADD CONSTRAINT donations_status_check CHECK (status IN ('pending','active','paused','discarded','rejected'));

ALTER TABLE payment_methods
    ADD COLUMN holder_id_type        text,
    ADD COLUMN holder_id_number      text,
    ADD COLUMN donor_is_cardholder   boolean NOT NULL DEFAULT true;

-- Visits per campaign and day, for the dashboard's conversion.
CREATE TABLE campaign_visits (
    organization_id  uuid NOT NULL,
    campaign_id      uuid NOT NULL,
    day              date NOT NULL,
    visits           bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (organization_id, campaign_id, day),
    FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id)
);

-- People who typed a valid e-mail on a form but did not finish; kept 90 days after the last visit.
CREATE TABLE leads (
    organization_id  uuid NOT NULL,
    id               uuid NOT NULL,
    campaign_id      uuid NOT NULL,
    email            text NOT NULL,
    first_name       text NOT NULL DEFAULT '',
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    UNIQUE (organization_id, email),
    FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id)
);
CREATE INDEX leads_updated_idx ON leads (organization_id, updated_at);
