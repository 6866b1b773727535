-- name: Countries :many
-- The countries among codes (reference tables, whole on every shard), with their donor document types.
SELECT c.code, c.currency, c.timezone, c.phone_code, c.payment_modes,
       ARRAY(SELECT d.code FROM document_types d WHERE c.code = ANY (d.countries) ORDER BY d.code)::text[] AS document_types
FROM countries c WHERE c.code = ANY (sqlc.arg(codes)::text[]) ORDER BY c.code;

-- name: UIDOptions :many
-- The tax-id types organisations of these countries sign up with, in the order the form offers them.
SELECT country, uid_type, placeholder FROM uid_options
WHERE country = ANY (sqlc.arg(countries)::text[]) ORDER BY country, position;

-- name: CountryPlans :many
-- Every plan with its price in each of these countries, in the order a plan list shows them.
SELECT pp.country, p.code, p.tier_name, p.period, p.usd_price::text AS usd_price,
       pp.localize_price_minor, c.currency
FROM plan_prices pp
JOIN plans p ON p.code = pp.plan_code
JOIN countries c ON c.code = pp.country
WHERE pp.country = ANY (sqlc.arg(countries)::text[])
ORDER BY pp.country, p.position, p.period;

-- name: PhoneCodes :many
-- The phone codes a phone input offers, in the order it lists them.
SELECT iso, name, phone_code FROM phone_codes ORDER BY position;

-- name: OrganizationCategories :many
-- The categories (themes) an organisation may describe its work with, in the order they are offered.
SELECT code FROM organization_categories ORDER BY position;
