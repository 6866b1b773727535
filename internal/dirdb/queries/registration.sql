-- name: CompleteRegistration :exec
UPDATE registrations SET status = 'completed', updated_at = now() WHERE idempotency_key = $1;
