package tenants_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// Two transactions that lock two rows in opposite orders deadlock; the database cancels one, and Tx
// runs that one again once the other has committed: both succeed. On Citus the worker's own detector
// and the coordinator's distributed one can each pick a victim in the same cycle, so both may run
// again: three or four runs, never two (no retry) and never more.
func TestTxRunsADeadlockVictimAgain(t *testing.T) {
	ctx := context.Background()
	tt := tenantstest.Open(t)
	scope := tenantstest.ArgentineOrganization(t, tt, "Fundación Cerrojo", "enabled", "essential_monthly")
	donors := make([]uuid.UUID, 2)
	for i := range donors {
		id, err := scope.Store().LinkFormDonor(ctx, sharddb.LinkFormDonorParams{OrganizationID: scope.OrgID, ID: uuid.New(),
			Email: uuid.NewString() + "@example.org", FirstName: "Ana", LastName: "Cerrojo"})
		require.NoError(t, err)
		donors[i] = id
	}
	lock := func(tx pgx.Tx, id uuid.UUID) error {
		_, err := tx.Exec(ctx, `SELECT 1 FROM donors WHERE organization_id = $1 AND id = $2 FOR UPDATE`, scope.OrgID, id)
		return err
	}
	var runs atomic.Int32
	var holding sync.WaitGroup // both first runs hold their first row before either asks for the second
	holding.Add(2)
	errs := make([]error, 2)
	var done sync.WaitGroup
	for i := range 2 {
		done.Add(1)
		go func() {
			defer done.Done()
			first, second := donors[i], donors[1-i]
			errs[i] = scope.Tx(ctx, func(tx pgx.Tx) error {
				again := runs.Add(1) > 2
				if err := lock(tx, first); err != nil {
					return err
				}
				if !again {
					holding.Done()
					holding.Wait()
				}
				return lock(tx, second)
			})
		}()
	}
	done.Wait()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	require.GreaterOrEqual(t, runs.Load(), int32(3), "a victim ran again")
	require.LessOrEqual(t, runs.Load(), int32(4), "each transaction ran again at most once")
}
