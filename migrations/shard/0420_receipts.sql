-- Donation receipts (issue 20): one per approved charge, numbered per organisation without gaps.
-- charge.Record takes the next number from the organisation's counter row in the transaction that
-- records the approval: the row stays locked until COMMIT, and a rollback gives the number back.
-- A receipt keeps the legal data it was issued with (the organisation's and the donor's names and
-- tax ids, the address), so a later edit does not change a document already handed out.
-- Tenant tables: organization_id leads every key.
CREATE TABLE receipt_counters (
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    last_number     bigint NOT NULL CHECK (last_number > 0),
    PRIMARY KEY (organization_id)
);

CREATE TABLE receipts (
    organization_id  uuid NOT NULL,
    number           bigint NOT NULL CHECK (number > 0),
    transaction_id   uuid NOT NULL,
    donation_id      uuid NOT NULL,
    donor_id         uuid NOT NULL,
    amount_minor     bigint NOT NULL CHECK (amount_minor > 0),
    currency         char(3) NOT NULL,
    charged_at       timestamptz NOT NULL,
    campaign_title   text NOT NULL,
    donor_name       text NOT NULL,
    donor_email      text NOT NULL,
    donor_tax_id     text NOT NULL DEFAULT '',
    org_legal_name   text NOT NULL,
    org_tax_id       text NOT NULL DEFAULT '',
    org_address      text NOT NULL DEFAULT '',
    issued_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, number),
    CONSTRAINT receipts_one_per_transaction UNIQUE (organization_id, transaction_id),
    FOREIGN KEY (organization_id, transaction_id) REFERENCES transactions (organization_id, id),
    FOREIGN KEY (organization_id, donation_id) REFERENCES donations (organization_id, id),
    FOREIGN KEY (organization_id, donor_id) REFERENCES donors (organization_id, id)
);
-- A donor's receipts of a year (the yearly summary, the portal).
CREATE INDEX receipts_donor_idx ON receipts (organization_id, donor_id, charged_at);
