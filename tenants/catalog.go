package tenants

// The migration runner and the Citus checks read PostgreSQL's (and Citus's) own catalogs, on the
// directory and on every shard, before the schema they check exists: sqlc cannot type them, so
// their SQL stays here, in one place.
const (
	sqlCreateMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version     text PRIMARY KEY,
    applied_at  timestamptz NOT NULL DEFAULT now()
)`

	sqlLockMigrations = `SELECT pg_advisory_xact_lock(7419201)`

	sqlMigrationApplied = `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`

	sqlRecordMigration = `INSERT INTO schema_migrations (version) VALUES ($1)`

	sqlCitusAvailable = `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'citus')`

	// Base tables of the public schema with an organization_id column: the ones Citus distributes.
	sqlTenantTables = `SELECT c.relname
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r'
  AND EXISTS (SELECT 1 FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
ORDER BY c.relname`

	sqlReferenceTables = `SELECT c.relname
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'schema_migrations'
  AND NOT EXISTS (SELECT 1 FROM pg_attribute a
                  WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
ORDER BY c.relname`

	sqlDistributedTables = `SELECT logicalrelid::regclass::text FROM pg_dist_partition`

	// Primary-key, unique and foreign-key constraints of the public schema with their column names.
	sqlConstraints = `SELECT c.conrelid::regclass::text AS table_name,
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
ORDER BY 1, 2`

	sqlCreateCitus = `CREATE EXTENSION IF NOT EXISTS citus`

	sqlCreateReferenceTable = `SELECT create_reference_table($1)`

	sqlCreateDistributedTable = `SELECT create_distributed_table($1, 'organization_id', colocate_with => $2)`
)
