-- name: Begin
-- Starts the trial of an original customer once; a bought plan makes the subscription active.
UPDATE organizations SET
    subscription_status = CASE
        WHEN subscription_status <> 'none' THEN subscription_status
        WHEN plan_code = 'original' THEN 'trial'
        ELSE 'active' END,
    trial_started_at = CASE WHEN subscription_status = 'none' AND plan_code = 'original' THEN $2 ELSE trial_started_at END,
    trial_ends_at    = CASE WHEN subscription_status = 'none' AND plan_code = 'original' THEN $3 ELSE trial_ends_at END,
    updated_at = now()
WHERE organization_id = $1
RETURNING plan_code, subscription_status, trial_started_at, trial_ends_at, commission_bps, accepting_donations;

-- name: EndTrial
-- The trial is over: unless a plan was bought meanwhile, the commission applies and new donations stop.
UPDATE organizations SET
    subscription_status = CASE WHEN plan_code = 'original' THEN 'restricted' ELSE 'active' END,
    commission_bps      = CASE WHEN plan_code = 'original' THEN $2 ELSE 0 END,
    accepting_donations = plan_code <> 'original',
    updated_at = now()
WHERE organization_id = $1
RETURNING plan_code, subscription_status, trial_started_at, trial_ends_at, commission_bps, accepting_donations;

-- name: PlanExists
SELECT EXISTS (SELECT 1 FROM plans WHERE code = $1 AND code <> 'original');

-- name: ApplyPlan
UPDATE organizations SET
    plan_code = $2, subscription_status = 'active', commission_bps = 0, accepting_donations = true,
    plan_purchased_at = coalesce(plan_purchased_at, $3), updated_at = now()
WHERE organization_id = $1
RETURNING plan_code, subscription_status, trial_started_at, trial_ends_at, commission_bps, accepting_donations;

-- name: Get
SELECT plan_code, subscription_status, trial_started_at, trial_ends_at, commission_bps, accepting_donations,
       coalesce(locale, 'es'), name,
       (SELECT coalesce(sum(amount_minor), 0) FROM transaction_commissions c WHERE c.organization_id = o.organization_id)
FROM organizations o WHERE organization_id = $1;

-- name: AcceptingDonations
SELECT accepting_donations FROM organizations WHERE organization_id = $1;

-- name: ApprovedSinceTrial
-- Approved charges after the trial that have no commission yet.
SELECT t.id FROM transactions t
JOIN organizations o ON o.organization_id = t.organization_id
LEFT JOIN transaction_commissions c ON c.organization_id = t.organization_id AND c.transaction_id = t.id
WHERE t.organization_id = $1 AND t.status = 'approved' AND c.transaction_id IS NULL
  AND o.commission_bps > 0 AND o.trial_ends_at IS NOT NULL
  AND coalesce(t.charged_at, t.created_at) >= o.trial_ends_at;
