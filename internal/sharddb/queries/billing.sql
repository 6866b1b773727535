-- The organisation's own subscription billing (workflows/billing, api/subscription).

-- name: InsertSubscriptionAuthorization :one
INSERT INTO subscription_authorizations (organization_id, id, kind, plan_code, identity_id, customer_id, card_id,
    card_brand, card_last_four, cbu, mandate_accepted_at, payer, expires_at)
VALUES ($1, $2, $3, sqlc.narg(plan_code), $4, sqlc.narg(customer_id), sqlc.narg(card_id), sqlc.narg(card_brand),
    sqlc.narg(card_last_four), sqlc.narg(cbu), sqlc.narg(mandate_accepted_at), sqlc.narg(payer), $5)
RETURNING *;

-- name: UseSubscriptionAuthorization :one
-- Consumes an authorization once: of this organisation, of the kind named, not expired, validated
-- for this plan (a CBU mandate serves any plan). No row: unknown, another's, used or expired.
UPDATE subscription_authorizations SET used_at = now()
WHERE organization_id = $1 AND id = $2 AND kind = $3 AND used_at IS NULL AND expires_at > now()
  AND (plan_code IS NULL OR sqlc.narg(plan_code)::text IS NULL OR plan_code = sqlc.narg(plan_code)::text)
RETURNING *;

-- name: SubscriptionAuthorization :one
SELECT * FROM subscription_authorizations WHERE organization_id = $1 AND id = $2;

-- name: InsertOrganizationSubscription :one
INSERT INTO organization_subscriptions (organization_id, id, plan_code, status, payment_mode, authorization_id)
VALUES ($1, $2, $3, 'pending', $4, $5)
RETURNING *;

-- name: OrganizationSubscription :one
-- The organisation's live subscription, or the one named.
SELECT * FROM organization_subscriptions
WHERE organization_id = $1
  AND (sqlc.narg(id)::uuid IS NULL AND status <> 'ended' OR id = sqlc.narg(id)::uuid)
ORDER BY created_at DESC LIMIT 1;

-- name: SetSubscriptionStatus :one
UPDATE organization_subscriptions SET status = $3, updated_at = now()
WHERE organization_id = $1 AND id = $2
RETURNING *;

-- name: CancelSubscription :one
-- Cancelling keeps the plan to the end of the paid period; a subscription never paid ends now.
UPDATE organization_subscriptions
SET status = CASE WHEN paid_until IS NULL THEN 'ended' ELSE 'cancelled' END, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status IN ('pending', 'active', 'past_due')
RETURNING *;

-- name: ChangeSubscriptionPaymentMode :one
UPDATE organization_subscriptions SET payment_mode = $3, authorization_id = $4, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status IN ('pending', 'active', 'past_due')
RETURNING *;

-- name: OpenSubscriptionInvoice :exec
-- An invoice (a period's, or an upgrade's pro-rata charge: kind and change_id), opened on the first
-- attempt at its charge at the amount the caller priced it at: in pesos, with the USD list price and
-- the MEP rate it was converted at. One already opened keeps its row, and its price: read it with
-- SubscriptionInvoice.
INSERT INTO subscription_invoices (organization_id, subscription_id, period_start, period_end, plan_code,
    amount_minor, currency, payment_mode, status, kind, change_id, usd_price_minor, mep_rate_minor, mep_source, mep_as_of)
VALUES (sqlc.arg(organization_id), sqlc.arg(subscription_id), sqlc.arg(period_start), sqlc.arg(period_end), sqlc.arg(plan_code),
        sqlc.arg(amount_minor), sqlc.arg(currency), sqlc.arg(payment_mode), 'pending', sqlc.arg(kind), sqlc.narg(change_id),
        sqlc.narg(usd_price_minor), sqlc.narg(mep_rate_minor), sqlc.narg(mep_source), sqlc.narg(mep_as_of))
ON CONFLICT (organization_id, subscription_id, period_start) DO NOTHING;

-- name: SubscriptionInvoice :one
SELECT * FROM subscription_invoices
WHERE organization_id = $1 AND subscription_id = $2 AND period_start = $3;

-- name: RecordSubscriptionInvoice :one
-- The outcome of one attempt; a paid invoice stays paid. now is a parameter: Citus allows no now()
-- inside CASE or COALESCE of an UPDATE.
UPDATE subscription_invoices SET
    status = CASE WHEN status = 'paid' THEN 'paid' ELSE sqlc.arg(status)::text END,
    attempts = greatest(attempts, sqlc.arg(attempt)::integer),
    gateway_payment_id = coalesce(sqlc.narg(gateway_payment_id), gateway_payment_id),
    status_detail = sqlc.narg(status_detail),
    paid_at = CASE WHEN sqlc.arg(status)::text = 'paid' THEN coalesce(paid_at, sqlc.arg(now)::timestamptz) ELSE paid_at END,
    updated_at = now()
WHERE organization_id = $1 AND subscription_id = $2 AND period_start = $3
RETURNING *;

-- name: MarkSubscriptionPaidThrough :one
-- A paid period moves the subscription's paid window forward (never back) and makes it active.
UPDATE organization_subscriptions SET
    paid_from = CASE WHEN paid_until IS NULL OR sqlc.arg(period_end)::timestamptz > paid_until THEN sqlc.arg(period_start)::timestamptz ELSE paid_from END,
    paid_until = greatest(paid_until, sqlc.arg(period_end)::timestamptz),
    status = CASE WHEN status IN ('pending', 'past_due') THEN 'active' ELSE status END,
    updated_at = now()
WHERE organization_id = $1 AND id = $2
RETURNING *;

-- name: SubscriptionInvoices :many
-- The organisation's invoices, newest first; or a subscription's (one period's: SubscriptionInvoice).
SELECT * FROM subscription_invoices
WHERE organization_id = $1
  AND (sqlc.narg(subscription_id)::uuid IS NULL OR subscription_id = sqlc.narg(subscription_id)::uuid)
ORDER BY period_start DESC, created_at DESC;

-- name: SubscriptionInvoiceByID :one
-- One invoice of the organisation (another organisation's id finds nothing).
SELECT * FROM subscription_invoices WHERE organization_id = $1 AND id = $2;

-- name: InvoiceHolder :one
-- Who an invoice is made out to: the organisation's legal data.
SELECT o.name, coalesce(p.legal_name, '')::text AS legal_name, coalesce(o.uid_type, '')::text AS uid_type,
       coalesce(o.uid, '')::text AS uid, coalesce(p.address, '{}')::jsonb AS address,
       coalesce(o.locale, 'es')::text AS locale, o.country, o.timezone
FROM organizations o
LEFT JOIN organization_profiles p ON p.organization_id = o.organization_id
WHERE o.organization_id = $1;

-- name: SwitchSubscriptionPlan :one
-- An upgrade takes effect: the plan changes (from the one the caller priced it against only), and a
-- pending downgrade is dropped.
UPDATE organization_subscriptions SET plan_code = sqlc.arg(plan_code)::text, next_plan_code = NULL, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND plan_code = sqlc.arg(from_plan)::text AND status = 'active'
RETURNING *;

-- name: SetNextSubscriptionPlan :one
-- A downgrade or change of period, from the next period on (NULL keeps the current plan).
UPDATE organization_subscriptions SET next_plan_code = sqlc.narg(next_plan_code), updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status = 'active'
RETURNING *;

-- name: RenewWithNextPlan :one
-- At the start of a period the waiting plan becomes the plan, before that period is charged.
UPDATE organization_subscriptions SET plan_code = next_plan_code, next_plan_code = NULL, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND next_plan_code IS NOT NULL AND paid_until <= sqlc.arg(period_start)::timestamptz
RETURNING *;
