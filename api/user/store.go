package user

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// member is a membership row of one organisation.
type member struct {
	UserID      uuid.UUID
	Role        string
	DiscardedAt *time.Time
	CreatedAt   time.Time
}

func (m member) active() bool { return m.DiscardedAt == nil }

var (
	errNoMember  = errors.New("user: no such member")
	errDuplicate = errors.New("user: already a member")
)

// store reads and writes the memberships of one organisation.
type store struct {
	db    *pgxpool.Pool
	orgID uuid.UUID
}

// dbtx is a pool or a transaction.
type dbtx interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

func scanMember(r pgx.Row) (member, error) {
	var m member
	err := r.Scan(&m.UserID, &m.Role, &m.DiscardedAt, &m.CreatedAt)
	return m, mapErr(err)
}

// mapErr turns pgx errors into the package's errors.
func mapErr(err error) error {
	var pe *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pgx.ErrNoRows):
		return errNoMember
	case errors.As(err, &pe) && pe.Code == "23505":
		return errDuplicate
	}
	return err
}

func (s store) list(ctx context.Context, status string) ([]member, error) {
	rows, err := s.db.Query(ctx, queries.Get("ListMembers"), s.orgID, status)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (member, error) { return scanMember(r) })
}

func (s store) get(ctx context.Context, q dbtx, userID uuid.UUID) (member, error) {
	return scanMember(q.QueryRow(ctx, queries.Get("GetMember"), s.orgID, userID))
}

// inTx runs fn in a transaction holding the organisation's user-management lock.
func (s store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, queries.Get("LockOrganization"), s.orgID.String()); err != nil {
		return fmt.Errorf("lock organization: %w", err)
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func (s store) activeAdministrators(ctx context.Context, q dbtx) (int, error) {
	var n int
	err := q.QueryRow(ctx, queries.Get("CountActiveAdministrators"), s.orgID).Scan(&n)
	return n, err
}

func (s store) insert(ctx context.Context, q dbtx, userID uuid.UUID, role string) (member, error) {
	return scanMember(q.QueryRow(ctx, queries.Get("InsertMember"), s.orgID, userID, role))
}

func (s store) setRole(ctx context.Context, q dbtx, userID uuid.UUID, role string) (member, error) {
	return scanMember(q.QueryRow(ctx, queries.Get("SetMemberRole"), s.orgID, userID, role))
}

func (s store) discard(ctx context.Context, q dbtx, userID uuid.UUID) (member, error) {
	return scanMember(q.QueryRow(ctx, queries.Get("DiscardMember"), s.orgID, userID))
}

func (s store) reactivate(ctx context.Context, q dbtx, userID uuid.UUID) (member, error) {
	return scanMember(q.QueryRow(ctx, queries.Get("ReactivateMember"), s.orgID, userID))
}
