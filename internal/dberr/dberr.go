// Package dberr turns PostgreSQL's errors into the three the domain speaks of, once, where queries
// run: no rows → ErrNotFound, a unique violation → *Conflict, a check violation → *Invalid. The API
// writes them as 404, 409 and 422 (api/apierror); code that cares about a constraint asks for it
// by name with errors.As.
package dberr

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ErrNotFound is a query that wanted a row and found none.
var ErrNotFound = errors.New("not found")

// Conflict is a unique (or exclusion) violation: the row exists already.
type Conflict struct {
	Constraint string
	Err        error
}

func (e *Conflict) Error() string { return "conflict on " + e.Constraint }
func (e *Conflict) Unwrap() error { return e.Err }

// Invalid is a check, not-null or foreign-key violation: the row breaks a rule of the schema.
type Invalid struct {
	Constraint string
	Err        error
}

func (e *Invalid) Error() string { return "invalid row: " + e.Constraint }
func (e *Invalid) Unwrap() error { return e.Err }

// Map translates err; errors that are none of the above pass through unchanged.
func Map(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	name := pe.ConstraintName
	if m := quotedConstraint.FindStringSubmatch(pe.Message); name == "" && m != nil {
		name = m[1] // Citus passes a worker's error on without its constraint name field
	}
	switch pe.Code {
	case "23505", "23P01": // unique_violation, exclusion_violation
		return &Conflict{Constraint: name, Err: err}
	case "23514", "23502", "23503": // check, not null, foreign key
		return &Invalid{Constraint: name, Err: err}
	}
	return err
}

// Retryable reports whether err is a transaction the database cancelled so that it can run again: a deadlock
// victim (40P01), a serialization failure (40001), or a delegated function's call that reached the worker a shard
// move was taking its shard from (Citus, XX000: the worker found the shard gone and refused; run again, the call
// goes to the shard's new worker). Nothing it did was kept.
func Retryable(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	return pe.Code == "40P01" || pe.Code == "40001" || pe.Code == "XX000" && strings.Contains(pe.Message, shardMovedAway)
}

// shardMovedAway is what Citus answers a delegated call that runs on a worker whose shard a move has just switched
// to another worker: the call's statements are no longer local there.
const shardMovedAway = "cannot execute a distributed query from a query on a shard"

// quotedConstraint is the constraint a violation's message names.
var quotedConstraint = regexp.MustCompile(`constraint "([^"]+)"`)

// IsConflict reports whether err is a unique violation of the named constraint ("" for any).
func IsConflict(err error, constraint string) bool {
	var c *Conflict
	return errors.As(err, &c) && (constraint == "" || sameConstraint(c.Constraint, constraint))
}

// sameConstraint reports whether got names the constraint want: on Citus a worker reports the
// constraint of its shard, the name with "_<shard id>" appended (crm_rules_field_key_102042).
func sameConstraint(got, want string) bool {
	if got == want {
		return true
	}
	id, ok := strings.CutPrefix(got, want+"_")
	if !ok || id == "" {
		return false
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// DBTX is what the generated stores run on: a pool, a connection or a transaction.
type DBTX interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
	Query(context.Context, string, ...any) (pgx.Rows, error)
	QueryRow(context.Context, string, ...any) pgx.Row
}

// Wrap returns db with every error mapped: the generated stores are built on it, so no caller
// compares with pgx.ErrNoRows or SQLSTATE codes again.
func Wrap(db DBTX) DBTX { return mapped{db} }

type mapped struct{ db DBTX }

// Unwrap is the handle Wrap wrapped (db itself when it is not wrapped): what a batch is sent on.
func Unwrap(db DBTX) DBTX {
	if m, ok := db.(mapped); ok {
		return m.db
	}
	return db
}

func (m mapped) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := m.db.Exec(ctx, sql, args...)
	return tag, Map(err)
}

func (m mapped) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := m.db.Query(ctx, sql, args...)
	if err != nil {
		return nil, Map(err)
	}
	return mappedRows{rows}, nil
}

func (m mapped) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return mappedRow{m.db.QueryRow(ctx, sql, args...)}
}

type mappedRow struct{ row pgx.Row }

func (r mappedRow) Scan(dest ...any) error { return Map(r.row.Scan(dest...)) }

type mappedRows struct{ pgx.Rows }

func (r mappedRows) Err() error             { return Map(r.Rows.Err()) }
func (r mappedRows) Scan(dest ...any) error { return Map(r.Rows.Scan(dest...)) }
