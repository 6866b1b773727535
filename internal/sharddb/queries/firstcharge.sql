-- name: FirstTransaction :one
SELECT status, coalesce(status_detail, '') AS status_detail, coalesce(period, '') AS period, payment_method_id
FROM transactions
WHERE organization_id = $1 AND id = $2;

-- name: SettleFirstChargeDonation :exec
-- A pending donation's status once its first charge is settled (next_charge_date: the next charge
-- of an active monthly donation).
UPDATE donations SET status = $3, next_charge_date = sqlc.narg(next_charge_date)::date, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status = 'pending';

-- name: FirstChargeDonation :one
-- What settling a first charge later needs: the donation, its donor's e-mail and the first name
-- its submission gave, the campaign's thank-you texts, the organisation's country and time zone, and
-- the gateway its card is saved at (or its off-site bank debit was made through).
SELECT d.status, d.recurrence, d.amount_minor, d.currency, d.collect_day, coalesce(pm.gateway, bd.gateway, '')::text AS gateway,
       coalesce(d.donor_snapshot->>'first_name', dn.first_name)::text AS first_name, dn.email,
       c.title, c.slug, c.thanks_instant, c.thanks_email_subject, c.thanks_email, o.country, o.timezone
FROM donations d
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
JOIN organizations o ON o.organization_id = d.organization_id
LEFT JOIN payment_methods pm ON pm.organization_id = d.organization_id AND pm.id = d.payment_method_id
LEFT JOIN bank_debits bd ON bd.organization_id = d.organization_id AND bd.donation_id = d.id
WHERE d.organization_id = $1 AND d.id = $2;

-- name: OpenFirstCharges :many
-- The donations written before the cutoff whose first charge is still open, oldest first: the first-charge
-- sweep's, across organisations (or one organisation's, org).
SELECT organization_id, id FROM donations
WHERE first_charge_open AND created_at < sqlc.arg(cutoff)::timestamptz
  AND (sqlc.narg(org)::uuid IS NULL OR organization_id = sqlc.narg(org))
ORDER BY created_at
LIMIT sqlc.arg(max_rows)::int;

-- name: CloseFirstCharge :exec
-- The donation's first charge is settled and followed up, or its guard is started: the sweep passes it by.
UPDATE donations SET first_charge_open = false
WHERE organization_id = $1 AND id = $2 AND first_charge_open;
