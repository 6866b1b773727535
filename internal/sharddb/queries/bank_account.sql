-- Organisations' payout bank accounts (internal/bankaccounts) and the bank reference data their
-- form offers (internal/reference).

-- name: BankCountries :many
-- Each country's bank form: the extra fields it asks for and its default account types.
SELECT country, required_fields, account_types FROM bank_countries
WHERE country = ANY (sqlc.arg(countries)::text[]) ORDER BY country;

-- name: Banks :many
-- The banks of these countries, by label; account_types NULL: the country's.
SELECT country, code, label, account_types FROM banks
WHERE country = ANY (sqlc.arg(countries)::text[]) ORDER BY country, label, code;

-- name: BankAccounts :many
-- The organisation's accounts, the primary (active) one first.
SELECT * FROM bank_accounts WHERE organization_id = $1 ORDER BY is_primary DESC, created_at, id;

-- name: BankAccount :one
SELECT * FROM bank_accounts WHERE organization_id = $1 AND id = $2;

-- name: DemoteBankAccounts :exec
-- Before another account becomes the primary one.
UPDATE bank_accounts SET is_primary = false, updated_at = now()
WHERE organization_id = $1 AND is_primary AND id <> sqlc.arg(keep)::uuid;

-- name: InsertBankAccount :one
INSERT INTO bank_accounts (organization_id, id, country, bank_code, bank_name, account_number, key_id,
    account_last4, account_type, currency, bank_address, bank_city, bank_branch, contact_first_name,
    contact_last_name, contact_email, contact_phone, is_primary)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
RETURNING *;

-- name: UpdateBankAccount :one
UPDATE bank_accounts
SET bank_code = $3, bank_name = $4, account_number = $5, key_id = $6, account_last4 = $7, account_type = $8,
    bank_address = $9, bank_city = $10, bank_branch = $11, contact_first_name = $12, contact_last_name = $13,
    contact_email = $14, contact_phone = $15, is_primary = $16, updated_at = now()
WHERE organization_id = $1 AND id = $2
RETURNING *;

-- name: RewrapBankAccountNumber :execrows
-- A key rotation: the same number under the current key, only if no one changed it meanwhile.
UPDATE bank_accounts SET account_number = sqlc.arg(sealed), key_id = sqlc.arg(key_id)
WHERE organization_id = $1 AND id = $2 AND key_id = sqlc.arg(old_key_id);
