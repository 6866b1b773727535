-- name: RecordDonationVersion :exec
-- Once per id: a retried write is a no-op. (created_at NULL: now.)
INSERT INTO donation_versions (organization_id, id, donation_id, actor, field, before, after, created_at)
VALUES (sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(donation_id), sqlc.arg(actor), sqlc.arg(field),
        sqlc.narg(before), sqlc.narg(after), coalesce(sqlc.narg(created_at)::timestamptz, now()))
ON CONFLICT (organization_id, id) DO NOTHING;
