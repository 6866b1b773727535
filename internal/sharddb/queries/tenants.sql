-- name: CreateShardOrganization :exec
-- An empty timezone takes the country's default (joined in: Citus allows no subquery in INSERT … VALUES).
INSERT INTO organizations (organization_id, name, country, timezone, status)
SELECT sqlc.arg(organization_id), sqlc.arg(name), c.code, COALESCE(NULLIF(sqlc.arg(timezone)::text, ''), c.timezone),
       sqlc.arg(status)
FROM countries c WHERE c.code = sqlc.arg(country)
ON CONFLICT (organization_id) DO NOTHING;
