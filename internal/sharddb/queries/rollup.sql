-- name: LockRollupDonations :exec
-- The donations a writer is about to change, locked in id order (concurrent writers lock alike) before their
-- rollup contribution is read: NO KEY UPDATE, which the foreign keys' KEY SHARE of new transactions does not wait for.
SELECT id FROM donations
WHERE organization_id = sqlc.arg(organization_id) AND id = ANY(sqlc.arg(ids)::uuid[])
ORDER BY id
FOR NO KEY UPDATE;

-- name: ApplyRollup :exec
-- Adds (sign 1) or takes out (sign -1) the dashboard contribution of the donations and their transactions.
SELECT dashboard_rollup_apply(sqlc.arg(organization_id), sqlc.arg(ids)::uuid[], sqlc.arg(sign)::int);

-- name: RebuildRollup :exec
-- Recomputes an organisation's rollup from its rows (a time-zone change moves every day).
SELECT dashboard_rollup_rebuild(sqlc.arg(organization_id));
