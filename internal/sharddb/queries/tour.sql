-- name: GuideStep :one
SELECT step FROM guide_progress WHERE organization_id = $1 AND user_id = $2 AND guide_name = $3;

-- name: SetGuideStep :exec
INSERT INTO guide_progress (organization_id, user_id, guide_name, step) VALUES ($1, $2, $3, $4)
ON CONFLICT (organization_id, user_id, guide_name) DO UPDATE SET step = EXCLUDED.step, updated_at = now();
