-- The dev seed's history (api/seed): rows written through the application's own queries today,
-- dated when their story happened. Only the demo seed runs these.

-- name: SeedAnchor :one
-- When the organisation was created: the seeded year ends there, so a second run plans the same year.
SELECT created_at FROM organizations WHERE organization_id = $1;

-- name: SeedDonationCount :one
SELECT count(*) FROM donations WHERE organization_id = $1;

-- name: SeedBackdateDonation :exec
-- A pending donation written by the form's queries, dated at its submission, with its first
-- transaction (SeedBackdateTransactions) and donor (SeedBackdateDonor). Pending rows count in no
-- rollup yet.
UPDATE donations SET created_at = sqlc.arg(at), updated_at = sqlc.arg(at)
WHERE organization_id = sqlc.arg(organization_id) AND id = sqlc.arg(id) AND status = 'pending';

-- name: SeedBackdateTransactions :exec
UPDATE transactions SET created_at = sqlc.arg(at), updated_at = sqlc.arg(at)
WHERE organization_id = sqlc.arg(organization_id) AND donation_id = sqlc.arg(donation_id) AND status IN ('pending', 'planned');

-- name: SeedBackdateDonor :exec
UPDATE donors SET created_at = least(created_at, sqlc.arg(at)), updated_at = least(updated_at, sqlc.arg(at))
WHERE organization_id = sqlc.arg(organization_id) AND id = sqlc.arg(id);

-- name: SeedBackdateCampaign :exec
UPDATE campaigns SET created_at = sqlc.arg(at)::timestamptz, published_at = CASE WHEN published THEN sqlc.arg(at)::timestamptz END
WHERE organization_id = sqlc.arg(organization_id) AND id = sqlc.arg(id);

-- name: SeedBackdateLead :exec
UPDATE leads SET created_at = sqlc.arg(at), updated_at = sqlc.arg(at)
WHERE organization_id = sqlc.arg(organization_id) AND email = sqlc.arg(email);

-- name: SeedVisits :exec
-- A campaign's visits per day (the form counts them one at a time: CountVisit).
INSERT INTO campaign_visits (organization_id, campaign_id, day, visits)
SELECT sqlc.arg(organization_id), sqlc.arg(campaign_id), unnest(sqlc.arg(days)::date[]), unnest(sqlc.arg(visits)::bigint[])
ON CONFLICT (organization_id, campaign_id, day) DO UPDATE SET visits = EXCLUDED.visits;

-- name: SeedDateAttempts :exec
-- A donation's charged transactions, dated when they were charged (their rows are written today).
UPDATE transactions SET created_at = charged_at, updated_at = charged_at
WHERE organization_id = $1 AND donation_id = $2 AND charged_at IS NOT NULL AND created_at <> charged_at;
