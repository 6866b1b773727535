-- name: RecordCharge :one
-- A charge's outcome with everything it writes, in one statement that Citus runs whole on the organisation's worker
-- (migrations/shard/0590, 0650): sent alone, it is its own transaction. It answers an object: the transaction recorded
-- ('id'; another id than the one given means nothing was written: the donation's period attempt is that transaction,
-- to record under its id) and the receipt this call issued ('receipt', receipt_prepare's object with its number; null:
-- none). The nullable arguments write nothing when null.
SELECT charge_record(sqlc.arg(organization_id)::uuid, sqlc.arg(id)::uuid, sqlc.arg(donation_id)::uuid, sqlc.narg(period)::text,
    sqlc.arg(attempt)::smallint, sqlc.arg(amount_minor)::bigint, sqlc.arg(currency)::text, sqlc.narg(payment_method_id)::uuid,
    sqlc.arg(status)::text, sqlc.arg(status_detail)::text, sqlc.arg(gateway_payment_id)::text, sqlc.arg(charged_at)::timestamptz,
    sqlc.narg(event_id)::uuid, sqlc.narg(event_type)::text, sqlc.narg(event_body)::jsonb,
    sqlc.narg(donation_status)::text, sqlc.narg(next_charge_date)::date,
    sqlc.narg(processor_id)::uuid, sqlc.narg(processor_family)::text, sqlc.narg(fee_bps)::integer, sqlc.narg(fee_minor)::bigint,
    sqlc.narg(statement_descriptor)::text, sqlc.narg(annul_at)::timestamptz)::jsonb AS recorded;

-- name: TransactionByGatewayPayment :one
-- The transaction a gateway payment settled: a notification names only the payment.
SELECT id, donation_id, period, attempt, amount_minor, currency, status FROM transactions
WHERE organization_id = $1 AND gateway_payment_id = sqlc.arg(gateway_payment_id)::text
ORDER BY updated_at DESC
LIMIT 1;
