-- name: EmailPending
SELECT EXISTS (
    SELECT 1 FROM registrations
    WHERE lower(email) = lower($1) AND status = 'pending' AND created_at > now() - interval '1 hour'
      AND idempotency_key <> $2);

-- name: PhoneTaken
SELECT EXISTS (SELECT 1 FROM user_phones
               WHERE phone = $1 AND user_id <> $2
                 AND user_id NOT IN (SELECT user_id FROM registrations
                                     WHERE idempotency_key = $3 AND user_id IS NOT NULL))
    OR EXISTS (SELECT 1 FROM registrations
               WHERE phone = $1 AND status = 'pending' AND created_at > now() - interval '1 hour'
                 AND idempotency_key <> $3);

-- name: StartRegistration
INSERT INTO registrations (idempotency_key, organization_id, email, phone)
VALUES ($1, $2, $3, $4)
ON CONFLICT (idempotency_key) DO UPDATE SET updated_at = now()
RETURNING organization_id, user_id, lower(email) = lower($3), status;

-- name: SetRegistrationUser
UPDATE registrations SET user_id = $2, updated_at = now() WHERE idempotency_key = $1;

-- name: ClaimPhone
INSERT INTO user_phones (phone, user_id) VALUES ($1, $2)
ON CONFLICT (user_id) DO UPDATE SET phone = EXCLUDED.phone;

-- name: SaveVerificationFlow
INSERT INTO verification_flows (user_id, channel, flow_id, address, attempts, sent_at)
VALUES ($1, $2, $3, $4, 0, now())
ON CONFLICT (user_id, channel) DO UPDATE
SET flow_id = EXCLUDED.flow_id, address = EXCLUDED.address, attempts = 0, sent_at = now();

-- name: GetVerificationFlow
SELECT flow_id, address, attempts, sent_at FROM verification_flows WHERE user_id = $1 AND channel = $2;

-- name: CountAttempt
UPDATE verification_flows SET attempts = attempts + 1 WHERE user_id = $1 AND channel = $2
RETURNING attempts;

-- name: DeleteVerificationFlow
DELETE FROM verification_flows WHERE user_id = $1 AND channel = $2;

-- name: SaveEmailChange
INSERT INTO email_changes (user_id, new_email, old_email, old_verified, code_hash, attempts, sent_at)
VALUES ($1, $2, $3, $4, $5, 0, now())
ON CONFLICT (user_id) DO UPDATE
SET new_email = EXCLUDED.new_email, old_email = EXCLUDED.old_email, old_verified = EXCLUDED.old_verified,
    code_hash = EXCLUDED.code_hash, attempts = 0, sent_at = now();

-- name: ResendEmailChange
UPDATE email_changes SET code_hash = $2, attempts = 0, sent_at = now() WHERE user_id = $1
RETURNING new_email;

-- name: GetEmailChange
SELECT new_email, sent_at FROM email_changes WHERE user_id = $1;

-- name: TryEmailChange
UPDATE email_changes SET attempts = attempts + 1 WHERE user_id = $1
RETURNING new_email, old_email, old_verified, code_hash, attempts, sent_at;

-- name: DeleteEmailChange
DELETE FROM email_changes WHERE user_id = $1;
