-- name: ClaimUserPhone :exec
INSERT INTO user_phones (phone, user_id) VALUES ($1, $2)
ON CONFLICT (user_id) DO UPDATE SET phone = EXCLUDED.phone;

-- name: CompleteRegistration :exec
UPDATE registrations SET status = 'completed', updated_at = now() WHERE idempotency_key = $1;
