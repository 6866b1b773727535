-- The outbox of every message Aporta sends (internal/outbox).

-- name: InsertOutboxMessage :one
-- The first delivery is attempt 1; if it fails or its process dies, the sweep retries after retry_seconds.
INSERT INTO outbox_messages (recipient, message_type, subject, body, html, template_type, template_data, code, adapter,
                             attempts, next_attempt_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, now() + make_interval(secs => sqlc.arg(retry_seconds)::float8))
RETURNING id, created_at;

-- name: MarkOutboxDelivered :exec
-- With redact (production) the text, HTML and data are forgotten: the row keeps who, what kind and when.
UPDATE outbox_messages
SET delivered_at = now(), next_attempt_at = NULL, error = '',
    body = CASE WHEN sqlc.arg(redact)::bool THEN '' ELSE body END,
    html = CASE WHEN sqlc.arg(redact)::bool THEN '' ELSE html END,
    template_data = CASE WHEN sqlc.arg(redact)::bool THEN '{}'::jsonb ELSE template_data END,
    code = CASE WHEN sqlc.arg(redact)::bool THEN '' ELSE code END
WHERE id = sqlc.arg(id);

-- name: MarkOutboxFailed :exec
-- With redact (production) a message given up (its last attempt failed) forgets its text as well.
UPDATE outbox_messages
SET error = sqlc.arg(error),
    body = CASE WHEN sqlc.arg(redact)::bool AND next_attempt_at IS NULL THEN '' ELSE body END,
    html = CASE WHEN sqlc.arg(redact)::bool AND next_attempt_at IS NULL THEN '' ELSE html END
WHERE id = sqlc.arg(id);

-- name: ClaimPendingOutbox :one
-- Takes the next message due for a retry, among those recorded for this process's adapters,
-- and pushes its next attempt back (2, 4, 8… minutes, at most an hour), which is also the lease: a
-- delivery times out long before another sweep may claim it. The last attempt leaves
-- next_attempt_at NULL: given up, kept with its error until purged.
UPDATE outbox_messages
SET attempts = attempts + 1,
    next_attempt_at = CASE WHEN attempts + 1 >= sqlc.arg(max_attempts)::int THEN NULL
                           ELSE now() + make_interval(mins => least(60, 1 << (attempts + 1))) END
WHERE id = (SELECT id FROM outbox_messages
            WHERE delivered_at IS NULL AND next_attempt_at <= now() AND adapter = ANY(sqlc.arg(adapters)::text[])
            ORDER BY next_attempt_at
            LIMIT 1
            FOR UPDATE SKIP LOCKED)
RETURNING *;

-- name: PurgeOutboxMessages :execrows
DELETE FROM outbox_messages WHERE created_at < $1;

-- name: PurgeWorkflowEmails :exec
DELETE FROM workflow_emails WHERE created_at < $1;

-- name: ListOutboxMessages :many
-- The newest messages first, for one recipient or (recipient '') for all.
SELECT * FROM outbox_messages
WHERE (sqlc.arg(recipient)::text = '' OR lower(recipient) = lower(sqlc.arg(recipient)::text))
ORDER BY id DESC
LIMIT sqlc.arg(max_rows);

-- name: RecordKeyedEmail :execrows
-- In the message's transaction: a second caller with the key waits on the primary key until the
-- first commits, then inserts nothing and rolls its message back.
INSERT INTO workflow_emails (key, outbox_id) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING;

-- name: ActiveAdministratorIDs :many
SELECT user_id FROM memberships
WHERE organization_id = $1 AND role = 'administrator' AND discarded_at IS NULL
ORDER BY created_at;
