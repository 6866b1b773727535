-- CRM integrations (internal/crmsync, api/integration, workflows/crmsync).

-- name: CRMIntegrations :many
SELECT * FROM crm_integrations WHERE organization_id = $1 ORDER BY created_at, id;

-- name: CRMIntegration :one
SELECT * FROM crm_integrations WHERE organization_id = $1 AND id = $2;

-- name: CreateCRMIntegration :one
INSERT INTO crm_integrations (organization_id, id, name, login_url, client_id, client_secret, key_id, external_id_field,
    daily_call_limit, describes)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
RETURNING *;

-- name: UpdateCRMIntegration :one
-- A setup change; a new secret replaces the sealed one. Saving the setup clears an error the
-- organisation was asked to fix (needs_attention) unless it pauses the sync.
UPDATE crm_integrations
SET name = $3, login_url = $4, client_id = $5, client_secret = $6, key_id = $7, external_id_field = $8,
    daily_call_limit = $9, status = $10, describes = $11, last_error = CASE WHEN $10 = 'active' THEN NULL ELSE last_error END,
    parked_until = CASE WHEN $10 = 'active' THEN NULL ELSE parked_until END, updated_at = now()
WHERE organization_id = $1 AND id = $2
RETURNING *;

-- name: RewrapCRMIntegrationSecret :execrows
-- A key rotation: the same secret under the current key, only if no setup change replaced it meanwhile.
UPDATE crm_integrations SET client_secret = sqlc.arg(sealed), key_id = sqlc.arg(key_id)
WHERE organization_id = $1 AND id = $2 AND key_id = sqlc.arg(old_key_id);

-- name: SetCRMIntegrationDescribes :exec
UPDATE crm_integrations SET describes = $3 WHERE organization_id = $1 AND id = $2;

-- name: SetCRMIntegrationSyncState :exec
-- What the last drain learnt: the budget the CRM reported, when the queue may run again, an error
-- only the organisation can fix (which sets needs_attention). The budget is as of the now parameter
-- (Citus allows no now() in a CASE of an UPDATE).
UPDATE crm_integrations
SET usage_used = coalesce(sqlc.narg(usage_used), usage_used), usage_max = coalesce(sqlc.narg(usage_max), usage_max),
    usage_at = CASE WHEN sqlc.narg(usage_used)::integer IS NULL THEN usage_at ELSE sqlc.arg(now)::timestamptz END,
    parked_until = sqlc.narg(parked_until),
    status = CASE WHEN sqlc.narg(last_error)::text IS NOT NULL AND status = 'active' THEN 'needs_attention' ELSE status END,
    last_error = coalesce(sqlc.narg(last_error), CASE WHEN status = 'needs_attention' THEN last_error END)
WHERE organization_id = $1 AND id = $2;

-- name: CRMRules :many
SELECT * FROM crm_rules WHERE organization_id = $1 AND integration_id = $2 ORDER BY class_name, created_at, id;

-- name: CRMRule :one
SELECT * FROM crm_rules WHERE organization_id = $1 AND integration_id = $2 AND id = $3;

-- name: CreateCRMRule :one
INSERT INTO crm_rules (organization_id, integration_id, id, class_name, attribute, crm_object, field, sync_rule, value_map)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING *;

-- name: UpdateCRMRule :one
UPDATE crm_rules SET attribute = $4, crm_object = $5, field = $6, sync_rule = $7, value_map = $8
WHERE organization_id = $1 AND integration_id = $2 AND id = $3
RETURNING *;

-- name: DeleteCRMRule :execrows
DELETE FROM crm_rules WHERE organization_id = $1 AND integration_id = $2 AND id = $3;

-- name: EnqueueCRMChange :exec
-- A donor, donation or campaign changed: one pending change per integration of the organisation,
-- coalesced with one already pending for the record (migrations/shard/0570: delegated to the organisation's
-- worker on Citus, without the INSERT … SELECT it could not push down there).
SELECT crm_enqueue(sqlc.arg(organization_id), sqlc.arg(kind)::text, sqlc.arg(record_id)::uuid);

-- name: EnqueueCRMResync :one
-- Everything the organisation has, for one integration (a backfill): records already pending stay as they are.
WITH everything AS (
    SELECT 'campaign' AS kind, c.id FROM campaigns c WHERE c.organization_id = $1
    UNION ALL SELECT 'donor', d.id FROM donors d WHERE d.organization_id = $1
    UNION ALL SELECT 'donation', n.id FROM donations n WHERE n.organization_id = $1
), queued AS (
    INSERT INTO crm_changes (organization_id, integration_id, id, kind, record_id)
    SELECT $1, $2, gen_random_uuid(), e.kind, e.id FROM everything e
    ON CONFLICT (organization_id, integration_id, kind, record_id) WHERE status = 'pending' DO NOTHING
    RETURNING 1
)
SELECT (SELECT count(*) FROM everything)::integer AS total, (SELECT count(*) FROM queued)::integer AS queued;

-- name: StartCRMResync :exec
UPDATE crm_integrations SET resync_total = $3, resync_started_at = now() WHERE organization_id = $1 AND id = $2;

-- name: PendingCRMChanges :many
-- The next batch, oldest first.
SELECT * FROM crm_changes WHERE organization_id = $1 AND integration_id = $2 AND status = 'pending'
ORDER BY enqueued_at, id LIMIT $3;

-- name: CRMQueueCounts :one
SELECT count(*) FILTER (WHERE status = 'pending')::integer AS pending, count(*) FILTER (WHERE status = 'failed')::integer AS failed
FROM crm_changes WHERE organization_id = $1 AND integration_id = $2;

-- name: DeleteSentCRMChange :execrows
-- Sent: removed only at the version that was sent.
DELETE FROM crm_changes WHERE organization_id = $1 AND id = $2 AND version = $3 AND status = 'pending';

-- name: FailCRMChange :execrows
-- Refused by the CRM: kept with its error until retried, unless the record changed meanwhile (then it is sent again).
UPDATE crm_changes SET status = 'failed', error = $4, request_id = $5
WHERE organization_id = $1 AND id = $2 AND version = $3 AND status = 'pending';

-- name: RetryCRMChanges :one
-- Failed changes back in the queue (those of one request, or all): how many records went back. A record
-- pending again already needs no second row. Citus runs the two steps one after the other (it cannot
-- feed a DELETE's RETURNING to an INSERT): the failed rows are copied as pending, then those with a
-- pending row are deleted, so a change that fails in between stays failed rather than being lost.
WITH requeued AS (
    INSERT INTO crm_changes (organization_id, integration_id, id, kind, record_id)
    SELECT f.organization_id, f.integration_id, gen_random_uuid(), f.kind, f.record_id FROM crm_changes f
    WHERE f.organization_id = $1 AND f.integration_id = $2 AND f.status = 'failed'
      AND (sqlc.narg(request_id)::uuid IS NULL OR f.request_id = sqlc.narg(request_id))
    ON CONFLICT (organization_id, integration_id, kind, record_id) WHERE status = 'pending' DO NOTHING
    RETURNING 1
), retried AS (
    DELETE FROM crm_changes f
    WHERE f.organization_id = $1 AND f.integration_id = $2 AND f.status = 'failed'
      AND (sqlc.narg(request_id)::uuid IS NULL OR f.request_id = sqlc.narg(request_id))
      AND EXISTS (SELECT 1 FROM crm_changes p WHERE p.organization_id = $1 AND p.integration_id = $2
          AND p.kind = f.kind AND p.record_id = f.record_id AND p.status = 'pending')
    RETURNING 1
)
SELECT count(*) FROM requeued;

-- name: LogCRMRequest :exec
INSERT INTO crm_requests (organization_id, integration_id, id, at, object, operation, records, failed, status, outcome,
    error, usage_used, usage_max, duration_ms)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14);

-- name: CRMRequests :many
SELECT r.*, (SELECT count(*) FROM crm_changes c WHERE c.organization_id = $1 AND c.request_id = r.id
    AND c.status = 'failed')::integer AS retryable
FROM crm_requests r WHERE r.organization_id = $1 AND r.integration_id = $2
ORDER BY r.at DESC, r.id LIMIT $3 OFFSET $4;

-- name: CountCRMRequests :one
SELECT count(*)::integer FROM crm_requests WHERE organization_id = $1 AND integration_id = $2;

-- name: CRMCallsSince :one
-- Calls that count against a daily budget (the token and limits calls do not).
SELECT count(*)::integer FROM crm_requests
WHERE organization_id = $1 AND integration_id = $2 AND at > $3 AND operation NOT IN ('token', 'limits') AND status <> 0;

-- name: CRMDonors :many
SELECT id, email, first_name, last_name, uid_type, uid_number, phone, cellphone, street, city, state, country, created_at
FROM donors WHERE organization_id = $1 AND id = ANY(sqlc.arg(ids)::uuid[]);

-- name: CRMCampaigns :many
SELECT id, title, description, type, channel, currency, published, created_at
FROM campaigns WHERE organization_id = $1 AND id = ANY(sqlc.arg(ids)::uuid[]);

-- name: CRMDonations :many
-- Donations with what their charges add up to.
SELECT n.id, n.donor_id, n.campaign_id, n.amount_minor, n.currency, n.recurrence, n.collect_day, n.status, n.paused_reason,
    n.created_at, n.form_values, c.title AS campaign_title,
    (SELECT count(*) FROM transactions t WHERE t.organization_id = $1 AND t.donation_id = n.id AND t.status = 'approved')::integer AS charges_approved,
    (SELECT coalesce(sum(t.amount_minor), 0) FROM transactions t WHERE t.organization_id = $1 AND t.donation_id = n.id AND t.status = 'approved')::bigint AS collected_minor,
    coalesce(l.status, '')::text AS last_charge_status, l.charged_at AS last_charge_at
FROM donations n
JOIN campaigns c ON c.organization_id = n.organization_id AND c.id = n.campaign_id
LEFT JOIN LATERAL (
    SELECT t.status, t.charged_at FROM transactions t
    WHERE t.organization_id = $1 AND t.donation_id = n.id AND t.status <> 'planned'
    ORDER BY coalesce(t.charged_at, t.created_at) DESC LIMIT 1
) l ON true
WHERE n.organization_id = $1 AND n.id = ANY(sqlc.arg(ids)::uuid[]);
