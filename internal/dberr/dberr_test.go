package dberr

import (
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
