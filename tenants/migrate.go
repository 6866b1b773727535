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
// concurrent runs (two processes starting at once) apply every migration exactly once.
func (t *Tenants) Migrate(ctx context.Context, log *slog.Logger) error {
	if err := migrate(ctx, t.directory, "directory"); err != nil {
		return fmt.Errorf("directory: %w", err)
	}
	for _, country := range t.Countries() {
		pool := t.shards[country]
		if err := migrate(ctx, pool, "shard"); err != nil {
			return fmt.Errorf("shard %s: %w", country, err)
		}
		violations, err := CitusViolations(ctx, pool)
		if err != nil {
			return fmt.Errorf("shard %s: catalog check: %w", country, err)
		}
		if len(violations) > 0 {
			return fmt.Errorf("shard %s breaks the Citus rules: %s", country, strings.Join(violations, "; "))
		}
		citus, err := distribute(ctx, pool)
		if err != nil {
			return fmt.Errorf("shard %s: distribute: %w", country, err)
		}
		log.Info("shard migrated", "country", country, "citus", citus)
	}
	return nil
}

func migrate(ctx context.Context, pool *pgxpool.Pool, dir string) error {
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
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return err
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

// distribute makes tenant tables distributed by organization_id (co-located with organizations) and
// the others reference tables. It is a no-op on plain PostgreSQL, where the schema still follows the
// Citus rules so that moving to a coordinator needs no schema change.
func distribute(ctx context.Context, pool *pgxpool.Pool) (bool, error) {
	var available bool
	if err := pool.QueryRow(ctx, sqlCitusAvailable).Scan(&available); err != nil || !available {
		return false, err
	}
	if _, err := pool.Exec(ctx, sqlCreateCitus); err != nil {
		return true, err
	}
	done := map[string]bool{}
	rows, err := pool.Query(ctx, sqlDistributedTables)
	if err != nil {
		return true, err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return true, err
	}
	for _, n := range names {
		done[n] = true
	}
	list := func(q string) ([]string, error) {
		rows, err := pool.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, pgx.RowTo[string])
	}
	refs, err := list(sqlReferenceTables)
	if err != nil {
		return true, err
	}
	for _, r := range refs {
		if !done[r] {
			if _, err := pool.Exec(ctx, sqlCreateReferenceTable, r); err != nil {
				return true, fmt.Errorf("%s: %w", r, err)
			}
		}
	}
	tenantTables, err := list(sqlTenantTables)
	if err != nil {
		return true, err
	}
	// organizations first: the others co-locate with it.
	sort.SliceStable(tenantTables, func(i, j int) bool { return tenantTables[i] == "organizations" })
	for _, tt := range tenantTables {
		if done[tt] {
			continue
		}
		colocate := "organizations"
		if tt == "organizations" {
			colocate = "default"
		}
		if _, err := pool.Exec(ctx, sqlCreateDistributedTable, tt, colocate); err != nil {
			return true, fmt.Errorf("%s: %w", tt, err)
		}
	}
	return true, nil
}
