package sharddb

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/aporta/aporta/internal/dberr"
)

// Pipelined runs the statements of fill in one round trip to the shard (a pgx batch in tx) rather than one each
// (issue 19: on Citus, and on a busy machine, every round trip costs more than most statements' work). fill runs
// twice: first on a recorder that notes each statement and answers no rows, then, the batch sent, on the batch's
// answers in the same order. So fill must only add what its rows say, never act on their absence (writers queue
// statements whose answers they do not need).
// A handle that cannot send a batch (a recorder's, a wrapper's) runs fill's statements one by one.
func (q *Queries) Pipelined(ctx context.Context, fill func(*Queries) error) error {
	tx, ok := dberr.Unwrap(q.db).(batcher)
	if !ok {
		return fill(q)
	}
	rec := &recorder{batch: &pgx.Batch{}}
	if err := fill(Store(rec)); err != nil {
		return err
	}
	if len(rec.sql) == 0 {
		return nil
	}
	br := tx.SendBatch(ctx, rec.batch)
	err := fill(Store(&replay{br: br, sql: rec.sql}))
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return err
}

// batcher is a handle that sends batches: a transaction, a connection, a pool.
type batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// recorder queues each statement and answers nothing.
type recorder struct {
	batch *pgx.Batch
	sql   []string
}

func (r *recorder) queue(sql string, args []any) {
	r.batch.Queue(sql, args...)
	r.sql = append(r.sql, sql)
}

func (r *recorder) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.queue(sql, args)
	return pgconn.CommandTag{}, nil
}

func (r *recorder) Query(_ context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.queue(sql, args)
	return noRows{}, nil
}

func (r *recorder) QueryRow(_ context.Context, sql string, args ...any) pgx.Row {
	r.queue(sql, args)
	return noRows{}
}

// replay answers each statement with the batch's next result, checking it is the one recorded there.
type replay struct {
	br  pgx.BatchResults
	sql []string
	n   int
}

func (r *replay) next(sql string) error {
	if r.n >= len(r.sql) || r.sql[r.n] != sql {
		return fmt.Errorf("pipeline: statement %d is not the one recorded", r.n)
	}
	r.n++
	return nil
}

func (r *replay) Exec(_ context.Context, sql string, _ ...any) (pgconn.CommandTag, error) {
	if err := r.next(sql); err != nil {
		return pgconn.CommandTag{}, err
	}
	return r.br.Exec()
}

func (r *replay) Query(_ context.Context, sql string, _ ...any) (pgx.Rows, error) {
	if err := r.next(sql); err != nil {
		return nil, err
	}
	return r.br.Query()
}

func (r *replay) QueryRow(_ context.Context, sql string, _ ...any) pgx.Row {
	if err := r.next(sql); err != nil {
		return errRow{err}
	}
	return r.br.QueryRow()
}

// noRows is the recorder's answer: no rows, and a single-row read that leaves its destinations as they are.
type noRows struct{}

func (noRows) Close()                                       {}
func (noRows) Err() error                                   { return nil }
func (noRows) CommandTag() pgconn.CommandTag                { return pgconn.CommandTag{} }
func (noRows) FieldDescriptions() []pgconn.FieldDescription { return nil }
func (noRows) Next() bool                                   { return false }
func (noRows) Scan(...any) error                            { return nil }
func (noRows) Values() ([]any, error)                       { return nil, nil }
func (noRows) RawValues() [][]byte                          { return nil }
func (noRows) Conn() *pgx.Conn                              { return nil }
func (noRows) TypeMap() *pgtype.Map                         { return nil }

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
