-- name: SetShardUID
UPDATE organizations SET uid_type = $2, uid = $3 WHERE organization_id = $1;

-- name: ClaimPhone
INSERT INTO user_phones (phone, user_id) VALUES ($1, $2)
ON CONFLICT (user_id) DO UPDATE SET phone = EXCLUDED.phone;

-- name: CompleteRegistration
UPDATE registrations SET status = 'completed', updated_at = now() WHERE idempotency_key = $1;
