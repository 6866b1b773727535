-- name: LockRollup :one
-- Locks the donations a writer is about to change (in id order, as concurrent writers lock them; NO KEY
-- UPDATE, which the foreign keys' KEY SHARE of new transactions does not wait for) and answers the dashboard
-- rows they and their transactions add now, for AddRollupChange after the change (migrations/shard/0560).
SELECT dashboard_rollup_lock(sqlc.arg(organization_id), sqlc.arg(ids)::uuid[]) AS contribution;

-- name: AddRollupChange :exec
-- Adds what the donations' contribution gained since before (RollupContribution's answer then), row by row
-- in key order.
SELECT dashboard_rollup_add(sqlc.arg(organization_id), sqlc.arg(ids)::uuid[], sqlc.arg(before)::jsonb);

-- name: RebuildRollup :exec
-- Recomputes an organisation's rollup from its rows (a time-zone change moves every day).
SELECT dashboard_rollup_rebuild(sqlc.arg(organization_id));

-- name: RecordDashboardPause :exec
-- The pause fact of a version row that pauses a donation (migrations/shard/0370), with its first
-- restore already in the history, and the donation's pause_fact_at (0670); nothing for any other
-- version. Once per pause.
WITH fact AS (
    INSERT INTO dashboard_pauses (organization_id, donation_id, paused_at, reason, resumed_at)
    SELECT v.organization_id, v.donation_id, v.created_at, v.after ->> 'paused_reason',
           (SELECT min(r.created_at) FROM donation_versions r
            WHERE r.organization_id = sqlc.arg(organization_id) AND r.donation_id = v.donation_id AND r.field = 'status'
              AND r.before ->> 'status' = 'paused' AND r.after ->> 'status' = 'active' AND r.created_at > v.created_at)
    FROM donation_versions v
    WHERE v.organization_id = sqlc.arg(organization_id) AND v.id = sqlc.arg(version_id)
      AND v.field = 'status' AND v.after ->> 'status' = 'paused'
    ON CONFLICT (organization_id, donation_id, paused_at) DO NOTHING
    RETURNING donation_id, paused_at
)
UPDATE donations d SET pause_fact_at = GREATEST(d.pause_fact_at, f.paused_at)
FROM fact f
WHERE d.organization_id = sqlc.arg(organization_id) AND d.id = f.donation_id;

-- name: RecordDashboardResume :exec
-- A version row that restores a paused donation is the first restore of its earlier pauses that
-- have none before it; nothing for any other version.
UPDATE dashboard_pauses p SET resumed_at = v.created_at
FROM donation_versions v
WHERE p.organization_id = sqlc.arg(organization_id) AND v.organization_id = sqlc.arg(organization_id)
  AND v.id = sqlc.arg(version_id) AND p.donation_id = v.donation_id
  AND v.field = 'status' AND v.before ->> 'status' = 'paused' AND v.after ->> 'status' = 'active'
  AND p.paused_at < v.created_at AND (p.resumed_at IS NULL OR p.resumed_at > v.created_at);

-- name: LinkDashboardPauses :exec
-- Links a donation's pause facts again (migrations/shard/0690) after RecordDashboardPause or RecordDashboardResume.
SELECT dashboard_pause_links(sqlc.arg(organization_id), sqlc.arg(donation_id)::uuid);
