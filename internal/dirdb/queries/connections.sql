-- Organisations' gateway connections (internal/connections).

-- name: OrganizationIDs :many
-- Every organisation, for a sweep over all of them (a rotation of the key that wraps their tokens).
SELECT id FROM organizations ORDER BY id;
