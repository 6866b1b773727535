package tenants_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// Every pool is bounded from the configuration: its size, and on the server side a statement
// timeout and an idle-in-transaction timeout, so a runaway query or an abandoned transaction cannot
// keep connections forever. A statement over the limit is cancelled by the server.
func TestPoolsCarryTimeoutsAndSizeFromConfig(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt := tenantstest.OpenWith(t, func(db *config.DBConfig) {
		db.MaxConns, db.StatementTimeout, db.IdleInTxTimeout = 3, 1500*time.Millisecond, 2*time.Second
	})

	shard, err := tt.Shard("AR")
	require.NoError(t, err)
	for name, pool := range map[string]*pgxpool.Pool{"directory": tt.Directory(), "shard AR": shard} {
		require.EqualValues(t, 3, pool.Config().MaxConns, name)
		var stmt, idle string
		require.NoError(t, pool.QueryRow(ctx, "SHOW statement_timeout").Scan(&stmt), name)
		require.NoError(t, pool.QueryRow(ctx, "SHOW idle_in_transaction_session_timeout").Scan(&idle), name)
		require.Equal(t, "1500ms", stmt, name)
		require.Equal(t, "2s", idle, name)
	}
	_, err = shard.Exec(ctx, "SELECT pg_sleep(5)")
	require.ErrorContains(t, err, "statement timeout")
}

// The defaults apply to the processes' pools (tenantstest opens them as `aporta serve` does).
func TestDefaultPoolSettings(t *testing.T) {
	t.Parallel()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	var stmt string
	require.NoError(t, tt.Directory().QueryRow(context.Background(), "SHOW statement_timeout").Scan(&stmt))
	require.Equal(t, cfg.DB.StatementTimeout.String(), stmt)
	require.Equal(t, cfg.DB.MaxConns, tt.Directory().Config().MaxConns)
}

// ReadSnapshot reads from one read-only, repeatable-read snapshot on a connection outside the pool.
func TestReadSnapshotIsReadOnlyRepeatableReadOutsideThePool(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt := tenantstest.Open(t)
	org := tenants.Organization{ID: uuid.New(), Name: "Instantánea", Country: "PE"}
	scope := tenantstest.Organization(t, tt, org, "")
	shard, err := tt.Shard("PE")
	require.NoError(t, err)
	before := shard.Stat().TotalConns()
	err = scope.ReadSnapshot(ctx, func(tx pgx.Tx) error {
		var iso, ro string
		require.NoError(t, tx.QueryRow(ctx, "SHOW transaction_isolation").Scan(&iso))
		require.NoError(t, tx.QueryRow(ctx, "SHOW transaction_read_only").Scan(&ro))
		require.Equal(t, "repeatable read", iso)
		require.Equal(t, "on", ro)
		require.Equal(t, before, shard.Stat().TotalConns(), "the snapshot took a pool connection")
		_, err := tx.Exec(ctx, "UPDATE organizations SET name = 'x' WHERE organization_id = $1", org.ID)
		return err
	})
	require.ErrorContains(t, err, "read-only transaction")
}
