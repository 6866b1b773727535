-- name: SettleTransaction
-- A charge's outcome on the row written before the charge: the donation form's first transaction
-- (by id), or a monthly period's attempt (by donation, period and attempt; the form's first
-- transaction of a monthly donation is its first period's first attempt).
UPDATE transactions
SET status = $6, status_detail = NULLIF($7, ''), gateway_payment_id = COALESCE(NULLIF($8, ''), gateway_payment_id),
    charged_at = COALESCE(charged_at, $9), updated_at = now()
WHERE organization_id = $1 AND donation_id = $3 AND (id = $2 OR (period = $4 AND attempt = $5))
RETURNING id;

-- name: InsertTransaction
-- A collection attempt's first outcome. One row per donation, period and attempt (a concurrent
-- retry updates it); the partial unique index transactions_one_approved_per_period refuses a
-- second approved row in a period.
INSERT INTO transactions (organization_id, id, donation_id, period, attempt, amount_minor, currency, status,
                          status_detail, gateway_payment_id, payment_method_id, charged_at)
VALUES ($1, $2, $3, $4, $5, $10, $11, $6, NULLIF($7, ''), NULLIF($8, ''), $12, $9)
ON CONFLICT (organization_id, donation_id, period, attempt) DO UPDATE
SET status = EXCLUDED.status,
    status_detail = EXCLUDED.status_detail,
    gateway_payment_id = COALESCE(EXCLUDED.gateway_payment_id, transactions.gateway_payment_id),
    charged_at = COALESCE(transactions.charged_at, EXCLUDED.charged_at),
    updated_at = now()
RETURNING id;

-- name: RecordCommission
-- The post-trial commission of one approved transaction, if its organisation owes one (idempotent).
SELECT record_transaction_commission($1, $2);
