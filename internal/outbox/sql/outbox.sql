-- name: InsertMessage
-- The first delivery is attempt 1; if it fails or its process dies, the sweep retries after $10.
INSERT INTO outbox_messages (recipient, message_type, subject, body, html, template_type, template_data, code, adapter,
                             attempts, next_attempt_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, now() + make_interval(secs => $10))
RETURNING id, created_at;

-- name: MarkDelivered
-- With $2 (production) the text, HTML and data are forgotten: the row keeps who, what kind and when.
UPDATE outbox_messages
SET delivered_at = now(), next_attempt_at = NULL, error = '',
    body = CASE WHEN $2 THEN '' ELSE body END,
    html = CASE WHEN $2 THEN '' ELSE html END,
    template_data = CASE WHEN $2 THEN '{}'::jsonb ELSE template_data END,
    code = CASE WHEN $2 THEN '' ELSE code END
WHERE id = $1;

-- name: MarkFailed
-- With $3 (production) a message given up (its last attempt failed) forgets its text as well.
UPDATE outbox_messages
SET error = $2,
    body = CASE WHEN $3 AND next_attempt_at IS NULL THEN '' ELSE body END,
    html = CASE WHEN $3 AND next_attempt_at IS NULL THEN '' ELSE html END
WHERE id = $1;

-- name: ClaimPending
-- Takes the next message due for a retry, among those recorded for this process's adapters ($2),
-- and pushes its next attempt back (2, 4, 8… minutes, at most an hour), which is also the lease: a
-- delivery times out long before another sweep may claim it. The last attempt leaves
-- next_attempt_at NULL: given up, kept with its error until purged.
UPDATE outbox_messages
SET attempts = attempts + 1,
    next_attempt_at = CASE WHEN attempts + 1 >= $1 THEN NULL
                           ELSE now() + make_interval(mins => least(60, 1 << (attempts + 1))) END
WHERE id = (SELECT id FROM outbox_messages
            WHERE delivered_at IS NULL AND next_attempt_at <= now() AND adapter = ANY($2)
            ORDER BY next_attempt_at
            LIMIT 1
            FOR UPDATE SKIP LOCKED)
RETURNING id, recipient, message_type, subject, body, html, template_type, template_data, code, adapter,
          delivered_at, error, created_at;

-- name: PurgeMessages
DELETE FROM outbox_messages WHERE created_at < $1;

-- name: PurgeKeys
DELETE FROM workflow_emails WHERE created_at < $1;

-- name: ListMessages
SELECT id, recipient, message_type, subject, body, html, template_type, template_data, code, adapter,
       delivered_at, error, created_at
FROM outbox_messages
WHERE ($1 = '' OR lower(recipient) = lower($1))
ORDER BY id DESC
LIMIT $2;
