-- Donation receipts (internal/receipt): numbered per organisation without gaps, issued by
-- charge.Record with the approval, read by the donor portal and the manage area.

-- name: ReceiptNumberOf :one
-- The receipt a transaction already has (a charge recorded again keeps its number).
SELECT number FROM receipts WHERE organization_id = $1 AND transaction_id = $2;

-- name: NextReceiptNumber :one
-- The organisation's next receipt number. The counter row stays locked until the caller's COMMIT,
-- so numbers are handed out one at a time; a rollback gives the number back (no gaps).
INSERT INTO receipt_counters (organization_id, last_number) VALUES ($1, 1)
ON CONFLICT (organization_id) DO UPDATE SET last_number = receipt_counters.last_number + 1
RETURNING last_number;

-- name: IssueReceipt :execrows
-- The receipt of an approved transaction under the number taken, with the legal data of the moment.
INSERT INTO receipts (organization_id, number, transaction_id, donation_id, donor_id, amount_minor, currency,
                      charged_at, campaign_title, donor_name, donor_email, donor_tax_id, org_legal_name, org_tax_id,
                      org_address)
SELECT t.organization_id, sqlc.arg(number), t.id, t.donation_id, d.donor_id, t.amount_minor, t.currency,
       coalesce(t.charged_at, t.created_at), c.title, trim(dn.first_name || ' ' || dn.last_name), dn.email,
       trim(coalesce(dn.uid_type, '') || ' ' || coalesce(dn.uid_number, '')),
       coalesce(nullif(p.legal_name, ''), o.name),
       trim(coalesce(o.uid_type, '') || ' ' || coalesce(o.uid, '')),
       concat_ws(', ', nullif(trim(coalesce(p.address ->> 'street', '') || ' ' || coalesce(p.address ->> 'number', '')), ''),
                 nullif(p.address ->> 'postal_code', ''), nullif(p.address ->> 'city', ''), nullif(p.address ->> 'state', ''))
FROM transactions t
JOIN donations d ON d.organization_id = sqlc.arg(organization_id) AND d.id = t.donation_id
JOIN donors dn ON dn.organization_id = sqlc.arg(organization_id) AND dn.id = d.donor_id
JOIN campaigns c ON c.organization_id = sqlc.arg(organization_id) AND c.id = d.campaign_id
JOIN organizations o ON o.organization_id = sqlc.arg(organization_id)
LEFT JOIN organization_profiles p ON p.organization_id = sqlc.arg(organization_id)
WHERE t.organization_id = sqlc.arg(organization_id) AND t.id = sqlc.arg(transaction_id) AND t.status = 'approved';

-- name: ReceiptByNumber :one
-- One receipt with what its document needs; donor_id narrows it to one donor's (the portal).
SELECT sqlc.embed(r), coalesce(o.locale, 'es')::text AS org_locale, o.timezone
FROM receipts r
JOIN organizations o ON o.organization_id = sqlc.arg(organization_id)
WHERE r.organization_id = sqlc.arg(organization_id) AND r.number = sqlc.arg(number)
  AND (sqlc.narg(donor_id)::uuid IS NULL OR r.donor_id = sqlc.narg(donor_id));

-- name: DonorReceipts :many
-- A donor's receipts charged in [from, to) and not annulled, oldest first: the yearly summary.
SELECT * FROM receipts
WHERE organization_id = $1 AND donor_id = $2 AND charged_at >= sqlc.arg(from_at)::timestamptz
  AND charged_at < sqlc.arg(to_at)::timestamptz AND annulled_at IS NULL
ORDER BY charged_at, number;

-- name: DonationReceiptNumbers :many
-- The receipt number of each receipted transaction of a donation (the charges lists).
SELECT transaction_id, number FROM receipts WHERE organization_id = $1 AND donation_id = $2;

-- name: ChargeReceiptNumber :one
-- The receipt of a charge as its charger names it: its transaction, or the approved transaction of
-- its period (a monthly donation's first period may be settled on the form's first transaction).
SELECT r.number FROM receipts r
JOIN transactions t ON t.organization_id = sqlc.arg(organization_id) AND t.id = r.transaction_id
WHERE r.organization_id = sqlc.arg(organization_id) AND r.donation_id = sqlc.arg(donation_id)
  AND (r.transaction_id = sqlc.arg(transaction_id) OR (t.period = sqlc.narg(period) AND t.status = 'approved'))
LIMIT 1;

-- name: AnnulReceipt :execrows
-- A charge given back (refunded, charged back, cancelled): its receipt stays, marked annulled.
UPDATE receipts SET annulled_at = sqlc.arg(at)::timestamptz
WHERE organization_id = $1 AND transaction_id = $2 AND annulled_at IS NULL;
