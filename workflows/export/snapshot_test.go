package export

import (
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"

	"github.com/aporta/aporta/internal/blob"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// A large export must not hold one of the pool's connections while it streams to object storage:
// with a one-connection pool whose connection is taken, the export still completes (before, it
// queued for the pool and timed out), reading every row in batches from one snapshot.
func TestExportDoesNotPinAPoolConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt := tenantstest.OpenWith(t, func(db *config.DBConfig) { db.MaxConns = 1 })

	org := tenants.Organization{ID: uuid.New(), Name: "Exportadora", Country: "CL"}
	scope := tenantstest.Organization(t, tt, org, "America/Santiago")
	camp := uuid.New()
	require.NoError(t, scope.Exec(ctx, `INSERT INTO campaigns (organization_id, id, slug, title, type, currency)
		VALUES ($1, $2, $3, 'Campaña', 'custom', 'CLP')`, org.ID, camp, "c-"+camp.String()[:8]))
	const leads = 2*exportBatch + 17 // three batches, the last one short
	require.NoError(t, scope.Exec(ctx, `INSERT INTO leads (organization_id, id, campaign_id, email, first_name)
		SELECT $1, gen_random_uuid(), $2, 'lead' || i || '@example.test', 'Lead ' || i FROM generate_series(1, $3::int) i`,
		org.ID, camp, leads))

	bucket, err := blob.Open(ctx, "file://"+t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { _ = bucket.Close() })
	shard, err := tt.Shard("CL")
	require.NoError(t, err)
	held, err := shard.Acquire(ctx) // the pool's only connection, busy elsewhere
	require.NoError(t, err)
	defer held.Release()

	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestActivityEnvironment()
	a := &Activities{Tenants: tt, Bucket: bucket}
	env.RegisterActivity(a)
	env.SetTestTimeout(20 * time.Second)
	token := newToken()
	val, err := env.ExecuteActivity(a.BuildLeadsCSV, org.ID.String(), token, time.Now())
	require.NoError(t, err)
	var n int
	require.NoError(t, val.Get(&n))
	require.Equal(t, leads, n)

	data, err := bucket.ReadAll(ctx, ObjectKey(token))
	require.NoError(t, err)
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(data), "\ufeff"))).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, leads+1, "header and every lead, none twice")
}
