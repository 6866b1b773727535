package user

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/internal/dirdb"
)

// member is a membership row of one organisation.
type member = dirdb.Membership

func active(m member) bool { return m.DiscardedAt == nil }

// invitation is a pending invitation of one organisation.
type invitation = dirdb.Invitation

// store reads and writes the memberships and invitations of one organisation.
type store struct {
	pool  *pgxpool.Pool
	orgID uuid.UUID
}

func (s store) db() *dirdb.Queries { return dirdb.Store(s.pool) }

// inTx runs fn in a transaction holding the organisation's user-management lock.
func (s store) inTx(ctx context.Context, fn func(q *dirdb.Queries) error) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		q := dirdb.Store(tx)
		if err := q.LockOrganizationMembers(ctx, s.orgID); err != nil {
			return fmt.Errorf("lock organization: %w", err)
		}
		return fn(q)
	})
}

func (s store) get(ctx context.Context, q *dirdb.Queries, userID uuid.UUID) (member, error) {
	return q.Member(ctx, dirdb.MemberParams{OrganizationID: s.orgID, UserID: userID})
}
