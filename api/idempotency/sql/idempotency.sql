-- name: Claim
-- Binds key $2 to the request hash $3, or takes over a claim older than the retention ($4); no row
-- when an earlier request holds the key.
INSERT INTO idempotency_keys (organization_id, key, request_hash) VALUES ($1, $2, $3)
ON CONFLICT (organization_id, key) DO UPDATE
    SET request_hash = EXCLUDED.request_hash, status = NULL, content_type = NULL, body = NULL, created_at = now()
    WHERE idempotency_keys.created_at < now() - $4 * interval '1 second'
RETURNING true;

-- name: Held
SELECT request_hash, status, coalesce(content_type, ''), coalesce(body, ''::bytea)
FROM idempotency_keys WHERE organization_id = $1 AND key = $2;

-- name: Complete
UPDATE idempotency_keys SET status = $4, content_type = $5, body = $6
WHERE organization_id = $1 AND key = $2 AND request_hash = $3;

-- name: Release
-- A request that failed keeps nothing: a retry runs again.
DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2 AND request_hash = $3 AND status IS NULL;

-- name: Purge
DELETE FROM idempotency_keys WHERE organization_id = $1 AND created_at < now() - $2 * interval '1 second';
