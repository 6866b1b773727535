package tenants_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// On Citus, a call of each delegated function is planned as one task on the worker that holds its organisation's
// shards, the call itself (a Result node): the coordinator sends it on whole instead of planning the statements in
// it. A function that is not distributed, or not by its org argument, is planned on the coordinator: a bare Result.
func TestDelegatedFunctionsRunWholeOnTheirWorker(t *testing.T) {
	tenantstest.Citus(t)
	ctx := context.Background()
	pool, err := tenantstest.Open(t).Shard("AR")
	require.NoError(t, err)
	org := uuid.New()
	require.Contains(t, tenants.DelegatedFunctions, "charge_record(uuid,uuid,uuid,text,smallint,bigint,text,uuid,text,text,text,"+
		"timestamptz,uuid,text,jsonb,text,date,uuid,text,integer,bigint,text,timestamptz)")
	for _, f := range tenants.DelegatedFunctions {
		name, params, _ := strings.Cut(strings.TrimSuffix(f, ")"), "(")
		args := []string{fmt.Sprintf("'%s'::uuid", org)} // the first argument is org
		for _, ty := range strings.Split(params, ",")[1:] {
			args = append(args, "NULL::"+ty)
		}
		rows, err := pool.Query(ctx, fmt.Sprintf("EXPLAIN (COSTS OFF) SELECT %s(%s)", name, strings.Join(args, ", ")))
		require.NoError(t, err)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		plan := strings.Join(lines, "\n")
		require.Contains(t, plan, "Custom Scan (Citus Adaptive)", "%s is not delegated:\n%s", name, plan)
		require.Contains(t, plan, "Task Count: 1", "%s:\n%s", name, plan)
		require.Equal(t, "->  Result", strings.TrimSpace(lines[len(lines)-1]), "%s runs whole on the worker:\n%s", name, plan)

		// On every node it plans its statements for each call's values: a generic plan of them makes the worker
		// plan them anyway and keep every plan (delegateFunctions).
		rows, err = pool.Query(ctx, `SELECT success, result FROM run_command_on_all_nodes(format(
			'SELECT array_to_string(proconfig, '','') FROM pg_proc WHERE oid = to_regprocedure(%L)', $1::text))`, f)
		require.NoError(t, err)
		nodes, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct {
			OK     bool
			Config string
		}])
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(nodes), 2, f)
		for _, n := range nodes {
			require.True(t, n.OK, "%s: %s", f, n.Config)
			require.Equal(t, "plan_cache_mode=force_custom_plan", n.Config, f)
		}
	}
}
