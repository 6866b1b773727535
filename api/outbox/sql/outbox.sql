-- name: InsertMessage
INSERT INTO outbox_messages (recipient, message_type, subject, body, template_type, template_data, code, adapter)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
RETURNING id, created_at;

-- name: MarkDelivered
UPDATE outbox_messages SET delivered_at = now(), error = '' WHERE id = $1;

-- name: MarkFailed
UPDATE outbox_messages SET error = $2 WHERE id = $1;

-- name: ListMessages
SELECT id, recipient, message_type, subject, body, template_type, template_data, code, adapter,
       delivered_at, error, created_at
FROM outbox_messages
WHERE ($1 = '' OR lower(recipient) = lower($1))
ORDER BY id DESC
LIMIT $2;
