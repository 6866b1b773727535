-- The directory proper (tenants): organisations and their shards, memberships, public routes.

-- name: CreateDirectoryOrganization :exec
INSERT INTO organizations (id, name, country, shard, status)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (id) DO NOTHING;

-- name: DirectoryOrganizationCountry :one
SELECT country FROM organizations WHERE id = $1;

-- name: DirectoryOrganization :one
SELECT * FROM organizations WHERE id = $1;

-- name: AddMembership :exec
INSERT INTO memberships (user_id, organization_id, role)
VALUES ($1, $2, $3)
ON CONFLICT (user_id, organization_id) DO UPDATE SET role = EXCLUDED.role, discarded_at = NULL;

-- name: ActiveMembershipsOfUser :many
SELECT m.organization_id, m.role, o.name, o.country
FROM memberships m JOIN organizations o ON o.id = m.organization_id
WHERE m.user_id = $1 AND m.discarded_at IS NULL
ORDER BY m.created_at;

-- name: AddPublicRoute :exec
INSERT INTO public_routes (slug, campaign_id, organization_id, country)
VALUES ($1, $2, $3, $4);

-- name: PublicRouteBySlug :one
SELECT campaign_id, organization_id, country FROM public_routes WHERE slug = $1;
