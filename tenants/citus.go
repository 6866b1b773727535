package tenants

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
)

// Querier is what catalog checks need: a pool or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

type constraint struct {
	Table, Name, Kind string
	Columns           []string
	RefTable          *string
	RefColumns        []string
}

// CitusViolations reads a shard's live catalog and lists every break of the co-location rules:
// a table with organization_id (a tenant table) must have it in its primary key, in every unique
// constraint and in every foreign key to another tenant table; reference tables (the rest) must not
// point at tenant tables; and no table has a trigger (Citus distributes none that has: derived rows are
// written by the application in the same transaction). Migrate refuses a schema with violations.
func CitusViolations(ctx context.Context, q Querier) ([]string, error) {
	tenantTables, err := collect(ctx, q, sqlTenantTables, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	cons, err := collect(ctx, q, sqlConstraints, pgx.RowToStructByPos[constraint])
	if err != nil {
		return nil, err
	}

	isTenant := func(t string) bool { return slices.Contains(tenantTables, t) }
	var out []string
	hasPK := map[string]bool{}
	for _, c := range cons {
		switch {
		case !isTenant(c.Table):
			if c.Kind == "f" && c.RefTable != nil && isTenant(*c.RefTable) {
				out = append(out, fmt.Sprintf("reference table %s: foreign key %s points at tenant table %s", c.Table, c.Name, *c.RefTable))
			}
		case c.Kind == "p" || c.Kind == "u":
			hasPK[c.Table] = hasPK[c.Table] || c.Kind == "p"
			if !slices.Contains(c.Columns, "organization_id") {
				out = append(out, fmt.Sprintf("%s: constraint %s lacks organization_id", c.Table, c.Name))
			}
		case c.Kind == "f" && c.RefTable != nil && isTenant(*c.RefTable):
			if !slices.Contains(c.Columns, "organization_id") || !slices.Contains(c.RefColumns, "organization_id") {
				out = append(out, fmt.Sprintf("%s: foreign key %s must join on organization_id", c.Table, c.Name))
			}
		}
	}
	for _, t := range tenantTables {
		if !hasPK[t] {
			out = append(out, fmt.Sprintf("%s: no primary key", t))
		}
	}
	triggers, err := collect(ctx, q, sqlTriggers, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	return append(out, triggers...), nil
}

func collect[T any](ctx context.Context, q Querier, sql string, row pgx.RowToFunc[T]) ([]T, error) {
	rows, err := q.Query(ctx, sql)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, row)
}

// CitusAsyncCommitNodes names the nodes of the database's Citus cluster (the coordinator included) on which
// a session of this user commits asynchronously (synchronous_commit = off). Citus's non-blocking shard move
// (citus_rebalance_start, citus_drain_node, citus_move_shard_placement) blocks writes, waits until its
// subscription has replayed the source's WAL up to pg_current_wal_lsn() (the WAL written so far, not what
// is still in WAL buffers), switches the placement and drops the old one: a single-node transaction the
// source committed asynchronously a moment earlier has its commit record past that point, and is lost
// with the old placement (TestScaleOutWhileDonating lost donations so; deploy/SIZING.md). Migrate refuses
// such a cluster.
func CitusAsyncCommitNodes(ctx context.Context, q Querier) ([]string, error) {
	type node struct {
		Addr    string
		OK      bool
		Setting string
	}
	nodes, err := collect(ctx, q, sqlNodesSynchronousCommit, pgx.RowToStructByPos[node])
	if err != nil {
		return nil, err
	}
	var async []string
	for _, n := range nodes {
		if !n.OK {
			return nil, fmt.Errorf("synchronous_commit on %s: %s", n.Addr, n.Setting)
		}
		if n.Setting == "off" {
			async = append(async, n.Addr)
		}
	}
	return async, nil
}
