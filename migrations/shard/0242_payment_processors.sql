-- Integrated payments (issue #13; organisation-and-account §3 "Payment processor", "Gateway
-- option", §4 "Processor limits", §6 feature flags, §9 fees): the processors through which Aporta
-- charges on an organisation's behalf, and the rules routing donations to them.

-- The feature flags staff set in the console (audited in the directory's staff_audit_log).
ALTER TABLE organizations ADD COLUMN features text[] NOT NULL DEFAULT '{}'
    CHECK (features <@ '{multiple_payment_gateways,global_payments}'::text[]);

-- Each integrated gateway option and the fee it charges per approved charge (a reference table:
-- the parameter §9 leaves open), in basis points of the amount.
CREATE TABLE gateway_options (
    id        text PRIMARY KEY CHECK (id IN ('local_payments', 'global_payments')),
    fee_bps   integer NOT NULL CHECK (fee_bps BETWEEN 0 AND 10000),
    position  smallint NOT NULL UNIQUE
);
INSERT INTO gateway_options (id, fee_bps, position) VALUES ('local_payments', 399, 1), ('global_payments', 549, 2);

CREATE TABLE payment_processors (
    organization_id       uuid NOT NULL REFERENCES organizations (organization_id),
    id                    uuid NOT NULL,
    family                text NOT NULL REFERENCES gateway_options (id),
    gateway_name          text NOT NULL,
    soft_descriptor       text NOT NULL,
    position              integer NOT NULL,
    method_ids            text[] NOT NULL DEFAULT '{visa,master,amex}',
    allowed_without_cvv   boolean NOT NULL DEFAULT false,
    gateway_account_name  text NOT NULL,
    rule_retry            boolean NOT NULL DEFAULT false,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id)
);
-- One global processor per organisation; local ones are limited in Go (the flag allows several).
CREATE UNIQUE INDEX payment_processors_global_key ON payment_processors (organization_id) WHERE family = 'global_payments';

-- The campaigns a processor's rule routes (the global processor's campaigns rule).
CREATE TABLE payment_processor_campaigns (
    organization_id  uuid NOT NULL,
    processor_id     uuid NOT NULL,
    campaign_id      uuid NOT NULL,
    PRIMARY KEY (organization_id, processor_id, campaign_id),
    FOREIGN KEY (organization_id, processor_id) REFERENCES payment_processors (organization_id, id) ON DELETE CASCADE,
    FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id) ON DELETE CASCADE
);

-- The gateways page's product events (POST /manage/api/track): clicks on a disabled global
-- payments option or on creating a processor.
CREATE TABLE track_events (
    organization_id  uuid NOT NULL REFERENCES organizations (organization_id),
    id               uuid NOT NULL,
    user_id          uuid NOT NULL,
    event            text NOT NULL CHECK (event IN ('click_disabled_global_payments_message', 'click_create_payment_processor')),
    trigger          text NOT NULL CHECK (trigger IN ('button')),
    path             text NOT NULL,
    gateway          text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id)
);
