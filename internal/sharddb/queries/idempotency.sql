-- Idempotency keys (api/idempotency). The directory has the same idempotency_keys table for public
-- requests, so these queries also run there (sharddb.Store on the directory pool).

-- name: ClaimIdempotencyKey :one
-- Binds the key to the request hash, or takes over a claim older than the retention; no row when
-- an earlier request holds the key. The time is EXCLUDED.created_at, the column default: Citus allows
-- only immutable functions in DO UPDATE (timestamptz - interval is not; timestamptz - timestamptz is).
INSERT INTO idempotency_keys (organization_id, key, request_hash) VALUES ($1, $2, $3)
ON CONFLICT (organization_id, key) DO UPDATE
    SET request_hash = EXCLUDED.request_hash, status = NULL, content_type = NULL, body = NULL, created_at = EXCLUDED.created_at
    WHERE EXCLUDED.created_at - idempotency_keys.created_at > make_interval(secs => sqlc.arg(retention_seconds)::float8)
RETURNING true;

-- name: HeldIdempotencyKey :one
SELECT * FROM idempotency_keys WHERE organization_id = $1 AND key = $2;

-- name: CompleteIdempotencyKey :exec
UPDATE idempotency_keys SET status = $4, content_type = $5, body = $6
WHERE organization_id = $1 AND key = $2 AND request_hash = $3;

-- name: ReleaseIdempotencyKey :exec
-- A request that failed keeps nothing: a retry runs again.
DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2 AND request_hash = $3 AND status IS NULL;

-- name: PurgeIdempotencyKeys :exec
DELETE FROM idempotency_keys
WHERE organization_id = $1 AND created_at < now() - make_interval(secs => sqlc.arg(retention_seconds)::float8);
