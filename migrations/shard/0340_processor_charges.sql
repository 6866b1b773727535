-- Integrated payments charge (issue #13): each processor has a merchant account at its processor
-- (dLocal), opened when the processor is added, whose keys are envelope-encrypted like gateway
-- connections' tokens (internal/secrets; key_id names the wrapping key); and each approved charge
-- made through a processor records the processor's fee beside Aporta's commission.
ALTER TABLE payment_processors
    ADD COLUMN merchant_login text,
    ADD COLUMN public_key     text,
    ADD COLUMN secret         bytea,
    ADD COLUMN key_id         text,
    ADD CONSTRAINT payment_processors_merchant_check
        CHECK ((merchant_login IS NULL) = (secret IS NULL) AND (secret IS NULL) = (key_id IS NULL));

-- The processor fee of one approved charge (§9 "fees": the gateway option's fee_bps when it was
-- charged), with the statement descriptor the charge carried. Written once per transaction, in the
-- transaction that records the approval.
CREATE TABLE transaction_processor_fees (
    organization_id      uuid NOT NULL,
    transaction_id       uuid NOT NULL,
    processor_id         uuid NOT NULL,
    family               text NOT NULL,
    fee_bps              integer NOT NULL CHECK (fee_bps BETWEEN 0 AND 10000),
    amount_minor         bigint NOT NULL CHECK (amount_minor >= 0),
    currency             char(3) NOT NULL REFERENCES currencies (code),
    statement_descriptor text NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, transaction_id),
    FOREIGN KEY (organization_id, transaction_id) REFERENCES transactions (organization_id, id) ON DELETE CASCADE
);
