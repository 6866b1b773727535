-- name: SettleChargedTransaction :one
-- A charge's outcome on the row written before the charge: the donation form's first transaction
-- (by id), or a monthly period's attempt (by donation, period and attempt; the form's first
-- transaction of a monthly donation is its first period's first attempt).
UPDATE transactions
SET status = sqlc.arg(status), status_detail = NULLIF(sqlc.arg(status_detail)::text, ''),
    gateway_payment_id = COALESCE(NULLIF(sqlc.arg(gateway_payment_id)::text, ''), gateway_payment_id),
    charged_at = COALESCE(charged_at, sqlc.arg(charged_at)::timestamptz), updated_at = now()
WHERE organization_id = sqlc.arg(organization_id) AND donation_id = sqlc.arg(donation_id)
  AND (id = sqlc.arg(id) OR (period = sqlc.narg(period) AND attempt = sqlc.arg(attempt)))
RETURNING id;

-- name: InsertChargedTransaction :one
-- A collection attempt's first outcome. One row per donation, period and attempt (a concurrent
-- retry updates it); the partial unique index transactions_one_approved_per_period refuses a
-- second approved row in a period. EXCLUDED.updated_at is the column default: Citus allows only
-- immutable functions in DO UPDATE.
INSERT INTO transactions (organization_id, id, donation_id, period, attempt, amount_minor, currency, status,
                          status_detail, gateway_payment_id, payment_method_id, charged_at)
VALUES (sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(donation_id), sqlc.narg(period), sqlc.arg(attempt),
        sqlc.arg(amount_minor), sqlc.arg(currency), sqlc.arg(status), NULLIF(sqlc.arg(status_detail)::text, ''),
        NULLIF(sqlc.arg(gateway_payment_id)::text, ''), sqlc.narg(payment_method_id), sqlc.arg(charged_at)::timestamptz)
ON CONFLICT (organization_id, donation_id, period, attempt) DO UPDATE
SET status = EXCLUDED.status,
    status_detail = EXCLUDED.status_detail,
    gateway_payment_id = COALESCE(EXCLUDED.gateway_payment_id, transactions.gateway_payment_id),
    charged_at = COALESCE(transactions.charged_at, EXCLUDED.charged_at),
    updated_at = EXCLUDED.updated_at
RETURNING id;

-- name: TransactionByGatewayPayment :one
-- The transaction a gateway payment settled: a notification names only the payment.
SELECT id, donation_id, period, attempt, amount_minor, currency, status FROM transactions
WHERE organization_id = $1 AND gateway_payment_id = sqlc.arg(gateway_payment_id)::text
ORDER BY updated_at DESC
LIMIT 1;
