-- name: Countries :many
-- The countries among codes (reference tables, whole on every shard), with their donor document types.
SELECT c.code, c.currency, c.timezone, c.phone_code,
       ARRAY(SELECT d.code FROM document_types d WHERE c.code = ANY (d.countries) ORDER BY d.code)::text[] AS document_types
FROM countries c WHERE c.code = ANY (sqlc.arg(codes)::text[]) ORDER BY c.code;

-- name: UIDOptions :many
-- The tax-id types organisations of these countries sign up with, in the order the form offers them.
SELECT country, uid_type, placeholder FROM uid_options
WHERE country = ANY (sqlc.arg(countries)::text[]) ORDER BY country, position;
