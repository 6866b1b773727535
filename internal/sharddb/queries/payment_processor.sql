-- Integrated payments: organisations' payment processors and their rules (api/processors).

-- name: GatewayOptions :many
SELECT id, fee_bps FROM gateway_options ORDER BY position;

-- name: OrganizationFeatures :one
SELECT features FROM organizations WHERE organization_id = $1;

-- name: SetOrganizationFeatures :one
UPDATE organizations SET features = sqlc.arg(features)::text[], updated_at = now()
WHERE organization_id = $1 RETURNING features;

-- name: PaymentProcessors :many
-- The organisation's processors in their order.
SELECT * FROM payment_processors WHERE organization_id = $1 ORDER BY position, created_at;

-- name: PaymentProcessor :one
SELECT * FROM payment_processors WHERE organization_id = $1 AND id = $2;

-- name: ProcessorCampaigns :many
-- The campaigns each of the organisation's processors' rules route, by title.
SELECT pc.processor_id, c.id, c.title, c.type
FROM payment_processor_campaigns pc
JOIN campaigns c ON c.organization_id = pc.organization_id AND c.id = pc.campaign_id
WHERE pc.organization_id = $1
ORDER BY c.title, c.id;

-- name: RuleCampaigns :many
-- Of these ids, the organisation's campaigns a rule may route (promoted ones are not offered).
SELECT id FROM campaigns
WHERE organization_id = $1 AND id = ANY (sqlc.arg(ids)::uuid[]) AND type <> 'promoted';

-- name: InsertPaymentProcessor :one
INSERT INTO payment_processors (organization_id, id, family, gateway_name, soft_descriptor, position,
    gateway_account_name, rule_retry)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
RETURNING *;

-- name: NextProcessorPosition :one
-- The position a new processor takes: after the organisation's last (computed apart: Citus refuses a subquery in
-- INSERT … VALUES, and cannot plan INSERT … SELECT with parameters on one shard).
SELECT (coalesce(max(position), 0) + 1)::integer AS position FROM payment_processors WHERE organization_id = $1;

-- name: UpdatePaymentProcessor :one
UPDATE payment_processors SET soft_descriptor = $3, rule_retry = $4, updated_at = now()
WHERE organization_id = $1 AND id = $2 RETURNING *;

-- name: DeletePaymentProcessor :one
DELETE FROM payment_processors WHERE organization_id = $1 AND id = $2 RETURNING *;

-- name: ClearProcessorCampaigns :exec
DELETE FROM payment_processor_campaigns WHERE organization_id = $1 AND processor_id = $2;

-- name: AddProcessorCampaigns :exec
INSERT INTO payment_processor_campaigns (organization_id, processor_id, campaign_id)
SELECT $1, $2, unnest(sqlc.arg(campaign_ids)::uuid[]);

-- name: InsertTrackEvent :exec
INSERT INTO track_events (organization_id, id, user_id, event, trigger, path, gateway)
VALUES ($1, $2, $3, $4, $5, $6, $7);
