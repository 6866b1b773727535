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
UPDATE agencies SET discarded_at = LEAST(discarded_at, now()), updated_at = now()
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

-- name: InsertAcquisition :one
-- Once per agency and idempotency key: a retried submission returns nothing and reads the first.
INSERT INTO agency_acquisitions (organization_id, id, agency_id, campaign_id, agent_id, mode, status, amount_minor, currency,
    recurrence, email, first_name, last_name, uid_type, uid_number, customer_id, card_id, brand, bin, last_four,
    expiry_month, expiry_year, holder_name, sync_delay, sync_at, idempotency_key, gateway)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)
ON CONFLICT (organization_id, agency_id, idempotency_key) DO NOTHING
RETURNING *;

-- name: AcquisitionByKey :one
SELECT * FROM agency_acquisitions WHERE organization_id = $1 AND agency_id = $2 AND idempotency_key = $3;

-- name: Acquisition :one
-- One acquisition of an agency (agency_id NULL: of the organisation, for the sync).
SELECT * FROM agency_acquisitions
WHERE organization_id = sqlc.arg(organization_id) AND id = sqlc.arg(id)
  AND (sqlc.narg(agency_id)::uuid IS NULL OR agency_id = sqlc.narg(agency_id));

-- name: ListAcquisitions :many
-- With the synced donation's status ('' before the sync), which tells the management actions the list
-- offers, and its amount now (a management change moves it; the acquisition keeps the signed one).
SELECT sqlc.embed(a), c.title AS campaign_title, COALESCE(d.status, '')::text AS donation_status,
       COALESCE(d.amount_minor, a.amount_minor)::bigint AS amount_now
FROM agency_acquisitions a
JOIN campaigns c ON c.organization_id = a.organization_id AND c.id = a.campaign_id
LEFT JOIN donations d ON d.organization_id = $1 AND d.id = a.donation_id
WHERE a.organization_id = $1 AND a.agency_id = $2
ORDER BY a.created_at DESC, a.id
LIMIT 200;

-- name: CorrectAcquisition :one
-- Corrects a pending acquisition's amount while it waits for its sync.
UPDATE agency_acquisitions SET amount_minor = $4, updated_at = now()
WHERE organization_id = $1 AND agency_id = $2 AND id = $3 AND status = 'pending'
RETURNING *;

-- name: VoidAcquisition :one
-- Voids a pending acquisition (the agency's correction, or the sync finding the agency discarded).
UPDATE agency_acquisitions SET status = 'voided', void_reason = $3, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status = 'pending'
RETURNING *;

-- name: LockPendingAcquisition :one
-- The sync's hold on a pending acquisition: a correction or void waits for it, then finds it synced.
SELECT sqlc.embed(a), ag.discarded_at AS agency_discarded_at, o.timezone FROM agency_acquisitions a
JOIN agencies ag ON ag.organization_id = a.organization_id AND ag.id = a.agency_id
JOIN organizations o ON o.organization_id = a.organization_id
WHERE a.organization_id = $1 AND a.id = $2
FOR UPDATE OF a;

-- name: MarkAcquisitionSynced :exec
UPDATE agency_acquisitions SET status = 'synced', donation_id = $3, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status = 'pending';
