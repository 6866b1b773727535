package dberr

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// On Citus a unique violation comes from a worker: the constraint is named only in the message, with
// the shard's id appended.
func TestConflictOnACitusShard(t *testing.T) {
	err := Map(&pgconn.PgError{Code: "23505", Message: `duplicate key value violates unique constraint "crm_rules_field_key_102102"`})
	for want, is := range map[string]bool{"crm_rules_field_key": true, "": true, "crm_rules_field_key_102102": true,
		"crm_rules_field": false, "crm_rules": false, "other_key": false} {
		if IsConflict(err, want) != is {
			t.Errorf("IsConflict(%q) = %v, want %v", want, !is, is)
		}
	}
	named := Map(&pgconn.PgError{Code: "23505", ConstraintName: "crm_rules_field_key", Message: `duplicate key`})
	if !IsConflict(named, "crm_rules_field_key") || IsConflict(named, "other_key") {
		t.Error("a constraint named by PostgreSQL itself")
	}
}

// A delegated call refused by the worker a shard move just took its shard from runs again; another internal error
// does not.
func TestRetryable(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "40P01", Message: "deadlock detected"}, true},
		{&pgconn.PgError{Code: "40001", Message: "could not serialize access"}, true},
		{fmt.Errorf("record: %w", &pgconn.PgError{Code: "XX000", Message: "cannot execute a distributed query from a query on a shard"}), true},
		{&pgconn.PgError{Code: "XX000", Message: "could not find valid entry for shard 102008"}, false},
		{&pgconn.PgError{Code: "23505", Message: "duplicate key value"}, false},
		{errors.New("connection refused"), false},
	} {
		if got := Retryable(c.err); got != c.want {
			t.Errorf("Retryable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
