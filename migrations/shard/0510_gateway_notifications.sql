-- A payment's later changes at the gateway (refunds, chargebacks), which MercadoPago notifies by
-- payment id: the transaction is found by that id, and a receipt whose charge was given back is
-- kept, marked annulled, and leaves the donor's yearly summary.
CREATE INDEX transactions_gateway_payment_idx ON transactions (organization_id, gateway_payment_id)
    WHERE gateway_payment_id IS NOT NULL;

ALTER TABLE receipts ADD COLUMN annulled_at timestamptz;
