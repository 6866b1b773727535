package sharddb_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/tenants/tenantstest"
)

// crossTenant are the queries that span organisations on purpose, each with why. Every other query
// must run on one shard.
var crossTenant = map[string]string{
	"DeleteOldLeads":      "the retention sweep deletes every organisation's old leads",
	"OpenFirstCharges":    "the first-charge sweep lists every organisation's donations left open (its organisation filter is a test's)",
	"PayoutOrganizations": "the payouts sweep lists the organisations that have processors",
}

// pulledThrough are the queries whose INSERT … SELECT Citus pulls through the coordinator, each with why. Any
// other must be pushed down to the shard: a pulled one is a subplan of its own, and a transaction that holds one
// commits in two phases (PREPARE, COMMIT PREPARED) while it holds its rows (issue 19).
var pulledThrough = map[string]string{
	"AddProcessorCampaigns":   "an admin sets a processor's campaigns, rarely",
	"CreateCampaign":          "an admin creates a campaign, rarely",
	"CreateShardOrganization": "an organisation's registration, once",
	"EnqueueCRMResync":        "an integration's backfill, on request",
	"ResendWebhookDelivery":   "an admin resends one delivery",
	"RetryCRMChanges":         "an admin retries an integration's failed changes",
	"SeedVisits":              "the dev seed",
}

// A cursor's query is planned without its DECLARE.
var declareCursor = regexp.MustCompile(`(?is)DECLARE\s+\w+\s+(NO\s+)?(SCROLL\s+)?CURSOR\s+(WITH(OUT)?\s+HOLD\s+)?FOR\s+`)

// TestQueriesRunOnOneShard plans every generated shard query on the Citus coordinator, with each uuid
// parameter set to one organisation's id (and the other parameters NULL), and fails on a plan that
// reaches more than one shard: every query on tenant data names its organisation, and Citus routes it
// to the shard holding that organisation (a router plan, "Task Count: 1").
func TestQueriesRunOnOneShard(t *testing.T) {
	tenantstest.Citus(t)
	ctx := context.Background()
	pool, err := tenantstest.Open(t).Shard("AR")
	require.NoError(t, err)
	queries := generatedQueries(t)
	require.Greater(t, len(queries), 100, "the generated queries were not found")
	org := uuid.New().String()
	taskCount := regexp.MustCompile(`Task Count: (\d+)`)

	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	for name, sql := range queries {
		t.Run(name, func(t *testing.T) {
			_, err := conn.Exec(ctx, "PREPARE q AS "+declareCursor.ReplaceAllString(sql, ""))
			require.NoError(t, err)
			defer func() { _, _ = conn.Exec(ctx, "DEALLOCATE q") }()
			var types []string
			require.NoError(t, conn.QueryRow(ctx, `SELECT parameter_types::text[] FROM pg_prepared_statements WHERE name = 'q'`).Scan(&types))
			args := make([]string, len(types))
			for i, ty := range types {
				switch ty {
				case "uuid":
					args[i] = fmt.Sprintf("'%s'::uuid", org)
				case "uuid[]":
					args[i] = fmt.Sprintf("ARRAY['%s']::uuid[]", org)
				default:
					args[i] = "NULL::" + ty
				}
			}
			explain := "EXPLAIN (COSTS OFF) EXECUTE q"
			if len(args) > 0 {
				explain += "(" + strings.Join(args, ", ") + ")"
			}
			rows, err := conn.Query(ctx, explain)
			require.NoError(t, err)
			lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
			require.NoError(t, err)
			plan := strings.Join(lines, "\n")
			tasks := 0
			for _, m := range taskCount.FindAllStringSubmatch(plan, -1) {
				n, _ := strconv.Atoi(m[1])
				tasks = max(tasks, n)
			}
			if why, ok := crossTenant[name]; ok {
				t.Logf("cross-tenant (%s): %d tasks", why, tasks)
				return
			}
			require.LessOrEqual(t, tasks, 1, "%s reaches several shards:\n%s", name, plan)
			if why, ok := pulledThrough[name]; ok {
				t.Logf("pulled through the coordinator (%s)", why)
				return
			}
			require.NotContains(t, plan, "pull to coordinator", "%s is an INSERT … SELECT Citus cannot push down (a volatile "+
				"function or column default: gen_random_uuid(), clock_timestamp()):\n%s", name, plan)
		})
	}
}

// generatedQueries reads the SQL of every query sqlc generated in this package: the string constants
// that start with "-- name: ".
func generatedQueries(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.sql.go")
	require.NoError(t, err)
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			sql, err := strconv.Unquote(lit.Value)
			if err != nil || !strings.HasPrefix(sql, "-- name: ") {
				return true
			}
			name := strings.Fields(sql)[2]
			out[name] = sql
			return true
		})
	}
	return out
}
