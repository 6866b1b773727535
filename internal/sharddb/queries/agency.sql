-- External teams (api/agency): agencies and the campaigns they may sign donors up on.

-- name: InsertAgency :one
INSERT INTO agencies (organization_id, id, name, mode, sync_delay)
VALUES ($1, $2, $3, $4, $5)
RETURNING *;

-- name: Agency :one
SELECT * FROM agencies WHERE organization_id = $1 AND id = $2;

-- name: ListAgencies :many
-- status 'active' lists the agencies not discarded, 'discarded' the others, '' all.
SELECT * FROM agencies
WHERE organization_id = sqlc.arg(organization_id)
  AND (sqlc.arg(status)::text = '' OR (sqlc.arg(status)::text = 'active' AND discarded_at IS NULL)
       OR (sqlc.arg(status)::text = 'discarded' AND discarded_at IS NOT NULL))
ORDER BY created_at, id;

-- name: UpdateAgency :one
UPDATE agencies SET name = $3, mode = $4, sync_delay = $5, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND discarded_at IS NULL
RETURNING *;

-- name: DiscardAgency :one
UPDATE agencies SET discarded_at = coalesce(discarded_at, now()), updated_at = now()
WHERE organization_id = $1 AND id = $2
RETURNING *;

-- name: UpsertAgencyCampaign :one
INSERT INTO agency_campaigns (organization_id, agency_id, campaign_id, allow_one_time, allow_other_amount, amounts)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (organization_id, agency_id, campaign_id) DO UPDATE
SET allow_one_time = excluded.allow_one_time, allow_other_amount = excluded.allow_other_amount, amounts = excluded.amounts
RETURNING *;

-- name: DeleteAgencyCampaign :one
DELETE FROM agency_campaigns WHERE organization_id = $1 AND agency_id = $2 AND campaign_id = $3
RETURNING *;

-- name: ListAgencyCampaigns :many
-- An agency's authorised campaigns with what the work area shows of them; campaign_id narrows to one.
SELECT ac.*, c.title, c.currency, c.published, c.type, c.slug
FROM agency_campaigns ac
JOIN campaigns c ON c.organization_id = ac.organization_id AND c.id = ac.campaign_id
WHERE ac.organization_id = sqlc.arg(organization_id) AND ac.agency_id = sqlc.arg(agency_id)
  AND (sqlc.narg(campaign_id)::uuid IS NULL OR ac.campaign_id = sqlc.narg(campaign_id))
ORDER BY c.title, ac.campaign_id;

-- name: CampaignsForAgencies :many
-- The organisation's campaigns an agency may be authorised on (any type but promoted);
-- id narrows to one.
SELECT id, title, currency, published FROM campaigns
WHERE organization_id = sqlc.arg(organization_id) AND type <> 'promoted'
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id))
ORDER BY title, id;
