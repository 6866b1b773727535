-- Organisations' payout bank accounts (issue #13; organisation-and-account §3 "Bank account"). The
-- account number is envelope-encrypted like gateway tokens (internal/secrets, key_id names the key);
-- only its last four digits are kept in clear, for the masked display. The primary account is the
-- active one, the one payouts go to: at most one per organisation.
CREATE TABLE bank_accounts (
    organization_id     uuid NOT NULL REFERENCES organizations (organization_id),
    id                  uuid NOT NULL,
    country             char(2) NOT NULL,
    bank_code           text NOT NULL,
    bank_name           text NOT NULL,
    account_number      bytea NOT NULL,
    key_id              text NOT NULL,
    account_last4       text NOT NULL,
    account_type        text CHECK (account_type IN ('C', 'S', 'V', 'M')),
    currency            char(3) NOT NULL REFERENCES currencies (code),
    bank_address        text,
    bank_city           text,
    bank_branch         text,
    contact_first_name  text NOT NULL,
    contact_last_name   text NOT NULL,
    contact_email       text NOT NULL,
    contact_phone       text NOT NULL,
    is_primary          boolean NOT NULL DEFAULT true,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (country, bank_code) REFERENCES banks (country, code)
);
CREATE UNIQUE INDEX bank_accounts_primary_key ON bank_accounts (organization_id) WHERE is_primary;
