-- name: LoadDonation
SELECT d.amount_minor, d.currency, COALESCE(d.collect_day, 0)::int, d.recurrence::int, d.status,
       COALESCE(d.paused_reason, ''), o.timezone, dn.email, d.consecutive_failed_periods,
       COALESCE(pm.id::text, ''), COALESCE(pm.customer_id, ''), COALESCE(pm.card_id, ''),
       COALESCE(pm.brand, ''), COALESCE(pm.bin, ''), COALESCE(pm.last_four, ''),
       COALESCE(pm.expiry_month, 0)::int, COALESCE(pm.expiry_year, 0)::int, COALESCE(pm.holder_name, '')
FROM donations d
JOIN organizations o ON o.organization_id = d.organization_id
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN payment_methods pm ON pm.organization_id = d.organization_id AND pm.id = d.payment_method_id
WHERE d.organization_id = $1 AND d.id = $2;

-- name: SyncDonation
UPDATE donations
SET status = $3, paused_reason = NULLIF($4, ''), paused_since = $5, discarded_at = $6,
    discard_reason = NULLIF($7, ''), next_charge_date = NULLIF($8, '')::date,
    consecutive_failed_periods = $9, amount_minor = $10,
    payment_method_id = COALESCE($11, payment_method_id), collect_day = NULLIF($12::int, 0),
    updated_at = now()
WHERE organization_id = $1 AND id = $2;

-- name: UpsertUpgrade
INSERT INTO upgrades (organization_id, id, donation_id, percentage, period_months, old_amount_minor,
                      new_amount_minor, next_date, auto)
VALUES ($1, $2, $3, ($4::bigint / 100.0)::numeric(6,2), $5, $6, $7, $8::date, $9)
ON CONFLICT (organization_id, id) DO UPDATE
SET percentage = EXCLUDED.percentage, period_months = EXCLUDED.period_months,
    old_amount_minor = EXCLUDED.old_amount_minor, new_amount_minor = EXCLUDED.new_amount_minor,
    next_date = EXCLUDED.next_date, auto = EXCLUDED.auto, removed_at = NULL, updated_at = now();

-- name: AddUpgradeHistory
INSERT INTO upgrade_history (organization_id, upgrade_id, applied_on, old_amount_minor, new_amount_minor)
VALUES ($1, $2, $3::date, $4, $5)
ON CONFLICT (organization_id, upgrade_id, applied_on) DO NOTHING;

-- name: RemoveUpgrade
UPDATE upgrades SET removed_at = COALESCE(removed_at, now()), updated_at = now()
WHERE organization_id = $1 AND id = $2;
