-- Organisations' gateway connections and their OAuth states (internal/connections).

-- name: GatewayConnections :many
SELECT * FROM gateway_connections WHERE organization_id = $1 ORDER BY gateway;

-- name: GatewayConnection :one
-- One connection: by id, or by gateway, or with neither the organisation's active connection
-- activated last (the one its forms charge through).
SELECT * FROM gateway_connections
WHERE organization_id = sqlc.arg(organization_id)
    AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id))
    AND (sqlc.narg(gateway)::text IS NULL OR gateway = sqlc.narg(gateway))
ORDER BY status = 'active' DESC, activated_at DESC
LIMIT 1;

-- name: UpsertGatewayConnection :one
-- Connecting again replaces the credentials in place: same id, next version, active again. Times are
-- EXCLUDED's column defaults: Citus allows only immutable functions in DO UPDATE.
INSERT INTO gateway_connections (organization_id, id, gateway, status, account_id, account_name, site, live_mode,
    public_key, secret, key_id, expires_at)
VALUES ($1, $2, $3, 'active', $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (organization_id, gateway) DO UPDATE
    SET status = 'active', account_id = EXCLUDED.account_id, account_name = EXCLUDED.account_name,
        site = EXCLUDED.site, live_mode = EXCLUDED.live_mode, public_key = EXCLUDED.public_key,
        secret = EXCLUDED.secret, key_id = EXCLUDED.key_id, expires_at = EXCLUDED.expires_at,
        version = gateway_connections.version + 1, activated_at = EXCLUDED.activated_at, refreshed_at = NULL,
        status_changed_at = EXCLUDED.status_changed_at
RETURNING *;

-- name: RefreshGatewayConnection :one
-- Stores refreshed credentials, only on the version they were refreshed from (a reconnection in
-- between wins).
UPDATE gateway_connections
SET secret = $4, key_id = $5, expires_at = $6, public_key = $7, status = 'active', version = version + 1,
    refreshed_at = now()
WHERE organization_id = $1 AND id = $2 AND version = $3
RETURNING *;

-- name: MarkGatewayConnectionNeedsReconnection :one
UPDATE gateway_connections SET status = 'needs_reconnection', version = version + 1, status_changed_at = now()
WHERE organization_id = $1 AND id = $2 AND version = $3 AND status = 'active'
RETURNING *;

-- name: DeleteGatewayConnection :one
DELETE FROM gateway_connections WHERE organization_id = $1 AND id = $2 RETURNING *;

-- name: GatewayConnectionsWithKey :many
-- Connections whose secret another key than the current one wraps (a key rotation's work list).
SELECT organization_id, id, version, secret, key_id FROM gateway_connections
WHERE organization_id = $1 AND key_id <> sqlc.arg(current_key_id)::text;

-- name: RewrapGatewayConnection :execrows
UPDATE gateway_connections SET secret = $4, key_id = $5
WHERE organization_id = $1 AND id = $2 AND version = $3;

-- name: InsertGatewayOAuthState :exec
INSERT INTO gateway_oauth_states (organization_id, state_hash, gateway, identity_id, verifier, key_id, return_to)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: UseGatewayOAuthState :one
-- Takes the state once: unknown, used, older than 10 minutes or started by someone else → no row.
UPDATE gateway_oauth_states SET used_at = now()
WHERE organization_id = $1 AND state_hash = $2 AND gateway = $3 AND identity_id = $4 AND used_at IS NULL
    AND created_at > now() - interval '10 minutes'
RETURNING *;

-- name: PurgeGatewayOAuthStates :exec
DELETE FROM gateway_oauth_states WHERE organization_id = $1 AND created_at < now() - interval '1 day';
