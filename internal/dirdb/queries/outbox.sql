-- The outbox of every message Aporta sends (internal/outbox).

-- name: InsertOutboxMessage :one
-- The first delivery is attempt 1; if it fails or its process dies, the sweep retries after retry_seconds. With a
-- key, once: the key and the message are written by this one statement, so together or not at all, and a second
-- caller with the key waits on the key's primary key until the first commits, then writes nothing (no row).
WITH keyed AS (
    INSERT INTO workflow_emails (key, outbox_id)
    SELECT sqlc.narg(key)::text, nextval(pg_get_serial_sequence('outbox_messages', 'id'))
    WHERE sqlc.narg(key)::text IS NOT NULL
    ON CONFLICT (key) DO NOTHING
    RETURNING outbox_id
)
INSERT INTO outbox_messages (id, recipient, message_type, subject, body, html, template_type, template_data, code, adapter,
                             attempts, next_attempt_at)
SELECT COALESCE((SELECT outbox_id FROM keyed), nextval(pg_get_serial_sequence('outbox_messages', 'id'))),
       sqlc.arg(recipient), sqlc.arg(message_type), sqlc.arg(subject), sqlc.arg(body), sqlc.arg(html),
       sqlc.arg(template_type), sqlc.arg(template_data), sqlc.arg(code), sqlc.arg(adapter), 1,
       now() + make_interval(secs => sqlc.arg(retry_seconds)::float8)
WHERE sqlc.narg(key)::text IS NULL OR EXISTS (SELECT 1 FROM keyed)
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

-- name: ActiveAdministratorIDs :many
SELECT user_id FROM memberships
WHERE organization_id = $1 AND role = 'administrator' AND discarded_at IS NULL
ORDER BY created_at;
