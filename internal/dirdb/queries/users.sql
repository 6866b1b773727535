-- Organisation members and their invitations (api/user), always scoped by organisation.

-- name: LockOrganizationMembers :exec
-- Serialises user management of one organisation (last-administrator checks, invites).
SELECT pg_advisory_xact_lock(hashtextextended('memberships:' || sqlc.arg(organization_id)::uuid::text, 0));

-- name: ListMembers :many
-- status '' lists every member, 'active' or 'discarded' only those.
SELECT * FROM memberships
WHERE organization_id = sqlc.arg(organization_id)
  AND (sqlc.arg(status)::text = '' OR (sqlc.arg(status)::text = 'active' AND discarded_at IS NULL)
       OR (sqlc.arg(status)::text = 'discarded' AND discarded_at IS NOT NULL))
ORDER BY created_at, user_id;

-- name: Member :one
SELECT * FROM memberships WHERE organization_id = $1 AND user_id = $2;

-- name: CountActiveAdministrators :one
SELECT count(*) FROM memberships
WHERE organization_id = $1 AND role = 'administrator' AND discarded_at IS NULL;

-- name: InsertMember :one
INSERT INTO memberships (user_id, organization_id, role) VALUES ($1, $2, $3)
RETURNING *;

-- name: SetMemberRole :one
UPDATE memberships SET role = $3
WHERE organization_id = $1 AND user_id = $2
RETURNING *;

-- name: DiscardMember :one
UPDATE memberships SET discarded_at = now()
WHERE organization_id = $1 AND user_id = $2 AND discarded_at IS NULL
RETURNING *;

-- name: ReactivateMember :one
UPDATE memberships SET discarded_at = NULL
WHERE organization_id = $1 AND user_id = $2
RETURNING *;

-- name: InsertInvitation :one
INSERT INTO invitations (id, organization_id, email, first_name, last_name, role, token_hash, invited_by, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING *;

-- name: ListInvitations :many
SELECT * FROM invitations WHERE organization_id = $1
ORDER BY created_at, id;

-- name: RenewInvitation :one
-- A new token (and expiry) for a pending invitation: the previous link stops working.
UPDATE invitations SET token_hash = $3, expires_at = $4
WHERE organization_id = $1 AND id = $2
RETURNING *;

-- name: DeleteInvitation :one
DELETE FROM invitations WHERE organization_id = $1 AND id = $2
RETURNING *;

-- name: InvitationByToken :one
-- Whoever holds the token: the invitation with its organisation's name.
SELECT sqlc.embed(i), o.name AS organization_name
FROM invitations i JOIN organizations o ON o.id = i.organization_id
WHERE i.token_hash = $1;

-- name: ClaimInvitation :execrows
-- Accepting uses the token up: the row goes in the same transaction as the membership it makes.
DELETE FROM invitations WHERE id = $1 AND token_hash = $2 AND expires_at > now();
