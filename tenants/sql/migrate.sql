-- name: CreateMigrationsTable
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     text PRIMARY KEY,
    applied_at  timestamptz NOT NULL DEFAULT now()
);

-- name: LockMigrations
SELECT pg_advisory_xact_lock(7419201);

-- name: MigrationApplied
SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1);

-- name: RecordMigration
INSERT INTO schema_migrations (version) VALUES ($1);

-- name: CitusAvailable
SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'citus');

-- name: TenantTables
-- Base tables of the public schema with an organization_id column: the ones Citus distributes.
SELECT c.relname
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r'
  AND EXISTS (SELECT 1 FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
ORDER BY c.relname;

-- name: ReferenceTables
SELECT c.relname
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'schema_migrations'
  AND NOT EXISTS (SELECT 1 FROM pg_attribute a
                  WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
ORDER BY c.relname;

-- name: DistributedTables
SELECT logicalrelid::regclass::text FROM pg_dist_partition;
