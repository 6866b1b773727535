-- Agency people (api/agency): who belongs to which agency of an organisation, always scoped by
-- organisation; AgenciesOfUser routes a signed-in agent to their organisation.

-- name: InsertAgencyMember :one
INSERT INTO agency_members (user_id, organization_id, agency_id, role, acquisition, management)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING *;

-- name: AgencyMember :one
SELECT * FROM agency_members WHERE organization_id = $1 AND agency_id = $2 AND user_id = $3;

-- name: ListAgencyMembers :many
SELECT * FROM agency_members WHERE organization_id = $1 AND agency_id = $2
ORDER BY created_at, user_id;

-- name: UpdateAgencyMember :one
UPDATE agency_members SET role = $4, acquisition = $5, management = $6
WHERE organization_id = $1 AND agency_id = $2 AND user_id = $3
RETURNING *;

-- name: SetAgencyMemberDiscarded :one
-- discarded true discards an active member (now), false reactivates them.
UPDATE agency_members
SET discarded_at = CASE WHEN sqlc.arg(discarded)::boolean THEN coalesce(discarded_at, now()) END
WHERE organization_id = $1 AND agency_id = $2 AND user_id = $3
RETURNING *;

-- name: DiscardAgencyMembers :many
-- Discards every active member of an agency (the agency is discarded) and returns them.
UPDATE agency_members SET discarded_at = now()
WHERE organization_id = $1 AND agency_id = $2 AND discarded_at IS NULL
RETURNING *;

-- name: AgenciesOfUser :many
-- The agencies a person works for (active memberships), oldest first.
SELECT * FROM agency_members WHERE user_id = $1 AND discarded_at IS NULL
ORDER BY created_at, agency_id;
