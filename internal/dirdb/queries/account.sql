-- Signup and the signed-in user's own account (api/account): registrations, cellphones, the
-- verification flows Kratos answered with, and pending e-mail changes.

-- name: RegistrationEmailPending :one
-- Another registration of the last hour holds the address.
SELECT EXISTS (
    SELECT 1 FROM registrations
    WHERE lower(email) = lower(sqlc.arg(email)) AND status = 'pending' AND created_at > now() - interval '1 hour'
      AND idempotency_key <> sqlc.arg(own_key)::text);

-- name: CellphoneTaken :one
-- Another user has the number, or another registration of the last hour holds it; the user
-- self_id and the registration own_key do not count.
SELECT (EXISTS (SELECT 1 FROM user_phones
               WHERE phone = sqlc.arg(phone)::text AND user_id <> sqlc.arg(self_id)::uuid
                 AND user_id NOT IN (SELECT user_id FROM registrations
                                     WHERE idempotency_key = sqlc.arg(own_key)::text AND user_id IS NOT NULL))
    OR EXISTS (SELECT 1 FROM registrations
               WHERE phone = sqlc.arg(phone)::text AND status = 'pending' AND created_at > now() - interval '1 hour'
                 AND idempotency_key <> sqlc.arg(own_key)::text))::bool AS taken;

-- name: StartRegistration :one
INSERT INTO registrations (idempotency_key, organization_id, email, phone)
VALUES ($1, $2, $3, $4)
ON CONFLICT (idempotency_key) DO UPDATE SET updated_at = now()
RETURNING organization_id, user_id, (lower(email) = lower($3))::bool AS same_email, status;

-- name: SetRegistrationUser :exec
UPDATE registrations SET user_id = $2, updated_at = now() WHERE idempotency_key = $1;

-- name: ClaimCellphone :exec
INSERT INTO user_phones (phone, user_id) VALUES ($1, $2)
ON CONFLICT (user_id) DO UPDATE SET phone = EXCLUDED.phone;

-- name: SaveVerificationFlow :exec
INSERT INTO verification_flows (user_id, channel, flow_id, address, attempts, sent_at)
VALUES ($1, $2, $3, $4, 0, now())
ON CONFLICT (user_id, channel) DO UPDATE
SET flow_id = EXCLUDED.flow_id, address = EXCLUDED.address, attempts = 0, sent_at = now();

-- name: VerificationFlow :one
SELECT flow_id, address, attempts, sent_at FROM verification_flows WHERE user_id = $1 AND channel = $2;

-- name: CountVerificationAttempt :one
UPDATE verification_flows SET attempts = attempts + 1 WHERE user_id = $1 AND channel = $2
RETURNING attempts;

-- name: DeleteVerificationFlow :exec
DELETE FROM verification_flows WHERE user_id = $1 AND channel = $2;

-- name: SaveEmailChange :exec
INSERT INTO email_changes (user_id, new_email, old_email, old_verified, code_hash, attempts, sent_at)
VALUES ($1, $2, $3, $4, $5, 0, now())
ON CONFLICT (user_id) DO UPDATE
SET new_email = EXCLUDED.new_email, old_email = EXCLUDED.old_email, old_verified = EXCLUDED.old_verified,
    code_hash = EXCLUDED.code_hash, attempts = 0, sent_at = now();

-- name: ResendEmailChange :one
UPDATE email_changes SET code_hash = $2, attempts = 0, sent_at = now() WHERE user_id = $1
RETURNING new_email;

-- name: PendingEmailChange :one
SELECT new_email, sent_at FROM email_changes WHERE user_id = $1;

-- name: TryEmailChange :one
-- Counts one attempt at the pending change's code and answers the change.
UPDATE email_changes SET attempts = attempts + 1 WHERE user_id = $1
RETURNING *;

-- name: DeleteEmailChange :exec
DELETE FROM email_changes WHERE user_id = $1;
