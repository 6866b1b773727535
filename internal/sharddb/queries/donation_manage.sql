-- The donation management of the manage area (api/donation: detail, actions, donors, transactions)
-- and the public convert-to-monthly and thank-you links.

-- name: DonationForManage :one
-- A donation with its campaign, donor, active card, version count and organisation's time zone.
SELECT d.id, d.amount_minor, d.currency, d.items, d.recurrence, d.collect_day, d.status,
       coalesce(d.paused_reason, '')::text AS paused_reason, d.paused_since, d.discarded_at,
       coalesce(d.discard_reason, '')::text AS discard_reason, d.next_charge_date, d.created_at, d.updated_at,
       d.upgrade_opt_in, d.instalments, d.consecutive_failed_periods, d.form_values, d.donor_snapshot,
       c.id AS campaign_id, c.title AS campaign_title,
       dn.id AS donor_id, dn.first_name, dn.last_name, dn.email, dn.phone, dn.cellphone,
       coalesce(dn.uid_type, '')::text AS uid_type, coalesce(dn.uid_number, '')::text AS uid_number, dn.street,
       dn.city, dn.state, dn.country, dn.zipcode, dn.gender, dn.created_at AS donor_created_at,
       dn.discarded_at AS donor_discarded_at, coalesce(dn.discard_reason, '')::text AS donor_discard_reason,
       d.payment_method_id, coalesce(pm.gateway, '')::text AS pm_gateway, coalesce(pm.customer_id, '')::text AS pm_customer_id,
       coalesce(pm.card_id, '')::text AS pm_card_id, coalesce(pm.brand, '')::text AS pm_brand,
       coalesce(pm.bin, '')::text AS pm_bin, coalesce(pm.last_four, '')::text AS pm_last_four,
       coalesce(pm.expiry_month, 0)::int AS pm_expiry_month, coalesce(pm.expiry_year, 0)::int AS pm_expiry_year,
       coalesce(pm.holder_name, '')::text AS pm_holder_name,
       (SELECT count(*) FROM donation_versions v WHERE v.organization_id = $1 AND v.donation_id = d.id)::int AS versions_count,
       o.timezone
FROM donations d
JOIN organizations o ON o.organization_id = d.organization_id
JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN payment_methods pm ON pm.organization_id = d.organization_id AND pm.id = d.payment_method_id
WHERE d.organization_id = $1 AND d.id = $2;

-- name: DonationTransactionsForManage :many
-- A donation's charge attempts, newest first.
SELECT t.id, t.amount_minor, t.currency, t.status, coalesce(t.status_detail, '')::text AS status_detail,
       coalesce(t.period, '')::text AS period, t.attempt, coalesce(t.gateway_payment_id, '')::text AS payment_id,
       coalesce(t.charged_at, t.created_at)::timestamptz AS date, coalesce(pm.brand, '')::text AS brand,
       coalesce(pm.last_four, '')::text AS last_four
FROM transactions t
LEFT JOIN payment_methods pm ON pm.organization_id = t.organization_id AND pm.id = t.payment_method_id
WHERE t.organization_id = $1 AND t.donation_id = $2
ORDER BY t.created_at DESC, t.attempt DESC
LIMIT 120;

-- name: DonationUpgradesForManage :many
-- A donation's periodic increases: the current one first, removed ones after.
SELECT u.id, u.percentage::text AS percentage, u.period_months, u.old_amount_minor, u.new_amount_minor, u.next_date,
       u.auto, u.removed_at, u.created_at
FROM upgrades u
WHERE u.organization_id = $1 AND u.donation_id = $2
ORDER BY (u.removed_at IS NULL) DESC, u.created_at DESC;

-- name: DonationUpgradeHistoryForManage :many
SELECT h.upgrade_id, h.applied_on, h.old_amount_minor, h.new_amount_minor
FROM upgrade_history h
JOIN upgrades u ON u.organization_id = h.organization_id AND u.id = h.upgrade_id
WHERE h.organization_id = $1 AND u.donation_id = $2
ORDER BY h.applied_on DESC
LIMIT 60;

-- name: DonationVersionsPage :many
SELECT v.id, v.actor, v.field, v.before, v.after, v.created_at
FROM donation_versions v
WHERE v.organization_id = $1 AND v.donation_id = $2
ORDER BY v.created_at DESC, v.id
LIMIT sqlc.arg(per_page) OFFSET sqlc.arg(skip);

-- name: LockDonationStatus :one
SELECT status FROM donations WHERE organization_id = $1 AND id = $2 FOR UPDATE;

-- name: UpdateDonor :exec
UPDATE donors SET first_name = $3, last_name = $4, email = $5, phone = $6, cellphone = $7,
       uid_type = nullif(sqlc.arg(uid_type)::text, ''), uid_number = nullif(sqlc.arg(uid_number)::text, ''),
       street = $8, city = $9, state = $10, country = $11, zipcode = $12, gender = $13, updated_at = now()
WHERE organization_id = $1 AND id = $2;

-- name: SetSingleItemAmount :exec
-- Keeps a one-item donation's item in step with a changed amount.
UPDATE donations SET items = jsonb_set(items, '{0,amount}', to_jsonb(sqlc.arg(amount)::bigint))
WHERE organization_id = $1 AND id = $2 AND jsonb_typeof(items) = 'array' AND jsonb_array_length(items) = 1;

-- name: DonationLastPayments :many
SELECT coalesce(t.period, '')::text AS period, t.attempt, t.status, coalesce(t.status_detail, '')::text AS status_detail,
       coalesce(t.gateway_payment_id, '')::text AS payment_id, coalesce(t.charged_at, t.created_at)::timestamptz AS at
FROM transactions t
WHERE t.organization_id = $1 AND t.donation_id = $2
ORDER BY t.created_at DESC, t.attempt DESC
LIMIT 10;

-- name: DonorDiscardedAt :one
SELECT discarded_at FROM donors WHERE organization_id = $1 AND id = $2;

-- name: DonorOpenDonationIDs :many
SELECT id FROM donations
WHERE organization_id = $1 AND donor_id = $2 AND status NOT IN ('discarded', 'rejected');

-- name: DiscardDonor :exec
-- LEAST keeps the first discard (it skips NULLs): Citus allows no now() inside COALESCE or CASE of an UPDATE.
UPDATE donors SET discarded_at = least(discarded_at, now()), discard_reason = $3, updated_at = now()
WHERE organization_id = $1 AND id = $2;

-- name: DiscardDonationRow :exec
-- One-time and unsettled donations have no collection workflow: their row is discarded directly.
UPDATE donations SET status = 'discarded', discarded_at = now(), discard_reason = $3, next_charge_date = NULL,
       updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status <> 'discarded';

-- name: ReactivateDonor :exec
UPDATE donors SET discarded_at = NULL, discard_reason = NULL, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND discarded_at IS NOT NULL;

-- name: CampaignUpgradeBounds :one
SELECT coalesce(upgrade_min_percentage::text, '')::text AS min_percentage,
       coalesce(upgrade_max_percentage::text, '')::text AS max_percentage
FROM campaigns WHERE organization_id = $1 AND id = $2;

-- name: TransactionSummaryByStatus :many
SELECT currency, status, count(*)::int AS count, coalesce(sum(amount_minor), 0)::bigint AS sum
FROM transactions
WHERE organization_id = $1 AND created_at >= sqlc.arg(start) AND created_at < sqlc.arg(until)
GROUP BY currency, status
ORDER BY currency, status;

-- name: DonationForConvert :one
SELECT d.status, d.recurrence, d.amount_minor, d.currency, d.payment_method_id, c.title, c.slug,
       coalesce(pm.brand, '')::text AS brand, coalesce(pm.last_four, '')::text AS last_four, dn.first_name
FROM donations d
JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN payment_methods pm ON pm.organization_id = d.organization_id AND pm.id = d.payment_method_id
WHERE d.organization_id = $1 AND d.id = $2;

-- name: IssueConvertToken :one
-- A one-time donation's convert-to-monthly secret, hashed with its donor; it replaces any earlier one.
UPDATE donations SET convert_token_hash = sha256(uuid_send(donor_id) || sqlc.arg(secret)::bytea),
       convert_token_expires_at = sqlc.arg(expires_at)::timestamptz
WHERE organization_id = $1 AND id = $2 AND recurrence = 0 AND status = 'active' AND payment_method_id IS NOT NULL
RETURNING id;

-- name: ConvertTokenValid :one
-- Whether the secret is the donation's, for its donor, and still valid at now (no row: unknown or used).
SELECT convert_token_expires_at > sqlc.arg(now)::timestamptz AS valid
FROM donations
WHERE organization_id = $1 AND id = $2 AND convert_token_hash = sha256(uuid_send(donor_id) || sqlc.arg(secret)::bytea);

-- name: ConvertToMonthly :one
-- Converts and uses the secret up in one statement: a second (or concurrent) use finds no row.
UPDATE donations SET recurrence = 1, collect_day = sqlc.narg(collect_day), next_charge_date = sqlc.arg(next_charge_date)::date,
       status = 'active', converted_at = now(), updated_at = now(), convert_token_hash = NULL, convert_token_expires_at = NULL
WHERE organization_id = $1 AND id = $2 AND recurrence = 0 AND status = 'active' AND payment_method_id IS NOT NULL
  AND convert_token_hash = sha256(uuid_send(donor_id) || sqlc.arg(secret)::bytea) AND convert_token_expires_at > sqlc.arg(now)::timestamptz
RETURNING id;

-- name: DonationReceipt :one
-- The thank-you page's donation, with the status of its first transaction (first_tx_id).
SELECT d.status, d.recurrence, d.amount_minor, d.currency, d.collect_day,
       coalesce(d.donor_snapshot->>'first_name', dn.first_name)::text AS first_name, d.campaign_id, d.items,
       coalesce(t.status, '')::text AS tx_status
FROM donations d
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN transactions t ON t.organization_id = d.organization_id AND t.id = sqlc.arg(first_tx_id)
WHERE d.organization_id = $1 AND d.id = $2;
