-- name: ManageDonation
SELECT d.id, d.amount_minor, d.currency, d.items, d.recurrence, d.collect_day, d.status, coalesce(d.paused_reason, ''),
       d.paused_since, d.discarded_at, coalesce(d.discard_reason, ''), d.next_charge_date, d.created_at, d.updated_at,
       d.upgrade_opt_in, d.instalments, d.consecutive_failed_periods,
       c.id, c.title,
       dn.id, dn.first_name, dn.last_name, dn.email, dn.phone, dn.cellphone, coalesce(dn.uid_type, ''),
       coalesce(dn.uid_number, ''), dn.street, dn.city, dn.state, dn.country, dn.zipcode, dn.gender, dn.created_at,
       dn.discarded_at, coalesce(dn.discard_reason, ''),
       pm.id, coalesce(pm.gateway, ''), coalesce(pm.customer_id, ''), coalesce(pm.card_id, ''), coalesce(pm.brand, ''),
       coalesce(pm.bin, ''), coalesce(pm.last_four, ''), coalesce(pm.expiry_month, 0), coalesce(pm.expiry_year, 0),
       coalesce(pm.holder_name, ''),
       (SELECT count(*) FROM donation_versions v WHERE v.organization_id = d.organization_id AND v.donation_id = d.id),
       o.timezone
FROM donations d
JOIN organizations o ON o.organization_id = d.organization_id
JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN payment_methods pm ON pm.organization_id = d.organization_id AND pm.id = d.payment_method_id
WHERE d.organization_id = $1 AND d.id = $2;

-- name: DonationTransactions
SELECT t.id, t.amount_minor, t.currency, t.status, coalesce(t.status_detail, ''), coalesce(t.period, ''), t.attempt,
       coalesce(t.gateway_payment_id, ''), coalesce(t.charged_at, t.created_at), coalesce(pm.brand, ''),
       coalesce(pm.last_four, '')
FROM transactions t
LEFT JOIN payment_methods pm ON pm.organization_id = t.organization_id AND pm.id = t.payment_method_id
WHERE t.organization_id = $1 AND t.donation_id = $2
ORDER BY t.created_at DESC, t.attempt DESC
LIMIT $3;

-- name: DonationUpgrades
SELECT u.id, u.percentage::text, u.period_months, u.old_amount_minor, u.new_amount_minor, u.next_date, u.auto,
       u.removed_at, u.created_at
FROM upgrades u
WHERE u.organization_id = $1 AND u.donation_id = $2
ORDER BY (u.removed_at IS NULL) DESC, u.created_at DESC;

-- name: DonationUpgradeHistory
SELECT h.upgrade_id, h.applied_on, h.old_amount_minor, h.new_amount_minor
FROM upgrade_history h
JOIN upgrades u ON u.organization_id = h.organization_id AND u.id = h.upgrade_id
WHERE h.organization_id = $1 AND u.donation_id = $2
ORDER BY h.applied_on DESC
LIMIT 60;

-- name: DonationVersions
SELECT v.id, v.actor, v.field, v.before, v.after, v.created_at
FROM donation_versions v
WHERE v.organization_id = $1 AND v.donation_id = $2
ORDER BY v.created_at DESC, v.id
LIMIT $3 OFFSET $4;

-- name: CountDonationVersions
SELECT count(*) FROM donation_versions WHERE organization_id = $1 AND donation_id = $2;

-- name: UpdateDonor
UPDATE donors SET first_name = $3, last_name = $4, email = $5, phone = $6, cellphone = $7, uid_type = nullif($8, ''),
       uid_number = nullif($9, ''), street = $10, city = $11, state = $12, country = $13, zipcode = $14, gender = $15,
       updated_at = now()
WHERE organization_id = $1 AND id = $2;

-- name: SingleItemAmount
-- Keeps a one-item donation's item in step with a changed amount.
UPDATE donations SET items = jsonb_set(items, '{0,amount}', to_jsonb($3::bigint))
WHERE organization_id = $1 AND id = $2 AND jsonb_typeof(items) = 'array' AND jsonb_array_length(items) = 1;

-- name: LastPayments
SELECT coalesce(t.period, ''), t.attempt, t.status, coalesce(t.status_detail, ''), coalesce(t.gateway_payment_id, ''),
       coalesce(t.charged_at, t.created_at)
FROM transactions t
WHERE t.organization_id = $1 AND t.donation_id = $2
ORDER BY t.created_at DESC, t.attempt DESC
LIMIT 10;

-- name: DonorByID
SELECT id, discarded_at FROM donors WHERE organization_id = $1 AND id = $2;

-- name: DonorOpenDonations
SELECT id, recurrence, status FROM donations
WHERE organization_id = $1 AND donor_id = $2 AND status NOT IN ('discarded', 'rejected');

-- name: DiscardDonor
UPDATE donors SET discarded_at = coalesce(discarded_at, now()), discard_reason = $3, updated_at = now()
WHERE organization_id = $1 AND id = $2;

-- name: DiscardOneTime
-- One-time and unsettled donations have no collection workflow: their row is discarded directly.
UPDATE donations SET status = 'discarded', discarded_at = now(), discard_reason = $3, next_charge_date = NULL,
       updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status <> 'discarded';

-- name: ReactivateDonor
UPDATE donors SET discarded_at = NULL, discard_reason = NULL, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND discarded_at IS NOT NULL;

-- name: OrgTimezone
SELECT timezone FROM organizations WHERE organization_id = $1;

-- name: TransactionSummary
SELECT currency, status, count(*), coalesce(sum(amount_minor), 0)::bigint
FROM transactions
WHERE organization_id = $1 AND created_at >= $2 AND created_at < $3
GROUP BY currency, status
ORDER BY currency, status;
