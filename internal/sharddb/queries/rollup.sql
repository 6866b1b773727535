-- name: LockRollupDonations :exec
-- The donations a writer is about to change, locked in id order (concurrent writers lock alike) before their
-- rollup contribution is read: NO KEY UPDATE, which the foreign keys' KEY SHARE of new transactions does not wait for.
SELECT id FROM donations
WHERE organization_id = sqlc.arg(organization_id) AND id = ANY(sqlc.arg(ids)::uuid[])
ORDER BY id
FOR NO KEY UPDATE;

-- name: RollupContribution :one
-- The dashboard rows the donations and their transactions add now, for AddRollupChange after the change.
SELECT dashboard_rollup_contribution(sqlc.arg(organization_id), sqlc.arg(ids)::uuid[])::jsonb AS contribution;

-- name: AddRollupChange :exec
-- Adds what the donations' contribution gained since before (RollupContribution's answer then), row by row
-- in key order.
SELECT dashboard_rollup_add(sqlc.arg(organization_id), sqlc.arg(ids)::uuid[], sqlc.arg(before)::jsonb);

-- name: RebuildRollup :exec
-- Recomputes an organisation's rollup from its rows (a time-zone change moves every day).
SELECT dashboard_rollup_rebuild(sqlc.arg(organization_id));
