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
-- The receipt of a charge as its charger names it, with what its e-mail says: its transaction, or the approved
-- transaction of its period (a monthly donation's first period may be settled on the form's first transaction).
-- One statement (issue 19): every approved charge e-mails its receipt. The locale, the donor's first name and the
-- campaign's slug are looked up by key beside the receipt rather than joined to it: a six-table join cost more to
-- plan, on every charge, than the rows cost to read.
SELECT r.number, r.transaction_id, r.donor_email, r.org_legal_name, r.campaign_title, r.amount_minor, r.currency,
       coalesce((SELECT o.locale FROM organizations o WHERE o.organization_id = sqlc.arg(organization_id)), 'es')::text AS org_locale,
       coalesce((SELECT dn.first_name FROM donations d
                 JOIN donors dn ON dn.organization_id = sqlc.arg(organization_id) AND dn.id = d.donor_id
                 WHERE d.organization_id = sqlc.arg(organization_id) AND d.id = r.donation_id), '')::text AS first_name,
       coalesce((SELECT c.slug FROM donations d
                 JOIN campaigns c ON c.organization_id = sqlc.arg(organization_id) AND c.id = d.campaign_id
                 WHERE d.organization_id = sqlc.arg(organization_id) AND d.id = r.donation_id), '')::text AS slug
FROM receipts r
JOIN transactions t ON t.organization_id = sqlc.arg(organization_id) AND t.id = r.transaction_id
WHERE r.organization_id = sqlc.arg(organization_id) AND r.donation_id = sqlc.arg(donation_id)
  AND (r.transaction_id = sqlc.arg(transaction_id) OR (t.period = sqlc.narg(period) AND t.status = 'approved'))
LIMIT 1;
