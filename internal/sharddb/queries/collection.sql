-- name: CollectionDonation :one
-- A monthly donation as its collection workflow starts from: the row, its organisation's time zone,
-- its donor's e-mail and its card (tokens and display data only); next_charge_date, paused_since,
-- discarded_at and discard_reason say whether the row already holds what the workflow would write.
SELECT d.amount_minor, d.currency, d.collect_day, d.recurrence, d.status,
       COALESCE(d.paused_reason, '') AS paused_reason, o.timezone, dn.email, d.consecutive_failed_periods,
       d.next_charge_date, d.paused_since, d.discarded_at, d.discard_reason,
       COALESCE(pm.id::text, '')::text AS payment_method_id, COALESCE(pm.gateway, '') AS gateway,
       COALESCE(pm.customer_id, '') AS customer_id,
       COALESCE(pm.card_id, '') AS card_id, COALESCE(pm.brand, '') AS brand, COALESCE(pm.bin, '') AS bin,
       COALESCE(pm.last_four, '') AS last_four, COALESCE(pm.expiry_month, 0)::int AS expiry_month,
       COALESCE(pm.expiry_year, 0)::int AS expiry_year, COALESCE(pm.holder_name, '') AS holder_name
FROM donations d
JOIN organizations o ON o.organization_id = d.organization_id
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN payment_methods pm ON pm.organization_id = d.organization_id AND pm.id = d.payment_method_id
WHERE d.organization_id = $1 AND d.id = $2;

-- name: SyncCollectionDonation :execrows
-- The collection workflow's view of the donation, written as absolute values. With rollup_unchanged it writes
-- only when the columns of the dashboard rollup it sets (status, discarded_at, discard_reason) keep their values,
-- so it needs no sharddb.WithRollup: 0 rows then says the caller must write through it.
UPDATE donations
SET status = sqlc.arg(status), paused_reason = NULLIF(sqlc.arg(paused_reason)::text, ''),
    paused_since = sqlc.narg(paused_since), discarded_at = sqlc.narg(discarded_at),
    discard_reason = NULLIF(sqlc.arg(discard_reason)::text, ''), next_charge_date = sqlc.narg(next_charge_date)::date,
    consecutive_failed_periods = sqlc.arg(consecutive_failed_periods), amount_minor = sqlc.arg(amount_minor),
    payment_method_id = COALESCE(sqlc.narg(payment_method_id), payment_method_id), collect_day = sqlc.narg(collect_day),
    updated_at = now()
WHERE organization_id = sqlc.arg(organization_id) AND id = sqlc.arg(id)
  AND (NOT sqlc.arg(rollup_unchanged)::bool OR (status = sqlc.arg(status)
    AND discarded_at IS NOT DISTINCT FROM sqlc.narg(discarded_at)
    AND discard_reason IS NOT DISTINCT FROM NULLIF(sqlc.arg(discard_reason)::text, '')));

-- name: UpsertCollectionUpgrade :exec
-- EXCLUDED.updated_at (the column default) rather than now(): Citus allows only immutable functions in DO UPDATE.
INSERT INTO upgrades (organization_id, id, donation_id, percentage, period_months, old_amount_minor,
                      new_amount_minor, next_date, auto)
VALUES (sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(donation_id),
        (sqlc.arg(basis_points)::bigint / 100.0)::numeric(6,2), sqlc.arg(period_months), sqlc.arg(old_amount_minor),
        sqlc.arg(new_amount_minor), sqlc.arg(next_date)::date, sqlc.arg(auto))
ON CONFLICT (organization_id, id) DO UPDATE
SET percentage = EXCLUDED.percentage, period_months = EXCLUDED.period_months,
    old_amount_minor = EXCLUDED.old_amount_minor, new_amount_minor = EXCLUDED.new_amount_minor,
    next_date = EXCLUDED.next_date, auto = EXCLUDED.auto, removed_at = NULL, updated_at = EXCLUDED.updated_at;

-- name: AddCollectionUpgradeHistory :exec
INSERT INTO upgrade_history (organization_id, upgrade_id, applied_on, old_amount_minor, new_amount_minor)
VALUES (sqlc.arg(organization_id), sqlc.arg(upgrade_id), sqlc.arg(applied_on)::date, sqlc.arg(old_amount_minor),
        sqlc.arg(new_amount_minor))
ON CONFLICT (organization_id, upgrade_id, applied_on) DO NOTHING;

-- name: RemoveCollectionUpgrade :exec
-- LEAST keeps the first removal (it skips NULLs): Citus allows no now() inside COALESCE or CASE of an UPDATE.
UPDATE upgrades SET removed_at = LEAST(removed_at, now()), updated_at = now()
WHERE organization_id = $1 AND id = $2;
