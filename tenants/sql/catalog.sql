-- name: Constraints
-- Primary-key, unique and foreign-key constraints of the public schema with their column names.
SELECT c.conrelid::regclass::text AS table_name,
       c.conname,
       c.contype::text,
       ARRAY(SELECT a.attname::text FROM unnest(c.conkey) k
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k) AS columns,
       CASE WHEN c.contype = 'f' THEN c.confrelid::regclass::text END AS ref_table,
       ARRAY(SELECT a.attname::text FROM unnest(c.confkey) k
             JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k) AS ref_columns
FROM pg_constraint c
JOIN pg_namespace n ON n.oid = c.connamespace
WHERE n.nspname = 'public' AND c.contype IN ('p', 'u', 'f')
ORDER BY 1, 2;
