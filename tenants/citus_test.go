package tenants_test

import (
	"context"
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// The live catalog of every migrated shard follows the Citus co-location rules.
func TestShardSchemasFollowCitusRules(t *testing.T) {
	t.Parallel()
	tt := tenantstest.Open(t)
	for _, country := range config.Countries {
		pool, err := tt.Shard(country)
		require.NoError(t, err)
		violations, err := tenants.CitusViolations(context.Background(), pool)
		require.NoError(t, err)
		require.Empty(t, violations, "shard %s", country)
	}
}

// The check catches each kind of break, inside a rolled-back transaction on the directory database
// (plain PostgreSQL even on a Citus stack, where a coordinator refuses most of these breaks outright).
func TestCitusViolationsCatchesBreaks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx, err := tenantstest.Open(t).Directory().Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()

	_, err = tx.Exec(ctx, `
		CREATE TABLE check_orgs (organization_id uuid PRIMARY KEY);
		CREATE TABLE check_donors (organization_id uuid NOT NULL, id uuid NOT NULL, PRIMARY KEY (organization_id, id));
		CREATE TABLE bad_pk (organization_id uuid NOT NULL, id uuid PRIMARY KEY);
		CREATE TABLE bad_unique (organization_id uuid NOT NULL, id uuid NOT NULL, email text UNIQUE,
		                         PRIMARY KEY (organization_id, id));
		CREATE TABLE bad_fk (organization_id uuid NOT NULL, id uuid NOT NULL, donor_id uuid NOT NULL,
		                     PRIMARY KEY (organization_id, id));
		CREATE UNIQUE INDEX ON check_donors (id);
		ALTER TABLE bad_fk ADD CONSTRAINT bad_fk_donor FOREIGN KEY (donor_id) REFERENCES check_donors (id);
		CREATE TABLE no_pk (organization_id uuid NOT NULL);
		CREATE TABLE bad_reference (code text PRIMARY KEY, org uuid REFERENCES check_orgs (organization_id));
		CREATE FUNCTION bad_trigger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
		CREATE TRIGGER counts AFTER INSERT ON no_pk FOR EACH STATEMENT EXECUTE FUNCTION bad_trigger();`)
	require.NoError(t, err)

	violations, err := tenants.CitusViolations(ctx, tx)
	require.NoError(t, err)
	var ours []string
	for _, v := range violations {
		if strings.Contains(v, "bad_") || strings.Contains(v, "no_pk") || strings.Contains(v, "check_") {
			ours = append(ours, v)
		}
	}
	require.ElementsMatch(t, []string{
		"bad_pk: constraint bad_pk_pkey lacks organization_id",
		"bad_unique: constraint bad_unique_email_key lacks organization_id",
		"bad_fk: foreign key bad_fk_donor must join on organization_id",
		"no_pk: no primary key",
		"reference table bad_reference: foreign key bad_reference_org_fkey points at tenant table check_orgs",
		"no_pk: trigger counts",
	}, ours)
}

// On a Citus stack, Citus's own catalog says what migrate made of every shard's tables: each tenant table
// hash-distributed by organization_id in the co-location group of organizations, every other table (but
// the migrations' ledger, a coordinator-local table) a reference table, and the group's shards spread
// over at least two workers.
func TestShardTablesAreDistributedOnCitus(t *testing.T) {
	tenantstest.Citus(t)
	t.Parallel()
	ctx := context.Background()
	tt := tenantstest.Open(t)
	for _, country := range config.Countries {
		pool, err := tt.Shard(country)
		require.NoError(t, err)
		rows, err := pool.Query(ctx, `
			SELECT c.relname::text,
			       EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped),
			       coalesce(p.partmethod::text, ''), coalesce(column_to_column_name(p.logicalrelid, p.partkey), ''),
			       coalesce(p.colocationid, 0),
			       coalesce((SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'organizations'::regclass), -1)
			FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
			WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'schema_migrations'`)
		require.NoError(t, err)
		type table struct {
			Name, Method, Column string
			Tenant               bool
			Group, OrgGroup      int
		}
		tables, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (table, error) {
			var x table
			return x, r.Scan(&x.Name, &x.Tenant, &x.Method, &x.Column, &x.Group, &x.OrgGroup)
		})
		require.NoError(t, err)
		require.Greater(t, len(tables), 20, country)
		for _, x := range tables {
			if x.Tenant {
				require.Equal(t, []any{"h", "organization_id", x.OrgGroup}, []any{x.Method, x.Column, x.Group}, "%s %s", country, x.Name)
			} else {
				require.Equal(t, "n", x.Method, "%s %s is a reference table", country, x.Name)
			}
		}
		var distType string
		var shards, workers int
		require.NoError(t, pool.QueryRow(ctx, `
			SELECT format_type(g.distributioncolumntype, NULL), g.shardcount,
			       (SELECT count(DISTINCT pl.groupid) FROM pg_dist_shard s JOIN pg_dist_placement pl ON pl.shardid = s.shardid
			        WHERE s.logicalrelid = 'organizations'::regclass)
			FROM pg_dist_colocation g
			WHERE g.colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'organizations'::regclass)`).
			Scan(&distType, &shards, &workers))
		require.Equal(t, "uuid", distType, country)
		require.Positive(t, shards, country)
		require.GreaterOrEqual(t, workers, 2, "%s: organizations' shards lie on at least two workers", country)
	}
}

// No node of the stack's clusters commits asynchronously, which Migrate refuses; a node where this user's
// sessions would is named. A role of the test's own gets synchronous_commit = off on one worker only, so no
// other session's setting changes.
func TestCitusAsyncCommitNodes(t *testing.T) {
	tenantstest.Citus(t)
	t.Parallel()
	ctx := context.Background()
	tt := tenantstest.Open(t)
	for _, country := range config.Countries {
		pool, err := tt.Shard(country)
		require.NoError(t, err)
		async, err := tenants.CitusAsyncCommitNodes(ctx, pool)
		require.NoError(t, err)
		require.Empty(t, async, country)
	}

	dsn, err := url.Parse(tenantstest.Config(t).ShardDSNs["UY"])
	require.NoError(t, err)
	connect := func(host, user string) *pgx.Conn {
		u := *dsn
		u.Host, u.User = host, url.User(user)
		conn, err := pgx.Connect(ctx, u.String())
		require.NoError(t, err)
		t.Cleanup(func() { _ = conn.Close(context.Background()) })
		return conn
	}
	admin := connect(dsn.Host, "postgres")
	role := "async_check_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:12]
	_, err = admin.Exec(ctx, "CREATE ROLE "+role+" LOGIN") // Citus creates it on every node
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = admin.Exec(context.Background(), "DROP ROLE "+role) }) // after the role's connection closes
	var host string
	var port int
	require.NoError(t, admin.QueryRow(ctx, `SELECT nodename, nodeport FROM pg_dist_node WHERE groupid <> 0 ORDER BY nodeid LIMIT 1`).
		Scan(&host, &port))
	worker := net.JoinHostPort(host, strconv.Itoa(port))
	// On that worker alone: Citus would carry the ALTER ROLE to every node.
	_, err = connect(worker, "postgres").Exec(ctx, "SET citus.enable_ddl_propagation = off; ALTER ROLE "+role+" SET synchronous_commit = off")
	require.NoError(t, err)

	async, err := tenants.CitusAsyncCommitNodes(ctx, connect(dsn.Host, role))
	require.NoError(t, err)
	require.Equal(t, []string{worker}, async)
}
