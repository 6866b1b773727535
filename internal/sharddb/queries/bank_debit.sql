-- Off-site bank debits of the public form (api/donation bankdebit.go).

-- name: InsertBankDebit :exec
-- The donation's bank debit, written with it; a concurrent twin of the submission keeps the first.
INSERT INTO bank_debits (organization_id, donation_id, gateway, processor_id, method_id, bank_code, person_type, id_type, id_number)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (organization_id, donation_id) DO NOTHING;

-- name: SetBankDebitPayment :exec
-- The processor's payment once created: the address the donor approves it at.
UPDATE bank_debits SET payment_id = sqlc.arg(payment_id)::text, redirect_url = sqlc.arg(redirect_url)::text
WHERE organization_id = $1 AND donation_id = $2;

-- name: BankDebitOfDonation :one
SELECT bd.*, b.label AS bank_label
FROM bank_debits bd
JOIN organizations o ON o.organization_id = bd.organization_id
LEFT JOIN banks b ON b.country = o.country AND b.code = bd.bank_code
WHERE bd.organization_id = $1 AND bd.donation_id = $2;

-- name: BankDebitOfTransaction :one
-- The bank debit whose first transaction is id (a processor's order_id names it).
SELECT bd.donation_id, bd.processor_id
FROM transactions t
JOIN bank_debits bd ON bd.organization_id = t.organization_id AND bd.donation_id = t.donation_id
WHERE t.organization_id = $1 AND t.id = $2;
