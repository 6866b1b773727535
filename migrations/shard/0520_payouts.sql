-- Payouts of integrated payments (issue #13): the money the platform collected through an
-- organisation's processors (each a merchant account at dLocal) is paid out to the organisation's
-- active bank account, net of Aporta's commission and the processor's fee, by the payouts workflow
-- (workflows/payouts). One payout per processor at a time; its currency is the processor's.
--
-- status: waiting (no active bank account in its currency: wait_reason says why, and the next cycle
-- looks again, adding the charges settled meanwhile), sending (the bank account is fixed and the
-- charges frozen: the payout is being asked of dLocal under its own id as external_id), paid, failed
-- (dLocal refused it: its charges are released to the next payout; charges keeps how many it had).
CREATE TABLE payouts (
    organization_id     uuid NOT NULL REFERENCES organizations (organization_id),
    id                  uuid NOT NULL,
    processor_id        uuid NOT NULL, -- no foreign key: a processor deleted later keeps its history
    currency            char(3) NOT NULL REFERENCES currencies (code),
    status              text NOT NULL CHECK (status IN ('waiting', 'sending', 'paid', 'failed')),
    wait_reason         text,
    failure             text,
    gross_minor         bigint NOT NULL DEFAULT 0,
    commission_minor    bigint NOT NULL DEFAULT 0,
    fee_minor           bigint NOT NULL DEFAULT 0,
    deducted_minor      bigint NOT NULL DEFAULT 0, -- what earlier payouts paid for charges given back since
    net_minor           bigint NOT NULL DEFAULT 0,
    charges             integer NOT NULL DEFAULT 0,
    bank_account_id     uuid,
    bank_name           text,
    bank_last4          text,
    external_payout_id  text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    sent_at             timestamptz,
    paid_at             timestamptz,
    updated_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, bank_account_id) REFERENCES bank_accounts (organization_id, id),
    CHECK (status <> 'waiting' OR wait_reason IS NOT NULL),
    CHECK (status NOT IN ('sending', 'paid') OR (bank_account_id IS NOT NULL AND net_minor > 0)),
    CHECK (status <> 'paid' OR external_payout_id IS NOT NULL)
);
-- At most one open payout per processor: a cycle adds to it rather than opening a second.
CREATE UNIQUE INDEX payouts_open_key ON payouts (organization_id, processor_id) WHERE status IN ('waiting', 'sending');
CREATE INDEX payouts_created_idx ON payouts (organization_id, created_at DESC);

-- What a payout pays: each approved charge through the processor once (kind charge: its amount less
-- commission and fee), and, once, each charge an earlier paid payout included that was refunded or
-- charged back since (kind reversal: minus what that payout paid for it). The key makes a charge
-- belong to exactly one payout, and its reversal to one.
CREATE TABLE payout_items (
    organization_id   uuid NOT NULL,
    payout_id         uuid NOT NULL,
    transaction_id    uuid NOT NULL,
    kind              text NOT NULL CHECK (kind IN ('charge', 'reversal')),
    gross_minor       bigint NOT NULL,
    commission_minor  bigint NOT NULL,
    fee_minor         bigint NOT NULL,
    net_minor         bigint NOT NULL,
    PRIMARY KEY (organization_id, transaction_id, kind),
    FOREIGN KEY (organization_id, payout_id) REFERENCES payouts (organization_id, id) ON DELETE CASCADE,
    FOREIGN KEY (organization_id, transaction_id) REFERENCES transactions (organization_id, id)
);
CREATE INDEX payout_items_payout_idx ON payout_items (organization_id, payout_id);
