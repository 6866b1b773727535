-- name: CompleteOnboardingStep :exec
UPDATE organizations
SET onboarding_steps = CASE WHEN sqlc.arg(step)::text = ANY (onboarding_steps) THEN onboarding_steps
                            ELSE array_append(onboarding_steps, sqlc.arg(step)::text) END,
    updated_at = now()
WHERE organization_id = $1;

-- name: SetOrganizationShardStatus :exec
UPDATE organizations SET status = $2, updated_at = now() WHERE organization_id = $1;
