-- A donor's card saved at the global processor that retries the campaign's declined charges (issue
-- #13): the public form tokenises the card at the card vault as well as at the organisation's
-- gateway, and the vault's token is saved at the processor as its card_id, so a charge the gateway
-- declines is retried through the processor with the same card, in this and every later period.
-- customer_id carries the payer the processor charges (dLocal keeps no customers).
CREATE TABLE processor_cards (
    organization_id    uuid NOT NULL,
    payment_method_id  uuid NOT NULL,
    processor_id       uuid NOT NULL,
    card_id            text NOT NULL CHECK (card_id <> ''),
    customer_id        text NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, payment_method_id, processor_id),
    FOREIGN KEY (organization_id, payment_method_id) REFERENCES payment_methods (organization_id, id) ON DELETE CASCADE,
    FOREIGN KEY (organization_id, processor_id) REFERENCES payment_processors (organization_id, id) ON DELETE CASCADE
);
