package donation_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// TestScaleOutWhileDonating adds a third worker to the AR cluster, moves the donors' organisation's shards onto
// it and rebalances the others (citus_rebalance_start) while donors keep giving on the public form, one-time
// and monthly, each charged at once. Afterwards every answered donation is stored with its charge, no donation
// or period was charged twice, the dashboard rollup still equals its rows, the new worker holds shards, and no
// request got a 5xx.
func TestScaleOutWhileDonating(t *testing.T) {
	tenantstest.Citus(t)
	spare := os.Getenv("APORTA_CITUS_SPARE_WORKER")
	require.NotEmpty(t, spare, "the test stack starts a spare Citus worker")
	f := setup(t, nil)
	ctx := context.Background()

	// The AR coordinator as its superuser: adding a node and rebalancing are an operator's acts.
	dsn, err := url.Parse(f.cfg.ShardDSNs["AR"])
	require.NoError(t, err)
	dsn.User = url.User("postgres")
	admin, err := pgx.Connect(ctx, dsn.String())
	require.NoError(t, err)
	defer admin.Close(ctx)

	var (
		mu        sync.Mutex
		donations []string
		failures  []string
		stop      = make(chan struct{})
		stopOnce  sync.Once
		wg        sync.WaitGroup
	)
	halt := func() { stopOnce.Do(func() { close(stop) }); wg.Wait() }
	defer halt() // the donors stop before the test's server does, however the test ends
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				a := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), (w+i)%2, 1000+i, email(), uuid.NewString()))
				mu.Lock()
				if a.Status == http.StatusCreated && a.Body["status"] == "approved" {
					donations = append(donations, a.Donation)
				} else {
					failures = append(failures, fmt.Sprintf("%d %v", a.Status, a.Body))
				}
				mu.Unlock()
			}
		}()
	}
	created := func() int {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) > 0 {
			return -1
		}
		return len(donations)
	}
	require.Eventually(t, func() bool { return created() >= 6 || created() < 0 }, 2*time.Minute, 100*time.Millisecond, "donations before the scale-out")
	require.Positive(t, created(), "donations before the scale-out: %v", failures)

	host, port, err := net.SplitHostPort(spare)
	require.NoError(t, err)
	var node int
	require.NoError(t, admin.QueryRow(ctx, `SELECT citus_add_node($1, $2::int)`, host, port).Scan(&node))
	// The organisation's own shards move first, so that every run moves the rows the donors are writing (the
	// rebalancer alone picked them in 4 runs of 10), the way the rebalancer moves them (non-blocking, the
	// reference tables copied to the new worker first); then the rebalancer spreads the others.
	_, err = admin.Exec(ctx, `SELECT replicate_reference_tables()`)
	require.NoError(t, err)
	var orgShard int64
	var from string
	var fromPort int
	require.NoError(t, admin.QueryRow(ctx, `SELECT p.shardid, p.nodename, p.nodeport FROM pg_dist_shard_placement p
		WHERE p.shardid = get_shard_id_for_distribution_column('organizations', $1::uuid)`, f.org).Scan(&orgShard, &from, &fromPort))
	// The move's switch blocks writes to the shards while donors' transactions hold them: Citus may cancel it as a
	// distributed deadlock's victim, and the operator moves again, as the rebalancer's background jobs do.
	for try := 1; ; try++ {
		_, err = admin.Exec(ctx, `SELECT citus_move_shard_placement($1, $2, $3, $4, $5::int)`, orgShard, from, fromPort, host, port)
		if try < 3 && dberr.Retryable(err) {
			t.Logf("move %d: %v; moving again", try, err)
			continue
		}
		require.NoError(t, err)
		break
	}
	_, err = admin.Exec(ctx, `SELECT citus_rebalance_start()`)
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `SELECT citus_rebalance_wait()`)
	require.NoError(t, err)
	before := created()
	require.Eventually(t, func() bool { return created() >= before+6 || created() < 0 }, 2*time.Minute, 100*time.Millisecond, "donations after the scale-out")
	halt()

	require.Empty(t, failures, "every donation during the scale-out was answered and approved")
	var state string
	require.NoError(t, admin.QueryRow(ctx, `SELECT state::text FROM citus_rebalance_status()`).Scan(&state))
	require.Equal(t, "finished", state)
	var moved int
	require.NoError(t, admin.QueryRow(ctx, `SELECT count(*) FROM pg_dist_placement WHERE groupid =
		(SELECT groupid FROM pg_dist_node WHERE nodeid = $1)`, node).Scan(&moved))
	require.Positive(t, moved, "the new worker holds shards")

	// An answered charge may still be settling on the donation (a monthly's first charge is read back by its
	// workflow): each donation becomes active with exactly one approved charge.
	for _, d := range donations {
		require.Eventually(t, func() bool {
			return f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND status = 'active'`, uuid.MustParse(d)) == 1
		}, time.Minute, 200*time.Millisecond, d)
		require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'`, uuid.MustParse(d)), d)
	}
	require.Equal(t, len(donations), f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1`))
	require.Zero(t, f.count(t, `SELECT count(*) FROM (SELECT donation_id, period FROM transactions
		WHERE organization_id = $1 AND status = 'approved' GROUP BY 1, 2 HAVING count(*) > 1) twice`))
	require.Zero(t, f.count(t, `SELECT count(*) FROM (
		SELECT (SELECT coalesce(sum(amount_minor), 0) FROM transactions WHERE organization_id = $1 AND status = 'approved')
		     - (SELECT coalesce(sum(raised_minor), 0) FROM dashboard_daily WHERE organization_id = $1) AS raised,
		       (SELECT count(*) FROM donations WHERE organization_id = $1 AND status NOT IN ('pending', 'rejected'))
		     - (SELECT coalesce(sum(new_donations), 0) FROM dashboard_daily WHERE organization_id = $1) AS new) x
		WHERE raised <> 0 OR new <> 0`), "the dashboard rollup equals the rows")
}
