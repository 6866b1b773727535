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

	// Base tables of the public schema with an organization_id column: the ones Citus distributes.
	sqlTenantTables = `SELECT c.relname
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r'
  AND EXISTS (SELECT 1 FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
ORDER BY c.relname`

	// User triggers on tables of the public schema, as violations.
	sqlTriggers = `SELECT format('%s: trigger %s', t.tgrelid::regclass, t.tgname)
FROM pg_trigger t
JOIN pg_class c ON c.oid = t.tgrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND NOT t.tgisinternal
ORDER BY 1`

	// The stack creates the extension in the country databases of a Citus cluster, as a superuser.
	sqlCitusInstalled = `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')`

	sqlAnyDistributed = `SELECT EXISTS (SELECT 1 FROM pg_dist_partition)`

	// What synchronous_commit a new session of this user in this database gets on every node of the
	// cluster (the coordinator included), by each node's address.
	sqlNodesSynchronousCommit = `SELECT format('%s:%s', n.nodename, n.nodeport), r.success, r.result
FROM run_command_on_all_nodes('SHOW synchronous_commit') r
JOIN pg_dist_node n USING (nodeid)
ORDER BY n.nodeid`

	sqlSequentialShardCommands = `SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`

	// Base tables of the public schema that Citus does not know yet, and whether each is a tenant table
	// (has organization_id). schema_migrations stays a local table of the coordinator.
	sqlUndistributedTables = `SELECT c.relname::text,
       EXISTS (SELECT 1 FROM pg_attribute a
               WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'schema_migrations'
  AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid)
ORDER BY c.relname`

	// Foreign keys from or to the named tables of the public schema, with their definitions.
	sqlForeignKeysTouching = `SELECT c.conrelid::regclass::text, c.conname::text, pg_get_constraintdef(c.oid)
FROM pg_constraint c
JOIN pg_namespace n ON n.oid = c.connamespace
WHERE n.nspname = 'public' AND c.contype = 'f'
  AND (c.conrelid::regclass::text = ANY($1::text[]) OR c.confrelid::regclass::text = ANY($1::text[]))
ORDER BY 1, 2`

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

	sqlCreateReferenceTable = `SELECT create_reference_table($1)`

	sqlCreateDistributedTable = `SELECT create_distributed_table($1, 'organization_id', colocate_with => $2)`

	// Of the functions named (regprocedure text), those that exist and are not distributed by an argument yet or
	// do not plan for every call's values, and whether they are distributed.
	sqlUndelegatedFunctions = `SELECT f, d.distributed FROM unnest($1::text[]) f
CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM pg_dist_object o
                                   WHERE o.classid = 'pg_proc'::regclass AND o.objid = to_regprocedure(f)
                                     AND o.force_delegation) AS distributed) d
WHERE to_regprocedure(f) IS NOT NULL
  AND (NOT d.distributed OR NOT EXISTS (SELECT 1 FROM pg_proc p WHERE p.oid = to_regprocedure(f)
                                        AND 'plan_cache_mode=force_custom_plan' = ANY (p.proconfig)))`

	// Makes the function (a regprocedure) plan its statements for every call's values (delegateFunctions).
	sqlCustomPlans = `ALTER FUNCTION %s SET plan_cache_mode = force_custom_plan`

	sqlDelegateFunction = `SELECT create_distributed_function($1, 'org', colocate_with => 'organizations', force_delegation => true)`
)
