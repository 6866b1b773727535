-- name: GuideStep :one
SELECT step FROM guide_progress WHERE organization_id = $1 AND user_id = $2 AND guide_name = $3;

-- name: SetGuideStep :exec
-- EXCLUDED.updated_at (the column default) rather than now(): Citus allows only immutable functions in DO UPDATE.
INSERT INTO guide_progress (organization_id, user_id, guide_name, step) VALUES ($1, $2, $3, $4)
ON CONFLICT (organization_id, user_id, guide_name) DO UPDATE SET step = EXCLUDED.step, updated_at = EXCLUDED.updated_at;
