-- Donation receipts (internal/receipt): numbered per organisation without gaps, issued by
-- charge.Record with the approval, read by the donor portal and the manage area.

-- name: ReceiptNumberOf :one
-- The receipt a transaction already has (a charge recorded again keeps its number).
SELECT number FROM receipts WHERE organization_id = $1 AND transaction_id = $2;

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

-- name: ChargeReceiptMail :one
-- The receipt of a charge as its charger names it, with what its e-mail says (migrations/shard/0640): its
-- transaction's, or its period's approved transaction's; null when it has none. One call, delegated to the worker, of
-- lookups by key.
SELECT receipt_mail(sqlc.arg(organization_id)::uuid, sqlc.arg(donation_id)::uuid, sqlc.arg(transaction_id)::uuid,
                    sqlc.narg(period)::text)::jsonb AS mail;
