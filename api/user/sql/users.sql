-- Organisation members (directory memberships), always scoped by organisation.

-- name: LockOrganization
-- Serialises user management of one organisation (last-administrator checks, invites).
SELECT pg_advisory_xact_lock(hashtextextended('memberships:' || $1::text, 0));

-- name: ListMembers
SELECT user_id, role, discarded_at, created_at
FROM memberships
WHERE organization_id = $1
  AND ($2 = '' OR ($2 = 'active' AND discarded_at IS NULL) OR ($2 = 'discarded' AND discarded_at IS NOT NULL))
ORDER BY created_at, user_id;

-- name: GetMember
SELECT user_id, role, discarded_at, created_at
FROM memberships
WHERE organization_id = $1 AND user_id = $2;

-- name: CountActiveAdministrators
SELECT count(*) FROM memberships
WHERE organization_id = $1 AND role = 'administrator' AND discarded_at IS NULL;

-- name: InsertMember
INSERT INTO memberships (user_id, organization_id, role)
VALUES ($2, $1, $3)
RETURNING user_id, role, discarded_at, created_at;

-- name: SetMemberRole
UPDATE memberships SET role = $3
WHERE organization_id = $1 AND user_id = $2
RETURNING user_id, role, discarded_at, created_at;

-- name: DiscardMember
UPDATE memberships SET discarded_at = now()
WHERE organization_id = $1 AND user_id = $2 AND discarded_at IS NULL
RETURNING user_id, role, discarded_at, created_at;

-- name: ReactivateMember
UPDATE memberships SET discarded_at = NULL
WHERE organization_id = $1 AND user_id = $2
RETURNING user_id, role, discarded_at, created_at;

-- name: InsertInvitation
INSERT INTO invitations (id, organization_id, email, first_name, last_name, role, token_hash, invited_by, expires_at)
VALUES ($2, $1, $3, $4, $5, $6, $7, $8, $9)
RETURNING id, email, first_name, last_name, role, expires_at, created_at;

-- name: ListInvitations
SELECT id, email, first_name, last_name, role, expires_at, created_at
FROM invitations WHERE organization_id = $1
ORDER BY created_at, id;

-- name: RenewInvitation
-- A new token (and expiry) for a pending invitation: the previous link stops working.
UPDATE invitations SET token_hash = $3, expires_at = $4
WHERE organization_id = $1 AND id = $2
RETURNING id, email, first_name, last_name, role, expires_at, created_at;

-- name: DeleteInvitation
DELETE FROM invitations WHERE organization_id = $1 AND id = $2
RETURNING id, email, first_name, last_name, role, expires_at, created_at;

-- name: InvitationByToken
-- Whoever holds the token: the invitation with its organisation's name and the inviter.
SELECT i.id, i.email, i.first_name, i.last_name, i.role, i.expires_at, i.created_at,
       i.organization_id, o.name, i.invited_by
FROM invitations i JOIN organizations o ON o.id = i.organization_id
WHERE i.token_hash = $1;

-- name: ClaimInvitation
-- Accepting uses the token up: the row goes in the same transaction as the membership it makes.
DELETE FROM invitations WHERE id = $1 AND token_hash = $2 AND expires_at > now();
