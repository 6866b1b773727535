// Package largeorg seeds one large organisation in one shard (issue 6 "Scale"): campaigns, donors,
// donations over five years with pauses and discards, their monthly transactions, pause/restore
// version rows and daily visits. Used by `make seed-large` (deploy/seedlarge) and by `make bench`.
//
// Rows are built by PostgreSQL (INSERT … SELECT generate_series, sql/seed.sql) in batches of
// donations, two batches at a time, with every constraint and foreign key in place: the data is as
// valid as the application's own. The non-unique indexes of the filled tables are dropped for the
// load and built again after it (one sort each instead of millions of random inserts), and the
// dashboard rollup is filled once at the end instead of by its triggers batch by batch.
package largeorg

import (
	"context"
	"embed"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = mustLoadQueries(sqlFS, "sql")

// NamePrefix marks seeded organisations in the directory, so the bench can find one.
const NamePrefix = "Fundación Grande (seed-large)"

// Options sizes the seed.
type Options struct {
	Country      string
	Currency     string
	Donations    int64
	Transactions int64 // target; monthly donations get the charges that reach it
	Campaigns    int
	Batch        int64 // donations per statement
	Workers      int
	Log          io.Writer
}

// Result is what was written.
type Result struct {
	OrgID        uuid.UUID
	Donations    int64
	Transactions int64
	Took         time.Duration
}

func id(prefix string, i int64) string { return fmt.Sprintf("00000000-0000-4000-%s-%012x", prefix, i) }

// Seed creates the organisation (directory and shard) and its rows.
func Seed(ctx context.Context, t *tenants.Tenants, o Options) (Result, error) {
	start := time.Now()
	org := tenants.Organization{ID: uuid.New(), Name: fmt.Sprintf("%s %d", NamePrefix, o.Donations), Country: o.Country}
	if err := t.CreateOrganization(ctx, org, ""); err != nil {
		return Result{}, err
	}
	pool, err := t.Shard(o.Country)
	if err != nil {
		return Result{}, err
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, "[%6.1fs] "+format+"\n", append([]any{time.Since(start).Seconds()}, args...)...)
		}
	}
	// Each statement in its own transaction without JIT (the planner's row estimates for
	// generate_series are far off and JIT compilation alone took 1.6 s per batch); the dashboard
	// rollup is built once, by the Rollup step.
	run := func(ctx context.Context, name string, args ...any) error {
		return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SET LOCAL jit = off"); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, queries.Get(name), append([]any{org.ID}, args...)...)
			return err
		})
	}
	exec := func(name string, args ...any) error {
		err := run(ctx, name, args...)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	logf("organisation %s in shard %s", org.ID, o.Country)
	if err := exec("Campaigns", o.Campaigns, o.Currency); err != nil {
		return Result{}, err
	}
	// 15% of donations are one-time with one charge; monthly ones share the rest.
	monthly := o.Donations * 17 / 20
	perMonthly := 1.0
	if monthly > 0 {
		perMonthly = max(1, float64(o.Transactions-(o.Donations-monthly))/float64(monthly))
	}
	life := longestLife(perMonthly)
	logf("%d donations, lives of 1–%d months (%.1f charges per monthly donation), batches of %d, %d workers",
		o.Donations, life, perMonthly, o.Batch, o.Workers)

	indexes, err := dropIndexes(ctx, pool)
	if err != nil {
		return Result{}, err
	}
	logf("dropped %d non-unique indexes until the load is done", len(indexes))
	defer func() {
		// Whatever happened, the shard gets its indexes back.
		if indexes != nil {
			if err := createIndexes(context.WithoutCancel(ctx), pool, indexes, o.Workers); err != nil {
				logf("could not rebuild the indexes, run these by hand: %v\n%s", err, strings.Join(indexes, ";\n"))
			}
		}
	}()

	var mu sync.Mutex
	done := int64(0)
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var firstErr error
	sem := make(chan struct{}, max(1, o.Workers))
	for lo := int64(0); lo < o.Donations; lo += o.Batch {
		hi := min(lo+o.Batch, o.Donations)
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := func() error {
				if err := gctx.Err(); err != nil {
					return err
				}
				for _, step := range []struct {
					name string
					args []any
				}{
					{"Donors", []any{lo, hi, o.Donations}},
					{"Donations", []any{lo, hi, o.Donations, o.Campaigns, o.Currency}},
					{"Transactions", []any{id("8000", lo), id("8000", hi), life}},
					{"PauseVersions", []any{id("8000", lo), id("8000", hi)}},
				} {
					if err := run(gctx, step.name, step.args...); err != nil {
						return fmt.Errorf("%s [%d, %d): %w", step.name, lo, hi, err)
					}
				}
				mu.Lock()
				done += hi - lo
				logf("%d/%d donations with their transactions", done, o.Donations)
				mu.Unlock()
				return nil
			}(); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
					cancel()
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return Result{}, firstErr
	}
	if err := exec("Visits", o.Campaigns); err != nil {
		return Result{}, err
	}
	logf("visits written; building %d indexes", len(indexes))
	if err := createIndexes(ctx, pool, indexes, o.Workers); err != nil {
		return Result{}, err
	}
	indexes = nil
	logf("indexes built; filling the dashboard rollup")
	if err := exec("Rollup"); err != nil {
		return Result{}, err
	}
	// VACUUM sets the visibility map, so index-only scans do not visit the heap, and ANALYZE gives
	// the planner the new row counts: what autovacuum would do some minutes later.
	logf("rollup filled; vacuuming and analysing")
	for _, table := range []string{"donors", "donations", "transactions", "donation_versions", "campaign_visits", "dashboard_daily", "dashboard_daily_discards"} {
		if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) "+table); err != nil {
			return Result{}, err
		}
	}
	r := Result{OrgID: org.ID}
	if err := pool.QueryRow(ctx, queries.Get("Counts"), org.ID).Scan(&r.Donations, &r.Transactions); err != nil {
		return Result{}, err
	}
	r.Took = time.Since(start)
	logf("done: %d donations, %d transactions in %s", r.Donations, r.Transactions, r.Took.Round(time.Second))
	return r, nil
}

// longestLife is the longest life, in months, of monthly donations whose lives are uniform in
// 1…longest so that they average perMonthly charges, given that a donation created evenly over the
// 5 years cannot be charged more months than it has lived (pauses and discards, which end some
// lives earlier, are left out of the estimate).
func longestLife(perMonthly float64) int {
	const months = 60
	mean := func(longest int) float64 {
		total := 0.0
		for lived := 1; lived <= months; lived++ {
			for l := 1; l <= longest; l++ {
				total += float64(min(l, lived))
			}
		}
		return total / float64(months*longest)
	}
	best := 1
	for l := 1; l <= 4*months; l++ {
		if math.Abs(mean(l)-perMonthly) < math.Abs(mean(best)-perMonthly) {
			best = l
		}
	}
	return best
}

// dropIndexes drops the deferrable indexes and returns their definitions.
func dropIndexes(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	rows, err := pool.Query(ctx, queries.Get("DeferrableIndexes"))
	if err != nil {
		return nil, err
	}
	type index struct{ Name, Def string }
	found, err := pgx.CollectRows(rows, pgx.RowToStructByPos[index])
	if err != nil {
		return nil, err
	}
	defs := make([]string, 0, len(found))
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		for _, i := range found {
			if _, err := tx.Exec(ctx, "DROP INDEX "+pgx.Identifier{i.Name}.Sanitize()); err != nil {
				return err
			}
			// IF NOT EXISTS: a second attempt after a failure builds only what is missing.
			defs = append(defs, strings.Replace(i.Def, "CREATE INDEX ", "CREATE INDEX IF NOT EXISTS ", 1))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return defs, nil
}

// createIndexes builds the indexes, workers at a time, largest tables first.
func createIndexes(ctx context.Context, pool *pgxpool.Pool, defs []string, workers int) error {
	next := make(chan string, len(defs))
	for _, d := range defs {
		next <- d
	}
	close(next)
	errs := make(chan error, max(1, workers))
	for range max(1, workers) {
		go func() {
			errs <- func() error {
				for def := range next {
					err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
						if _, err := tx.Exec(ctx, "SET LOCAL maintenance_work_mem = '256MB'"); err != nil {
							return err
						}
						_, err := tx.Exec(ctx, def)
						return err
					})
					if err != nil {
						return fmt.Errorf("%s: %w", def, err)
					}
				}
				return nil
			}()
		}()
	}
	var first error
	for range max(1, workers) {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Find returns the seeded organisation with the most donations in country, if any.
func Find(ctx context.Context, directory *pgxpool.Pool, shard *pgxpool.Pool, country string) (uuid.UUID, int64, int64, bool, error) {
	rows, err := directory.Query(ctx, `SELECT id FROM organizations WHERE country = $1 AND name LIKE $2 || '%'`, country, NamePrefix)
	if err != nil {
		return uuid.Nil, 0, 0, false, err
	}
	ids, err := collect(rows)
	if err != nil {
		return uuid.Nil, 0, 0, false, err
	}
	var best uuid.UUID
	var bestD, bestT int64
	for _, o := range ids {
		var d, tx int64
		if err := shard.QueryRow(ctx, queries.Get("Counts"), o).Scan(&d, &tx); err != nil {
			return uuid.Nil, 0, 0, false, err
		}
		if d > bestD {
			best, bestD, bestT = o, d, tx
		}
	}
	return best, bestD, bestT, bestD > 0, nil
}

func collect(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close()
}) ([]uuid.UUID, error) {
	defer rows.Close()
	var out []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
