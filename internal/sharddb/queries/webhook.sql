-- Webhooks (internal/webhook, api/webhook, workflows/webhooks).

-- name: WebhookEndpoints :many
SELECT * FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at, id;

-- name: WebhookEndpoint :one
SELECT * FROM webhook_endpoints WHERE organization_id = $1 AND id = $2;

-- name: CreateWebhookEndpoint :one
INSERT INTO webhook_endpoints (organization_id, id, url, description, events, secret, key_id)
VALUES ($1, $2, $3, $4, $5, $6, $7)
RETURNING *;

-- name: UpdateWebhookEndpoint :one
-- Enabling an endpoint again forgets when it was disabled.
UPDATE webhook_endpoints
SET url = $3, description = $4, events = $5, status = $6,
    disabled_at = CASE WHEN $6 = 'active' THEN NULL ELSE disabled_at END, updated_at = now()
WHERE organization_id = $1 AND id = $2
RETURNING *;

-- name: SetWebhookEndpointSecret :one
UPDATE webhook_endpoints SET secret = sqlc.arg(sealed), key_id = sqlc.arg(key_id), updated_at = now()
WHERE organization_id = $1 AND id = $2
RETURNING *;

-- name: RewrapWebhookEndpointSecret :execrows
-- A key rotation: the same secret under the current key, only if no new secret replaced it meanwhile.
UPDATE webhook_endpoints SET secret = sqlc.arg(sealed), key_id = sqlc.arg(key_id)
WHERE organization_id = $1 AND id = $2 AND key_id = sqlc.arg(old_key_id);

-- name: DeleteWebhookEndpoint :execrows
DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2;

-- name: EnqueueWebhookEvent :exec
-- An event happened: one delivery per active endpoint of the organisation that takes its type, once
-- per event (a retried writer enqueues nothing twice). Delegated on Citus (migrations/shard/0570).
SELECT webhook_enqueue(sqlc.arg(organization_id), sqlc.arg(event_id)::uuid, sqlc.arg(event_type)::text, sqlc.arg(body)::jsonb);

-- name: ResendWebhookDelivery :one
-- A copy of a delivery, same event and body, delivered anew. (In a CTE: Citus cannot plan the bare
-- INSERT … SELECT … RETURNING with a parameter in its select list as a prepared statement.)
WITH resent AS (
    INSERT INTO webhook_deliveries (organization_id, endpoint_id, id, event_id, event_type, body, resent_from)
    SELECT d.organization_id, d.endpoint_id, sqlc.arg(new_id)::uuid, d.event_id, d.event_type, d.body, d.id
    FROM webhook_deliveries d
    WHERE d.organization_id = $1 AND d.endpoint_id = $2 AND d.id = sqlc.arg(id)::uuid
    RETURNING *
)
SELECT * FROM resent;

-- name: UndispatchedWebhookDeliveries :many
SELECT id FROM webhook_deliveries
WHERE organization_id = $1 AND endpoint_id = $2 AND dispatched_at IS NULL
ORDER BY created_at, id LIMIT $3;

-- name: MarkWebhookDeliveryDispatched :exec
UPDATE webhook_deliveries SET dispatched_at = now() WHERE organization_id = $1 AND id = $2 AND dispatched_at IS NULL;

-- name: WebhookDelivery :one
SELECT * FROM webhook_deliveries WHERE organization_id = $1 AND id = $2;

-- name: RecordWebhookAttempt :exec
-- One attempt's outcome, the delivery log's line.
UPDATE webhook_deliveries
SET status = $3, attempts = attempts + 1, last_attempt_at = sqlc.arg(at)::timestamptz, last_status_code = sqlc.narg(status_code)::integer,
    last_duration_ms = sqlc.arg(duration_ms)::integer, last_error = sqlc.narg(error)::text
WHERE organization_id = $1 AND id = $2;

-- name: MarkWebhookEndpointSucceeded :exec
UPDATE webhook_endpoints SET last_success_at = GREATEST(last_success_at, sqlc.arg(at)::timestamptz)
WHERE organization_id = $1 AND id = $2;

-- name: GiveUpWebhookDelivery :exec
UPDATE webhook_deliveries SET status = 'failed', last_error = COALESCE(sqlc.narg(error), last_error)
WHERE organization_id = $1 AND id = $2 AND status = 'pending';

-- name: DisableFailingWebhookEndpoint :execrows
-- Disables an endpoint that answered no delivery since failing_since (the first attempt of one it
-- gave up on): it kept failing for the whole retry window.
UPDATE webhook_endpoints SET status = 'disabled', disabled_at = now(), updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status = 'active'
    AND (last_success_at IS NULL OR last_success_at < sqlc.arg(failing_since)::timestamptz);

-- name: WebhookDeliveries :many
SELECT * FROM webhook_deliveries WHERE organization_id = $1 AND endpoint_id = $2
ORDER BY created_at DESC, id LIMIT $3 OFFSET $4;

-- name: CountWebhookDeliveries :one
SELECT count(*)::integer FROM webhook_deliveries WHERE organization_id = $1 AND endpoint_id = $2;
