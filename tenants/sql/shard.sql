-- name: CreateShardOrganization
-- An empty timezone takes the country's default.
INSERT INTO organizations (organization_id, name, country, timezone, status)
VALUES ($1, $2, $3, COALESCE(NULLIF($4::text, ''), (SELECT timezone FROM countries WHERE code = $3)), $5)
ON CONFLICT (organization_id) DO NOTHING;
