-- Dashboard widgets (api/dashboard, donor spec §2 screen 5), all in one call: one snapshot, so the widgets agree
-- with each other without a transaction, and one round trip, routed whole to the organisation's shard. The reads
-- and the definition of each widget are in migrations/shard/0670_dashboard_widgets.sql: money, new donations and
-- discards read the daily rollup of migrations/shard/0080_dashboard_rollup.sql, so their cost is days ×
-- campaigns; visits are daily rows already; pauses read one pause fact per pause in the period
-- (migrations/shard/0370_dashboard_pauses.sql: a donation counts once in a period, which no sum of days can tell).

-- name: DashboardTimezone :one
SELECT timezone FROM organizations WHERE organization_id = $1;

-- name: Dashboard :many
-- One row per widget fact (migrations/shard/0670_dashboard_widgets.sql says which columns mean what): a delegated
-- call, so on Citus the coordinator only routes it to the organisation's worker.
SELECT w.widget::text AS widget, w.bucket::date AS bucket, w.label::text AS label, w.n1::bigint AS n1, w.n2::bigint AS n2,
       w.n3::bigint AS n3, w.n4::bigint AS n4
FROM dashboard_widgets(sqlc.arg(organization_id), sqlc.arg(bucket), sqlc.arg(first_day), sqlc.arg(last_day),
                       sqlc.narg(campaign), sqlc.narg(recurrence), sqlc.narg(agency), sqlc.arg(start), sqlc.arg(end_at),
                       sqlc.arg(now), sqlc.arg(user_id), sqlc.arg(guide_name)) AS w (widget, bucket, label, n1, n2, n3, n4);
