-- name: PayoutOrganizations :many
-- Every organisation of the shard with a processor that has a merchant account: the payouts sweep's
-- list (a cross-organisation query on purpose, see router_test).
SELECT DISTINCT organization_id FROM payment_processors WHERE merchant_login IS NOT NULL ORDER BY organization_id;

-- name: PayoutProcessors :many
-- The organisation's processors with a merchant account, each with the currency it charges in (its
-- country's), and the beneficiary a payout names: the legal name (else the name) and tax id.
SELECT p.id, c.currency::text AS currency, coalesce(nullif(pr.legal_name, ''), o.name)::text AS beneficiary_name,
       coalesce(o.uid, '')::text AS beneficiary_document
FROM payment_processors p
JOIN organizations o ON o.organization_id = $1
JOIN countries c ON c.code = o.country
LEFT JOIN organization_profiles pr ON pr.organization_id = $1
WHERE p.organization_id = $1 AND p.merchant_login IS NOT NULL
ORDER BY p.position, p.created_at;

-- name: OpenPayout :one
-- The processor's payout still open (waiting or sending), locked for the cycle that adds to it.
SELECT id, status FROM payouts
WHERE organization_id = $1 AND processor_id = $2 AND status IN ('waiting', 'sending')
FOR UPDATE;

-- name: InsertPayout :exec
-- A new payout, waiting until the cycle that opens it sets its totals and status in the same transaction.
INSERT INTO payouts (organization_id, id, processor_id, currency, status, wait_reason)
VALUES ($1, $2, $3, $4, 'waiting', 'payouts.preparing');

-- name: ClearPayoutItems :exec
-- A waiting payout is gathered again from scratch each cycle (a charge may have been given back meanwhile).
DELETE FROM payout_items WHERE organization_id = $1 AND payout_id = $2;

-- name: AddPayoutCharges :execrows
-- The processor's approved charges in the payout's currency that no payout has paid yet, each less
-- Aporta's commission and the processor's fee.
INSERT INTO payout_items (organization_id, payout_id, transaction_id, kind, gross_minor, commission_minor, fee_minor, net_minor)
SELECT t.organization_id, sqlc.arg(payout_id)::uuid, t.id, 'charge', t.amount_minor, coalesce(c.amount_minor, 0), f.amount_minor,
       t.amount_minor - coalesce(c.amount_minor, 0) - f.amount_minor
FROM transactions t
JOIN transaction_processor_fees f ON f.organization_id = $1 AND f.transaction_id = t.id
LEFT JOIN transaction_commissions c ON c.organization_id = $1 AND c.transaction_id = t.id
WHERE t.organization_id = $1 AND f.processor_id = sqlc.arg(processor_id) AND t.status = 'approved'
  AND t.currency = sqlc.arg(currency)
  AND NOT EXISTS (SELECT 1 FROM payout_items i WHERE i.organization_id = $1 AND i.transaction_id = t.id AND i.kind = 'charge');

-- name: AddPayoutReversals :execrows
-- The charges an earlier paid payout of the processor included that were refunded or charged back
-- since, each once: minus what that payout paid for it.
INSERT INTO payout_items (organization_id, payout_id, transaction_id, kind, gross_minor, commission_minor, fee_minor, net_minor)
SELECT i.organization_id, sqlc.arg(payout_id)::uuid, i.transaction_id, 'reversal', -i.gross_minor, -i.commission_minor,
       -i.fee_minor, -i.net_minor
FROM payout_items i
JOIN payouts p ON p.organization_id = $1 AND p.id = i.payout_id
JOIN transactions t ON t.organization_id = $1 AND t.id = i.transaction_id
WHERE i.organization_id = $1 AND i.kind = 'charge' AND p.status = 'paid' AND p.processor_id = sqlc.arg(processor_id)
  AND t.status IN ('refunded', 'charged_back')
  AND NOT EXISTS (SELECT 1 FROM payout_items r WHERE r.organization_id = $1 AND r.transaction_id = i.transaction_id
                  AND r.kind = 'reversal');

-- name: PayoutItemTotals :one
SELECT coalesce(sum(gross_minor) FILTER (WHERE kind = 'charge'), 0)::bigint AS gross,
       coalesce(sum(commission_minor) FILTER (WHERE kind = 'charge'), 0)::bigint AS commission,
       coalesce(sum(fee_minor) FILTER (WHERE kind = 'charge'), 0)::bigint AS fee,
       coalesce(-sum(net_minor) FILTER (WHERE kind = 'reversal'), 0)::bigint AS deducted,
       coalesce(sum(net_minor), 0)::bigint AS net,
       count(*) FILTER (WHERE kind = 'charge')::integer AS charges
FROM payout_items WHERE organization_id = $1 AND payout_id = $2;

-- name: SetPayoutTotals :exec
-- A cycle's outcome for an open payout: its totals, and waiting (with why) or sending to the bank account named.
UPDATE payouts
SET status = sqlc.arg(status), wait_reason = sqlc.narg(wait_reason), gross_minor = sqlc.arg(gross), commission_minor = sqlc.arg(commission),
    fee_minor = sqlc.arg(fee), deducted_minor = sqlc.arg(deducted), net_minor = sqlc.arg(net), charges = sqlc.arg(charges),
    bank_account_id = sqlc.narg(bank_account_id), bank_name = sqlc.narg(bank_name), bank_last4 = sqlc.narg(bank_last4),
    sent_at = sqlc.narg(sent_at), updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status = 'waiting';

-- name: DeletePayout :exec
-- An open payout whose net is not positive: its charges are carried forward to a later one.
DELETE FROM payouts WHERE organization_id = $1 AND id = $2 AND status = 'waiting';

-- name: SendingPayouts :many
-- The organisation's payouts being sent, oldest first (a cycle cut short left some).
SELECT id FROM payouts WHERE organization_id = $1 AND status = 'sending' ORDER BY created_at, id;

-- name: PayoutToSend :one
SELECT id, processor_id, currency::text AS currency, status, net_minor, bank_account_id
FROM payouts WHERE organization_id = $1 AND id = $2;

-- name: ProcessorMerchant :one
-- A processor's merchant account keys (sealed), to pay out from it.
SELECT id, merchant_login::text AS merchant_login, coalesce(public_key, '')::text AS public_key, secret, key_id::text AS key_id
FROM payment_processors WHERE organization_id = $1 AND id = $2 AND merchant_login IS NOT NULL;

-- name: MarkPayoutPaid :execrows
UPDATE payouts SET status = 'paid', external_payout_id = sqlc.arg(external_payout_id), paid_at = now(), updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status = 'sending';

-- name: MarkPayoutFailed :execrows
-- dLocal refused the payout: it stays failed with the reason, and its charges go to the next one.
UPDATE payouts SET status = 'failed', failure = sqlc.arg(failure), updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status = 'sending';

-- name: ListPayouts :many
-- The organisation's payouts (or the one named), newest first, with the total count for paging.
SELECT id, processor_id, currency::text AS currency, status, wait_reason, failure, gross_minor, commission_minor, fee_minor,
       deducted_minor, net_minor, charges, bank_name, bank_last4, created_at, sent_at, paid_at, count(*) OVER ()::integer AS total
FROM payouts WHERE organization_id = $1 AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id))
ORDER BY created_at DESC, id
LIMIT sqlc.arg(lim) OFFSET sqlc.arg(off);

-- name: PayoutItems :many
-- A payout's charges and reversals with their donor and campaign, by charge date.
SELECT i.transaction_id, i.kind, i.gross_minor, i.commission_minor, i.fee_minor, i.net_minor, t.currency::text AS currency,
       t.status AS transaction_status, coalesce(t.charged_at, t.created_at) AS charged_at, d.id AS donation_id,
       trim(dn.first_name || ' ' || dn.last_name)::text AS donor_name, c.title AS campaign_title
FROM payout_items i
JOIN transactions t ON t.organization_id = $1 AND t.id = i.transaction_id
JOIN donations d ON d.organization_id = $1 AND d.id = t.donation_id
JOIN donors dn ON dn.organization_id = $1 AND dn.id = d.donor_id
JOIN campaigns c ON c.organization_id = $1 AND c.id = d.campaign_id
WHERE i.organization_id = $1 AND i.payout_id = sqlc.arg(payout_id)
ORDER BY charged_at, i.transaction_id, i.kind;
