// Package history writes a donation's version history (donation_versions): who changed which
// field, from what, to what, and when. The manage area records the changes it makes to a row
// itself, collection the ones its workflow makes; both write through Record.
package history

import (
	"context"
	"embed"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// Version is one change of a donation.
type Version struct {
	ID         uuid.UUID // uuid.Nil: a new id (a writer that may retry passes its own)
	DonationID uuid.UUID
	Actor      string // a user id, "api" or "system"
	Field      string
	Before     any // stored as JSON; nil: none
	After      any
	At         time.Time // zero: now
}

// Execer runs a statement: a pgx.Tx, so a version commits with the change it records.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Record writes v once per id.
func Record(ctx context.Context, q Execer, orgID uuid.UUID, v Version) error {
	if v.ID == uuid.Nil {
		v.ID = uuid.New()
	}
	before, err := jsonOrNil(v.Before)
	if err != nil {
		return err
	}
	after, err := jsonOrNil(v.After)
	if err != nil {
		return err
	}
	var at *time.Time
	if !v.At.IsZero() {
		at = &v.At
	}
	_, err = q.Exec(ctx, queries.Get("RecordVersion"), orgID, v.ID, v.DonationID, v.Actor, v.Field, before, after, at)
	return err
}

func jsonOrNil(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	return json.Marshal(v)
}
