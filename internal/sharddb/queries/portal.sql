-- The donor portal (internal/portal, api/donation/portal.go): magic links and the donor's donations.

-- name: InsertPortalLink :exec
INSERT INTO donor_portal_links (organization_id, id, donor_id, purpose, expires_at)
VALUES (sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(donor_id), sqlc.arg(purpose), sqlc.arg(expires_at));

-- name: ConsumePortalLink :one
-- A link opens one session: the statement that checks it marks it used, so of two concurrent uses
-- one finds no row.
UPDATE donor_portal_links SET used_at = sqlc.arg(now)::timestamptz
WHERE organization_id = sqlc.arg(organization_id) AND id = sqlc.arg(id) AND used_at IS NULL
  AND expires_at > sqlc.arg(now)::timestamptz
RETURNING donor_id;

-- name: SweepPortalLinks :exec
-- The organisation's links expired a day ago or more (run when a link is issued).
DELETE FROM donor_portal_links WHERE organization_id = $1 AND expires_at < sqlc.arg(before)::timestamptz;

-- name: PortalDonationIDs :many
-- The donor's donations the portal lists, newest first (refused submissions never became donations
-- the donor can manage).
SELECT id FROM donations
WHERE organization_id = $1 AND donor_id = $2 AND status <> 'rejected'
ORDER BY created_at DESC
LIMIT 50;

-- name: DonationNotice :one
-- What an e-mail to a donation's donor says: their name and address, the campaign whose form leads
-- to the portal, the organisation and its language.
SELECT dn.id AS donor_id, dn.first_name, dn.email, c.slug, c.title, o.name AS organization_name,
       coalesce(o.locale, 'es')::text AS locale, d.amount_minor, d.currency
FROM donations d
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
JOIN organizations o ON o.organization_id = d.organization_id
WHERE d.organization_id = $1 AND d.id = $2;

-- name: PortalDonorByEmail :one
SELECT id, first_name FROM donors WHERE organization_id = $1 AND email = $2;

-- name: PortalDonorName :one
SELECT first_name FROM donors WHERE organization_id = $1 AND id = $2;

-- name: InsertPortalSession :exec
-- A session a link opened; its cookie names the row. Sessions past their hour go as new ones come.
INSERT INTO donor_portal_sessions (organization_id, id, donor_id, expires_at)
VALUES (sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(donor_id), sqlc.arg(expires_at));

-- name: PortalSessionDonor :one
-- The donor of a session that is neither revoked nor expired.
SELECT donor_id FROM donor_portal_sessions
WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL AND expires_at > sqlc.arg(now)::timestamptz;

-- name: RevokePortalSession :exec
-- Signing out ends the session before its hour does.
UPDATE donor_portal_sessions SET revoked_at = sqlc.arg(now)::timestamptz
WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL;

-- name: SweepPortalSessions :exec
DELETE FROM donor_portal_sessions WHERE organization_id = $1 AND expires_at < sqlc.arg(before)::timestamptz;
