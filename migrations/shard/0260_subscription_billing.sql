-- The organisation's own subscription to a paid plan (organisation-and-account §2 "Subscription",
-- §4 "Subscription flow", "Payment flow"; issue #14), billed by workflows/billing.
-- Citus rules hold: organization_id leads every primary key, unique index and foreign key.

-- One validated way to pay (POST /manage/api/validations/{card,cbu,bank_transfer}): the answer's
-- authorization. A card is saved at the PLATFORM's gateway account (never the organisation's): only
-- the platform customer, the saved card's id, brand and last four are kept. A CBU authorization is
-- the direct-debit mandate: who accepted it and when. A bank transfer keeps the payer (§3 "Bank
-- transfer payer"). Used once: POST /manage/api/subscription or a payment-method change consumes it.
CREATE TABLE subscription_authorizations (
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    id              uuid NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('card', 'cbu', 'bank_transfer')),
    -- The plan validated for (card and bank transfer name one; a CBU mandate serves any).
    plan_code       text REFERENCES plans (code),
    identity_id     uuid NOT NULL,
    customer_id     text,
    card_id         text,
    card_brand      text,
    card_last_four  char(4),
    cbu             char(22) CHECK (cbu ~ '^[0-9]{22}$'),
    mandate_accepted_at timestamptz,
    payer           jsonb,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    used_at         timestamptz,
    PRIMARY KEY (organization_id, id),
    CONSTRAINT subscription_authorizations_shape CHECK (
        (kind = 'card' AND customer_id IS NOT NULL AND card_id IS NOT NULL AND card_last_four IS NOT NULL) OR
        (kind = 'cbu' AND cbu IS NOT NULL AND mandate_accepted_at IS NOT NULL) OR
        (kind = 'bank_transfer' AND payer IS NOT NULL))
);

-- A subscription: pending until its first period is paid (a bank transfer waits for staff), active,
-- past_due while a renewal is being retried, cancelled (kept to the end of the paid period) and
-- ended. At most one live subscription per organisation.
CREATE TABLE organization_subscriptions (
    organization_id  uuid NOT NULL REFERENCES organizations (organization_id),
    id               uuid NOT NULL,
    plan_code        text NOT NULL REFERENCES plans (code) CHECK (plan_code <> 'original'),
    status           text NOT NULL CHECK (status IN ('pending', 'active', 'past_due', 'cancelled', 'ended')),
    payment_mode     text NOT NULL CHECK (payment_mode IN ('card', 'cbu', 'bank_transfer')),
    authorization_id uuid NOT NULL,
    -- The paid period: next charge at paid_until.
    paid_from        timestamptz,
    paid_until       timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, authorization_id) REFERENCES subscription_authorizations (organization_id, id)
);
CREATE UNIQUE INDEX organization_subscriptions_live ON organization_subscriptions (organization_id)
    WHERE status IN ('pending', 'active', 'past_due', 'cancelled');

-- One period's charge, the invoice. Its key is the period: a period is charged at most once (the
-- gateway's idempotency key and external reference derive from it).
CREATE TABLE subscription_invoices (
    organization_id    uuid NOT NULL,
    subscription_id    uuid NOT NULL,
    period_start       timestamptz NOT NULL,
    period_end         timestamptz NOT NULL CHECK (period_end > period_start),
    plan_code          text NOT NULL REFERENCES plans (code),
    amount_minor       bigint NOT NULL CHECK (amount_minor > 0),
    currency           char(3) NOT NULL REFERENCES currencies (code),
    payment_mode       text NOT NULL CHECK (payment_mode IN ('card', 'cbu', 'bank_transfer')),
    status             text NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
    attempts           integer NOT NULL DEFAULT 0,
    gateway_payment_id text,
    status_detail      text,
    paid_at            timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, subscription_id, period_start),
    FOREIGN KEY (organization_id, subscription_id) REFERENCES organization_subscriptions (organization_id, id)
);
