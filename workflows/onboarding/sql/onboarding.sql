-- name: CompleteStep
UPDATE organizations
SET onboarding_steps = CASE WHEN $2 = ANY (onboarding_steps) THEN onboarding_steps
                            ELSE array_append(onboarding_steps, $2) END,
    updated_at = now()
WHERE organization_id = $1;

-- name: SetShardStatus
UPDATE organizations SET status = $2, updated_at = now() WHERE organization_id = $1;

-- name: SetDirectoryStatus
UPDATE organizations SET status = $2, updated_at = now() WHERE id = $1;
