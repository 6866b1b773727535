-- name: RecordVersion
-- Once per id: a retried write is a no-op. ($8 NULL: now.)
INSERT INTO donation_versions (organization_id, id, donation_id, actor, field, before, after, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8, now()))
ON CONFLICT (organization_id, id) DO NOTHING;
