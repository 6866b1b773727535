-- name: CreateShardOrganization :exec
-- An empty timezone takes the country's default.
INSERT INTO organizations (organization_id, name, country, timezone, status)
VALUES (sqlc.arg(organization_id), sqlc.arg(name), sqlc.arg(country),
        COALESCE(NULLIF(sqlc.arg(timezone)::text, ''), (SELECT timezone FROM countries WHERE code = sqlc.arg(country))),
        sqlc.arg(status))
ON CONFLICT (organization_id) DO NOTHING;
