package seed_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/dashboard"
	"github.com/aporta/aporta/api/seed"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/workflows/collection"
)

func run(t *testing.T, s *apitest.Stack) string {
	t.Helper()
	ctx := context.Background()
	conns, err := connections.Open(ctx, s.Config)
	require.NoError(t, err)
	hc := &http.Client{Timeout: 10 * time.Second}
	var out bytes.Buffer
	require.NoError(t, seed.Run(ctx, seed.Deps{Tenants: s.Tenants, Kratos: s.Kratos, Keto: s.Keto, Temporal: s.Temporal,
		Flows: identity.NewFlows(s.Config.KratosPublic, hc), Gateways: s.Gateways,
		Cards: seed.SandboxCards{Clients: &connections.Clients{Store: conns, Tenants: s.Tenants, BaseURL: s.Config.GatewayURL},
			GatewayURL: s.Config.GatewayURL, HTTP: hc}, History: true}, &out))
	return out.String()
}

// TestDemoHistory runs the dev seed as `make dev` does and checks that the demo organisation holds
// the planned year (donors, donations by status, transactions, leads), that the dashboard rollup
// and the dashboard's answer agree with the rows, that the donations still collected have their
// workflow, which charges no seeded period again, and that a second run writes nothing.
func TestDemoHistory(t *testing.T) {
	s := apitest.Start(t)
	ctx := context.Background()
	start := time.Now()
	out := run(t, s)
	t.Logf("first seed in %s:\n%s", time.Since(start).Round(time.Millisecond), out)

	scope, err := s.Tenants.ForOrganization(ctx, seed.DemoOrgID)
	require.NoError(t, err)
	// History again: the organisation holds its plan, so it only answers the plan's counts.
	want, err := seed.History(ctx, seed.HistoryDeps{Tenants: s.Tenants, Campaigns: campaign.NewService(s.Tenants)})
	require.NoError(t, err)
	require.False(t, want.Written)
	t.Logf("planned: %+v", want)
	require.Greater(t, want.Donors, 1900)
	require.Greater(t, want.Donations, want.Donors)
	for _, st := range []string{"active", "paused", "discarded", "rejected"} {
		require.Positive(t, want.ByStatus[st], st)
	}

	anchor, err := scope.Store().SeedAnchor(ctx, scope.OrgID)
	require.NoError(t, err)
	admin := s.Login(t, seed.Logins[0].Email, seed.Logins[0].Password)
	// One snapshot: the started workflows may be charging today's periods meanwhile.
	require.NoError(t, scope.ReadSnapshot(ctx, func(tx pgx.Tx) error {
		one := func(sql string, args ...any) int64 {
			t.Helper()
			var n int64
			require.NoError(t, tx.QueryRow(ctx, sql, append([]any{scope.OrgID}, args...)...).Scan(&n), sql)
			return n
		}
		require.EqualValues(t, want.Donors, one(`SELECT count(*) FROM donors WHERE organization_id = $1`))
		require.EqualValues(t, want.Donations, one(`SELECT count(*) FROM donations WHERE organization_id = $1`))
		for st, n := range want.ByStatus {
			require.EqualValues(t, n, one(`SELECT count(*) FROM donations WHERE organization_id = $1 AND status = $2`, st), st)
		}
		seeded := `FROM transactions WHERE organization_id = $1 AND created_at < $2`
		require.EqualValues(t, want.Transactions, one(`SELECT count(*) `+seeded, anchor))
		// (A planned first period of a donation made on the anchor's day is collection's to charge.)
		charged := `FROM transactions WHERE organization_id = $1 AND charged_at < $2 AND status = 'approved'`
		require.EqualValues(t, want.Approved, one(`SELECT count(*) `+charged, anchor))
		require.EqualValues(t, want.RaisedMinor, one(`SELECT coalesce(sum(amount_minor), 0) `+charged, anchor))
		require.Positive(t, one(`SELECT count(*) `+seeded+` AND status = 'rejected' AND attempt > 1`, anchor), "retries")
		require.EqualValues(t, want.Leads, one(`SELECT count(*) FROM leads WHERE organization_id = $1`))
		require.Positive(t, one(`SELECT count(*) FROM upgrade_history WHERE organization_id = $1`), "increases")
		require.Zero(t, one(`SELECT count(*) FROM donations WHERE organization_id = $1 AND status = 'discarded' AND discard_reason IS NULL`))
		require.Zero(t, one(`SELECT count(*) FROM donations WHERE organization_id = $1 AND status = 'paused' AND paused_reason IS NULL`))
		// Every rollup total equals the rows'.
		require.Equal(t,
			one(`SELECT coalesce(sum(amount_minor), 0) FROM transactions WHERE organization_id = $1 AND status = 'approved'`),
			one(`SELECT coalesce(sum(raised_minor), 0) FROM dashboard_daily WHERE organization_id = $1`))
		require.Equal(t,
			one(`SELECT count(*) FROM donations WHERE organization_id = $1 AND status NOT IN ('pending', 'rejected')`),
			one(`SELECT coalesce(sum(new_donations), 0) FROM dashboard_daily WHERE organization_id = $1`))
		require.Equal(t,
			one(`SELECT count(*) FROM donations WHERE organization_id = $1 AND discarded_at IS NOT NULL`),
			one(`SELECT coalesce(sum(donations), 0) FROM dashboard_daily_discards WHERE organization_id = $1`))

		// The dashboard over the seeded year, up to the day before the anchor (no workflow charges
		// those days any more), answers the rows' figures.
		var tz string
		require.NoError(t, tx.QueryRow(ctx, `SELECT timezone FROM organizations WHERE organization_id = $1`, scope.OrgID).Scan(&tz))
		loc, err := time.LoadLocation(tz)
		require.NoError(t, err)
		to := anchor.In(loc).AddDate(0, 0, -1).Format(time.DateOnly)
		from := anchor.In(loc).AddDate(0, 0, -365).Format(time.DateOnly)
		d := apitest.OK[dashboard.Dashboard](t, admin, http.MethodGet, "/manage/api/dashboard?from="+from+"&to="+to, nil)
		in := func(col string) string {
			return fmt.Sprintf(`(%s AT TIME ZONE $2)::date BETWEEN $3::date AND $4::date`, col)
		}
		require.Len(t, d.Raised, 1)
		require.Equal(t, one(`SELECT sum(amount_minor) FROM transactions WHERE organization_id = $1 AND status = 'approved' AND `+
			in("coalesce(charged_at, created_at)"), tz, from, to), d.Raised[0].Amount.Minor)
		require.Equal(t, one(`SELECT count(*) FROM donations WHERE organization_id = $1 AND status NOT IN ('pending', 'rejected') AND `+
			in("created_at"), tz, from, to), d.NewDonations)
		require.Equal(t, one(`SELECT count(*) FROM donations WHERE organization_id = $1 AND `+in("discarded_at"), tz, from, to),
			d.DiscardedDonations)
		require.Equal(t, one(`SELECT sum(visits) FROM campaign_visits WHERE organization_id = $1 AND day BETWEEN $2::date AND $3::date`,
			from, to), d.Visits)
		require.NotEmpty(t, d.DiscardReasons)
		require.Positive(t, d.PausedDonations)
		return nil
	}))

	// Collection runs for the donations still collected, from the first period after the year.
	rows, err := scope.Query(ctx, `SELECT d.id::text, max(t.period) FROM donations d
		JOIN transactions t ON t.organization_id = d.organization_id AND t.donation_id = d.id AND t.created_at < $2
		WHERE d.organization_id = $1 AND d.recurrence = 1 AND d.status = 'active' GROUP BY d.id ORDER BY d.id LIMIT 20`,
		scope.OrgID, anchor)
	require.NoError(t, err)
	type last struct {
		ID     string
		Period string
	}
	lasts, err := pgx.CollectRows(rows, pgx.RowToStructByPos[last])
	require.NoError(t, err)
	require.NotEmpty(t, lasts)
	for _, l := range lasts {
		var st collection.State
		seeded, err := collectday.ParsePeriod(l.Period)
		require.NoError(t, err)
		require.Eventually(t, func() bool { // the query answers the ids until the workflow has loaded the donation
			v, err := s.Temporal.QueryWorkflow(ctx, collection.WorkflowID(l.ID), "", collection.QueryState)
			return err == nil && v.Get(&st) == nil && !st.NextPeriod.IsZero()
		}, 30*time.Second, 200*time.Millisecond, l.ID)
		require.True(t, seeded.Before(st.NextPeriod), "%s: next period %v, seeded up to %s", l.ID, st.NextPeriod, l.Period)
	}

	// The demo form offers preset amounts.
	var form struct {
		Amounts []struct{ Amount struct{ Minor int64 } } `json:"amounts"`
	}
	s.Visitor(t).JSON(http.MethodGet, "/api/public/campaigns/dona-demo", nil).Decode(t, &form)
	require.Len(t, form.Amounts, 4)

	// A second run writes nothing and is quick.
	start = time.Now()
	again := run(t, s)
	t.Logf("second seed in %s", time.Since(start).Round(time.Millisecond))
	require.NotContains(t, again, "Demo history")
	var donations int64
	require.NoError(t, scope.QueryRow(ctx, `SELECT count(*) FROM donations WHERE organization_id = $1`, scope.OrgID).Scan(&donations))
	require.EqualValues(t, want.Donations, donations)
}
