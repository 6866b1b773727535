-- name: BeginSubscription :one
-- Starts the trial of an original customer once; a bought plan makes the subscription active.
UPDATE organizations SET
    subscription_status = CASE
        WHEN subscription_status <> 'none' THEN subscription_status
        WHEN plan_code = 'original' THEN 'trial'
        ELSE 'active' END,
    trial_started_at = CASE WHEN subscription_status = 'none' AND plan_code = 'original' THEN sqlc.arg(trial_starts)::timestamptz ELSE trial_started_at END,
    trial_ends_at    = CASE WHEN subscription_status = 'none' AND plan_code = 'original' THEN sqlc.arg(trial_ends)::timestamptz ELSE trial_ends_at END,
    updated_at = now()
WHERE organization_id = $1
RETURNING organization_id;

-- name: EndSubscriptionTrial :one
-- The trial is over: unless a plan was bought meanwhile, the commission applies and new donations stop.
UPDATE organizations SET
    subscription_status = CASE WHEN plan_code = 'original' THEN 'restricted' ELSE 'active' END,
    commission_bps      = CASE WHEN plan_code = 'original' THEN sqlc.arg(commission_bps)::integer ELSE 0 END,
    accepting_donations = plan_code <> 'original',
    updated_at = now()
WHERE organization_id = $1
RETURNING organization_id;

-- name: PurchasablePlanExists :one
SELECT EXISTS (SELECT 1 FROM plans WHERE code = $1 AND code <> 'original');

-- name: ApplySubscriptionPlan :one
UPDATE organizations SET
    plan_code = $2, subscription_status = 'active', commission_bps = 0, accepting_donations = true,
    plan_purchased_at = coalesce(plan_purchased_at, sqlc.arg(purchased_at)::timestamptz), updated_at = now()
WHERE organization_id = $1
RETURNING organization_id;

-- name: LapseSubscriptionPlan :one
-- The bought plan ended unpaid or cancelled: back to the original plan under the restriction.
UPDATE organizations SET
    plan_code = 'original', subscription_status = 'restricted', commission_bps = sqlc.arg(commission_bps)::integer,
    accepting_donations = false, updated_at = now()
WHERE organization_id = $1
RETURNING organization_id;

-- name: SubscriptionSummary :one
SELECT sqlc.embed(o), coalesce(o.locale, 'es')::text AS mail_locale,
       (SELECT coalesce(sum(amount_minor), 0) FROM transaction_commissions c WHERE c.organization_id = $1)::bigint AS commission_minor
FROM organizations o WHERE o.organization_id = $1;

-- name: ApprovedWithoutCommission :many
-- Approved charges after the trial that have no commission yet.
SELECT t.id FROM transactions t
JOIN organizations o ON o.organization_id = t.organization_id
LEFT JOIN transaction_commissions c ON c.organization_id = t.organization_id AND c.transaction_id = t.id
WHERE t.organization_id = $1 AND t.status = 'approved' AND c.transaction_id IS NULL
  AND o.commission_bps > 0 AND o.trial_ends_at IS NOT NULL
  AND coalesce(t.charged_at, t.created_at) >= o.trial_ends_at;

-- name: RecordTransactionCommission :one
-- The commission recorded, 0 when the organisation is not under the restriction.
SELECT coalesce(record_transaction_commission(sqlc.arg(organization_id)::uuid, sqlc.arg(transaction_id)::uuid), 0)::bigint AS amount;
