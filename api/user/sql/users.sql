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
