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
-- A new processor with its merchant account (its keys sealed, internal/processing).
INSERT INTO payment_processors (organization_id, id, family, gateway_name, soft_descriptor, position,
    gateway_account_name, rule_retry, merchant_login, public_key, secret, key_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
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

-- name: ProcessorRoutes :many
-- The organisation's processors with a merchant account that may charge a donation of the campaign:
-- routes says a rule routes the campaign to it; the global one may also retry declines (rule_retry).
-- Each with its gateway option's fee.
SELECT p.id, p.family, p.soft_descriptor, p.rule_retry, p.merchant_login::text AS merchant_login,
       coalesce(p.public_key, '')::text AS public_key, p.secret, p.key_id::text AS key_id, o.fee_bps,
       EXISTS (SELECT 1 FROM payment_processor_campaigns pc
               WHERE pc.organization_id = $1 AND pc.processor_id = p.id AND pc.campaign_id = sqlc.arg(campaign_id)) AS routes
FROM payment_processors p
JOIN gateway_options o ON o.id = p.family
WHERE p.organization_id = $1 AND p.merchant_login IS NOT NULL
ORDER BY p.position, p.created_at;

-- name: DonationCampaignID :one
SELECT campaign_id FROM donations WHERE organization_id = $1 AND id = $2;

-- name: TransactionFeesByCurrency :many
-- The processor fees and Aporta's commissions of the approved transactions created in a period, per currency.
SELECT t.currency, coalesce(sum(f.amount_minor), 0)::bigint AS processor_fees,
       coalesce(sum(c.amount_minor), 0)::bigint AS commissions
FROM transactions t
LEFT JOIN transaction_processor_fees f ON f.organization_id = t.organization_id AND f.transaction_id = t.id
LEFT JOIN transaction_commissions c ON c.organization_id = t.organization_id AND c.transaction_id = t.id
WHERE t.organization_id = $1 AND t.status = 'approved' AND t.created_at >= sqlc.arg(start) AND t.created_at < sqlc.arg(until)
GROUP BY t.currency
ORDER BY t.currency;

-- name: SaveProcessorCard :exec
-- The card a payment method has at the processor that retries its declines (a newer one replaces it).
INSERT INTO processor_cards (organization_id, payment_method_id, processor_id, card_id, customer_id)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (organization_id, payment_method_id, processor_id)
DO UPDATE SET card_id = EXCLUDED.card_id, customer_id = EXCLUDED.customer_id;

-- name: DonationProcessorCard :one
-- The donation's card at the processor (its payment method's), for a retry through it.
SELECT pc.card_id, pc.customer_id
FROM donations d
JOIN processor_cards pc ON pc.organization_id = $1 AND pc.payment_method_id = d.payment_method_id
WHERE d.organization_id = $1 AND d.id = sqlc.arg(donation_id) AND pc.processor_id = sqlc.arg(processor_id);
