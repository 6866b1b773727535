-- The dollar MEP rate of the ARS note (internal/mep): the provider's cached quotes and the staff
-- overrides.

-- name: CurrentExchangeRate :one
-- The rate in force: the latest day's, a staff override first on its day, then the newest.
SELECT * FROM exchange_rates WHERE currency = $1
ORDER BY as_of DESC, (staff_user_id IS NOT NULL) DESC, created_at DESC, id DESC
LIMIT 1;

-- name: LatestProviderRate :one
-- The provider's newest quote, to tell whether the cache is fresh.
SELECT * FROM exchange_rates WHERE currency = $1 AND staff_user_id IS NULL
ORDER BY created_at DESC, id DESC
LIMIT 1;

-- name: InsertExchangeRate :one
INSERT INTO exchange_rates (currency, rate_minor, source, as_of, staff_user_id, staff_email, reason)
VALUES ($1, $2, $3, $4, sqlc.narg(staff_user_id), sqlc.narg(staff_email), sqlc.narg(reason))
RETURNING *;

-- name: ExchangeRateHistory :many
-- The newest rows first, for the staff console.
SELECT * FROM exchange_rates WHERE currency = $1
ORDER BY created_at DESC, id DESC
LIMIT $2;
