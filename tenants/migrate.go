package tenants

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/migrations"
)

// Migrate applies the directory migrations and then each shard's, and distributes the shard tables
// where Citus is installed. Each file runs in its own transaction under an advisory lock, so
// concurrent runs (two processes starting at once) apply every migration exactly once. Shards migrate
// one after the other: on Citus, concurrent DDL in databases of one cluster fails with "tuple
// concurrently updated".
func (t *Tenants) Migrate(ctx context.Context, log *slog.Logger) error {
	if err := migrate(ctx, t.directory, "directory", nil); err != nil {
		return fmt.Errorf("directory: %w", err)
	}
	for _, country := range t.Countries() {
		citus, err := migrateShard(ctx, t.shards[country])
		if err != nil {
			return fmt.Errorf("shard %s: %w", country, err)
		}
		log.Info("shard migrated", "country", country, "citus", citus)
	}
	return nil
}

// migrateShard applies the shard migrations, checks the Citus rules and, on a coordinator, distributes
// the tables; it refuses a Citus cluster with a node that commits asynchronously (CitusAsyncCommitNodes).
// A fresh database is distributed once, after its last migration (Citus distributes no table with
// triggers, which older migrations created and later ones drop). A database distributed already
// distributes each new migration's tables in that migration's own transaction, so the next migration
// finds them distributed.
func migrateShard(ctx context.Context, pool *pgxpool.Pool) (bool, error) {
	var citus, distributed bool
	if err := pool.QueryRow(ctx, sqlCitusInstalled).Scan(&citus); err != nil {
		return false, err
	}
	if citus {
		async, err := CitusAsyncCommitNodes(ctx, pool)
		if err != nil {
			return false, fmt.Errorf("synchronous_commit check: %w", err)
		}
		if len(async) > 0 {
			return false, fmt.Errorf("synchronous_commit is off on %s: a shard move would lose what such a node committed last (deploy/SIZING.md)",
				strings.Join(async, ", "))
		}
		if err := pool.QueryRow(ctx, sqlAnyDistributed).Scan(&distributed); err != nil {
			return false, err
		}
	}
	var after func(pgx.Tx) error
	if distributed {
		after = func(tx pgx.Tx) error { return distributeTx(ctx, tx) }
	}
	if err := migrate(ctx, pool, "shard", after); err != nil {
		return false, err
	}
	violations, err := CitusViolations(ctx, pool)
	if err != nil {
		return false, fmt.Errorf("catalog check: %w", err)
	}
	if len(violations) > 0 {
		return false, fmt.Errorf("breaks the Citus rules: %s", strings.Join(violations, "; "))
	}
	if !citus {
		return false, nil
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return distributeTx(ctx, tx) }); err != nil {
		return true, fmt.Errorf("distribute: %w", err)
	}
	return true, nil
}

// migrate applies the migrations of dir not applied yet, each in its own transaction; after, when
// given, runs in that transaction after the file (in Citus's sequential mode, which DDL on tables
// distributed in the same transaction needs).
func migrate(ctx context.Context, pool *pgxpool.Pool, dir string, after func(pgx.Tx) error) error {
	files, err := fs.Glob(migrations.FS, dir+"/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(files)
	if _, err := pool.Exec(ctx, sqlCreateMigrationsTable); err != nil {
		return err
	}
	for _, f := range files {
		version := strings.TrimSuffix(path.Base(f), ".sql")
		body, err := fs.ReadFile(migrations.FS, f)
		if err != nil {
			return err
		}
		err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, sqlLockMigrations); err != nil {
				return err
			}
			var done bool
			if err := tx.QueryRow(ctx, sqlMigrationApplied, version).Scan(&done); err != nil {
				return err
			}
			if done {
				return nil
			}
			if after != nil {
				if _, err := tx.Exec(ctx, sqlSequentialShardCommands); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return err
			}
			if after != nil {
				if err := after(tx); err != nil {
					return err
				}
			}
			_, err := tx.Exec(ctx, sqlRecordMigration, version)
			return err
		})
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	return nil
}

// distributeTx makes the tables Citus does not know yet distributed by organization_id (the tenant
// tables, co-located with organizations) or reference tables (the rest), then distributes the
// delegatedFunctions. Citus refuses to distribute a table that a local table references, or that
// references one, so the foreign keys touching those tables are dropped first and added back once
// every table is known (each is then checked on the co-located shards).
func distributeTx(ctx context.Context, tx pgx.Tx) error {
	// One connection per worker for the whole transaction: DDL after distribution in the same
	// transaction needs it.
	if _, err := tx.Exec(ctx, sqlSequentialShardCommands); err != nil {
		return err
	}
	if err := distributeTables(ctx, tx); err != nil {
		return err
	}
	return delegateFunctions(ctx, tx)
}

// delegatedFunctions run whole on the worker that holds their organisation's shards, also inside a
// transaction (Citus's force_delegation): one round trip from the coordinator instead of one per statement
// in them (issue 19). Each takes its organisation as the argument org and runs router statements on that
// organisation's rows only, which Citus checks on the worker (no INSERT … SELECT: Citus refuses it there).
// On plain PostgreSQL they are ordinary functions.
var delegatedFunctions = []string{
	"dashboard_rollup_contribution(uuid,uuid[])",
	"dashboard_rollup_add(uuid,uuid[],jsonb)",
	"dashboard_rollup_lock(uuid,uuid[])",
	"receipt_prepare(uuid,uuid)",
	"receipt_insert(uuid,jsonb)",
	"receipt_mail(uuid,uuid,uuid,text)",
	"crm_enqueue(uuid,text,uuid)",
	"webhook_enqueue(uuid,uuid,text,jsonb)",
	"charge_record(uuid,uuid,uuid,text,smallint,bigint,text,uuid,text,text,text,timestamptz,uuid,text,jsonb,text,date,uuid,text,integer,bigint,text,timestamptz)",
	"donor_link(uuid,uuid,text,text,text,text,text,jsonb)",
	"donor_card_link(uuid,uuid,text,text,text,text,text,jsonb,jsonb)",
	"donation_queue(uuid,uuid,uuid,uuid,text,jsonb,uuid,text,bigint,text,text,uuid)",
	"dashboard_widgets(uuid,text,date,date,uuid,smallint,uuid,timestamptz,timestamptz,timestamptz,uuid,text)",
}

// delegateFunctions distributes the delegatedFunctions that exist and are not distributed yet, co-located
// with organizations by their org argument, and has each plan its statements for every call's values
// (plan_cache_mode force_custom_plan, which Citus sets on the workers too; a migration that replaces a
// function drops it, and the next migrate sets it again).
//
// On the worker, the statements of a delegated function are fast-path statements that Citus executes locally.
// PL/pgSQL's generic plans of them make Citus 13.2 build and cache a local plan of the shard's statement on
// every call without ever finding it again (citusdata/citus#8824): each call parsed and planned the
// statements anyway, and the worker's backend kept every plan without bound (some 90 KB per call of
// receipt_prepare, measured on the backend's anonymous memory). A custom plan is planned once per call and kept
// by no one.
func delegateFunctions(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, sqlUndelegatedFunctions, delegatedFunctions)
	if err != nil {
		return err
	}
	pending, err := pgx.CollectRows(rows, pgx.RowToStructByPos[undelegated])
	if err != nil {
		return err
	}
	for _, f := range pending {
		if !f.Distributed {
			if _, err := tx.Exec(ctx, sqlDelegateFunction, f.Signature); err != nil {
				return fmt.Errorf("%s: %w", f.Signature, err)
			}
		}
		if _, err := tx.Exec(ctx, fmt.Sprintf(sqlCustomPlans, f.Signature)); err != nil {
			return fmt.Errorf("%s: %w", f.Signature, err)
		}
	}
	return nil
}

// undelegated is a delegated function that is not distributed yet, or whose statements are not custom-planned.
type undelegated struct {
	Signature   string
	Distributed bool
}

// distributeTables distributes the tables Citus does not know yet (distributeTx).
func distributeTables(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, sqlUndistributedTables)
	if err != nil {
		return err
	}
	pending, err := pgx.CollectRows(rows, pgx.RowToStructByPos[undistributed])
	if err != nil || len(pending) == 0 {
		return err
	}
	names := make([]string, len(pending))
	for i, p := range pending {
		names[i] = p.Name
	}
	rows, err = tx.Query(ctx, sqlForeignKeysTouching, names)
	if err != nil {
		return err
	}
	fks, err := pgx.CollectRows(rows, pgx.RowToStructByPos[foreignKey])
	if err != nil {
		return err
	}
	for _, fk := range fks {
		if _, err := tx.Exec(ctx, fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT %s", ident(fk.Table), ident(fk.Name))); err != nil {
			return fmt.Errorf("%s: %w", fk.Table, err)
		}
	}
	// Reference tables first, then organizations: the other tenant tables co-locate with it.
	rank := func(p undistributed) int {
		switch {
		case !p.Tenant:
			return 0
		case p.Name == "organizations":
			return 1
		}
		return 2
	}
	sort.SliceStable(pending, func(i, j int) bool { return rank(pending[i]) < rank(pending[j]) })
	for _, p := range pending {
		switch {
		case !p.Tenant:
			_, err = tx.Exec(ctx, sqlCreateReferenceTable, p.Name)
		case p.Name == "organizations":
			_, err = tx.Exec(ctx, sqlCreateDistributedTable, p.Name, "default")
		default:
			_, err = tx.Exec(ctx, sqlCreateDistributedTable, p.Name, "organizations")
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p.Name, err)
		}
	}
	for _, fk := range fks {
		if _, err := tx.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s %s", ident(fk.Table), ident(fk.Name), fk.Definition)); err != nil {
			return fmt.Errorf("%s: %w", fk.Table, err)
		}
	}
	return nil
}

type undistributed struct {
	Name   string
	Tenant bool
}

type foreignKey struct{ Table, Name, Definition string }

func ident(s string) string { return pgx.Identifier{s}.Sanitize() }
