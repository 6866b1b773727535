-- Off-site bank debits of the public form (issue #13, donor-and-campaigns §2.1 and §3 "Payment
-- method": bank, person type, id type, id number): a one-time donation the donor approves at their
-- bank's site (dLocal's REDIRECT flow, e.g. PSE in Colombia) through the processor a rule routes the
-- campaign to. The donation has no saved card (payment_method_id NULL): this row is its payment
-- method, and the processor's payment the first transaction waits for (pending until the bank answers).
CREATE TABLE bank_debits (
    organization_id  uuid NOT NULL,
    donation_id      uuid NOT NULL,
    gateway          text NOT NULL,              -- the processor's gateway (dlocal): where the guard reads it back
    processor_id     uuid NOT NULL,              -- the organisation's processor (no FK: its payments outlive it)
    method_id        text NOT NULL,              -- the processor's payment method (PC: PSE)
    bank_code        text NOT NULL,              -- banks.code of the organisation's country
    person_type      text NOT NULL CHECK (person_type IN ('natural', 'legal')),
    id_type          text NOT NULL,
    id_number        text NOT NULL,
    payment_id       text,                       -- the processor's payment, once created
    redirect_url     text,                       -- where the donor approves it at the bank
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, donation_id),
    FOREIGN KEY (organization_id, donation_id) REFERENCES donations (organization_id, id)
);
