package dashboard_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/dashboard"
	"github.com/aporta/aporta/internal/history"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// fixture writes rows straight into an organisation's shard, as the hand-computed expectations
// below describe them.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	scope tenants.Scope
	loc   *time.Location
}

func newFixture(t *testing.T, s *apitest.Stack, org uuid.UUID) *fixture {
	t.Helper()
	ctx := context.Background()
	scope, err := s.Tenants.ForOrganization(ctx, org)
	require.NoError(t, err)
	// Buenos Aires is UTC-3 all year: the period's edges are 03:00 UTC, which the data straddles.
	require.NoError(t, scope.Exec(ctx, `UPDATE organizations SET timezone = 'America/Argentina/Buenos_Aires' WHERE organization_id = $1`, org))
	loc, err := time.LoadLocation("America/Argentina/Buenos_Aires")
	require.NoError(t, err)
	return &fixture{t: t, ctx: ctx, scope: scope, loc: loc}
}

// at is a local time in the organisation's zone: "2026-03-05 12:00".
func (f *fixture) at(s string) time.Time {
	v, err := time.ParseInLocation("2006-01-02 15:04", s, f.loc)
	require.NoError(f.t, err)
	return v
}

func (f *fixture) exec(sql string, args ...any) {
	f.t.Helper()
	require.NoError(f.t, f.scope.Exec(f.ctx, sql, args...))
}

// write runs a statement that changes donations (or their transactions) the way the application's
// writers do: in a transaction that keeps the dashboard rollup in step (sharddb.Queries.WithRollup).
func (f *fixture) write(donations []uuid.UUID, sql string, args ...any) {
	f.t.Helper()
	require.NoError(f.t, f.scope.Tx(f.ctx, func(tx pgx.Tx) error {
		return sharddb.Store(tx).WithRollup(f.ctx, f.scope.OrgID, donations, func() error {
			_, err := tx.Exec(f.ctx, sql, args...)
			return err
		})
	}))
}

func (f *fixture) campaign(slug string) uuid.UUID { return tenantstest.Campaign(f.t, f.scope, slug) }

type don struct {
	campaign  uuid.UUID
	monthly   bool
	status    string
	created   string
	paused    string // paused_since, local
	reason    string // paused_reason
	discarded string // discarded_at, local
	discardBy string // discard_reason
	agency    *uuid.UUID
}

func (f *fixture) donation(d don) uuid.UUID {
	f.t.Helper()
	id, donor := uuid.New(), uuid.New()
	f.exec(`INSERT INTO donors (organization_id, id, email, first_name, last_name) VALUES ($1, $2, $3, 'Ana', 'Pérez')`,
		f.scope.OrgID, donor, donor.String()+"@donor.test")
	rec := 0
	if d.monthly {
		rec = 1
	}
	opt := func(s string) *time.Time {
		if s == "" {
			return nil
		}
		v := f.at(s)
		return &v
	}
	str := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	f.write([]uuid.UUID{id}, `INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency, recurrence, status,
			created_at, paused_since, paused_reason, discarded_at, discard_reason, agency_id)
		VALUES ($1, $2, $3, $4, 10000, 'ARS', $5, $6, $7, $8, $9, $10, $11, $12)`,
		f.scope.OrgID, id, d.campaign, donor, rec, d.status, f.at(d.created), opt(d.paused), str(d.reason), opt(d.discarded), str(d.discardBy), d.agency)
	return id
}

// agency adds an external team (its donations carry its id).
func (f *fixture) agency(name string) uuid.UUID {
	id := uuid.New()
	f.exec(`INSERT INTO agencies (organization_id, id, name, mode, sync_delay) VALUES ($1, $2, $3, 'live', 0)`, f.scope.OrgID, id, name)
	return id
}

// ago is the local time, to the minute, d before now: pauses relative to the default period (the last 30 days).
func (f *fixture) ago(d time.Duration) string {
	return time.Now().Add(-d).In(f.loc).Format("2006-01-02 15:04")
}

func (f *fixture) tx(donation uuid.UUID, status string, minor int64, currency string, charged string, created string) {
	f.t.Helper()
	var ch *time.Time
	if charged != "" {
		v := f.at(charged)
		ch = &v
	}
	cr := time.Now()
	if created != "" {
		cr = f.at(created)
	}
	f.write([]uuid.UUID{donation}, `INSERT INTO transactions (organization_id, id, donation_id, period, attempt, amount_minor, currency, status, charged_at, created_at)
		VALUES ($1, $2, $3, NULL, 1, $4, $5, $6, $7, $8)`, f.scope.OrgID, uuid.New(), donation, minor, currency, status, ch, cr)
}

// pause and restore record a status change as workflows/collection does (history.Record), at a given time.
func (f *fixture) pause(donation uuid.UUID, reason string, at time.Time) {
	f.version(history.Version{DonationID: donation, Actor: "system", Field: "status", At: at,
		Before: map[string]string{"status": "active"}, After: map[string]string{"status": "paused", "paused_reason": reason}})
}

func (f *fixture) restore(donation uuid.UUID, at time.Time) {
	f.version(history.Version{DonationID: donation, Actor: "system", Field: "status", At: at,
		Before: map[string]string{"status": "paused", "paused_reason": "x"}, After: map[string]string{"status": "active"}})
}

func (f *fixture) version(v history.Version) {
	f.t.Helper()
	require.NoError(f.t, f.scope.Tx(f.ctx, func(tx pgx.Tx) error { return history.Record(f.ctx, sharddb.Store(tx), f.scope.OrgID, v) }))
}

func (f *fixture) visits(campaign uuid.UUID, day string, n int) {
	f.exec(`INSERT INTO campaign_visits (organization_id, campaign_id, day, visits) VALUES ($1, $2, $3::date, $4)`,
		f.scope.OrgID, campaign, day, n)
}

func get(t *testing.T, c *apitest.Client, query string) dashboard.Dashboard {
	t.Helper()
	return apitest.OK[dashboard.Dashboard](t, c, http.MethodGet, "/manage/api/dashboard"+query, nil)
}

func ars(minor int64) money.Amount {
	return money.New(minor, "ARS")
}

func usd(minor int64) money.Amount {
	return money.New(minor, "USD")
}

func ptr[T any](v T) *T { return &v }

func point(d dashboard.Dashboard, bucket string) dashboard.Point {
	for _, p := range d.Series {
		if p.Bucket == bucket {
			return p
		}
	}
	return dashboard.Point{Bucket: "missing " + bucket}
}

// TestWidgetsAgreeWithTheRows builds a known data set and checks every widget against numbers
// computed by hand (the comments give the rows behind each one).
func TestWidgetsAgreeWithTheRows(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	f := newFixture(t, s, admin.OrgID)
	c1, c2 := f.campaign("uno"), f.campaign("dos")
	street := f.agency("Calle") // acquired d2, d7 and d10

	// Period under test: 2026-03-01 … 2026-03-31 in Buenos Aires (03-01 03:00Z … 04-01 03:00Z).
	d1 := f.donation(don{campaign: c1, monthly: true, status: "active", created: "2026-03-05 12:00"})                                                                         // new
	d2 := f.donation(don{campaign: c1, monthly: false, status: "active", created: "2026-03-10 09:00", agency: &street})                                                       // new, one-time
	f.donation(don{campaign: c2, monthly: true, status: "pending", created: "2026-03-11 09:00"})                                                                              // not new: pending
	f.donation(don{campaign: c2, monthly: true, status: "rejected", created: "2026-03-12 09:00"})                                                                             // not new: rejected
	d5 := f.donation(don{campaign: c2, monthly: true, status: "paused", created: "2026-02-20 09:00", paused: "2026-03-15 10:00", reason: "cc_expired"})                       // paused, never restored
	d6 := f.donation(don{campaign: c1, monthly: true, status: "active", created: "2026-02-01 09:00"})                                                                         // paused, restored after 4 days
	d7 := f.donation(don{campaign: c1, monthly: true, status: "active", created: "2026-02-01 10:00", agency: &street})                                                        // paused, restored after 9 days
	f.donation(don{campaign: c2, monthly: true, status: "paused", created: "2026-01-20 09:00", paused: "2026-03-25 10:00", reason: "cc_expired"})                             // paused, no version row
	f.donation(don{campaign: c1, monthly: true, status: "paused", created: "2026-01-25 09:00", paused: "2026-04-02 10:00", reason: "unknown"})                                // paused after the period
	d10 := f.donation(don{campaign: c1, monthly: true, status: "discarded", created: "2026-03-02 09:00", discarded: "2026-03-18 10:00", discardBy: "moved", agency: &street}) // new and discarded
	f.donation(don{campaign: c2, monthly: false, status: "discarded", created: "2026-01-10 09:00", discarded: "2026-03-31 23:30"})                                            // discarded (04-01 02:30Z), no reason
	f.donation(don{campaign: c2, monthly: true, status: "discarded", created: "2026-01-05 09:00", discarded: "2026-04-01 00:30", discardBy: "other"})                         // discarded after the period
	d13 := f.donation(don{campaign: c1, monthly: true, status: "active", created: "2026-03-31 23:59"})                                                                        // new (04-01 02:59Z)
	f.donation(don{campaign: c1, monthly: true, status: "active", created: "2026-02-28 23:30"})                                                                               // not new (03-01 02:30Z)
	d15 := f.donation(don{campaign: c2, monthly: true, status: "paused", created: "2026-01-15 09:00", paused: "2026-03-03 08:00", reason: "cc_expired"})                      // paused with its version row
	f.pause(d5, "cc_expired", f.at("2026-03-15 10:00"))
	f.pause(d6, "by_org", f.at("2026-03-08 10:00"))
	f.restore(d6, f.at("2026-03-12 10:00"))
	f.pause(d7, "donor_request_stop_debit", f.at("2026-03-20 10:00"))
	f.restore(d7, f.at("2026-03-29 10:00"))
	f.pause(d15, "cc_expired", f.at("2026-03-03 08:00"))

	f.tx(d1, "approved", 100000, "ARS", "2026-03-05 12:00", "")
	f.tx(d2, "approved", 50050, "ARS", "2026-03-10 09:05", "")
	f.tx(d5, "approved", 20000, "ARS", "2026-03-01 00:10", "")
	f.tx(d5, "rejected", 20000, "ARS", "2026-03-15 09:00", "")
	f.tx(d6, "approved", 30000, "ARS", "2026-02-28 23:50", "") // before the period
	f.tx(d6, "approved", 30000, "ARS", "2026-03-31 23:00", "")
	f.tx(d7, "refunded", 10000, "ARS", "2026-03-20 09:00", "")
	f.tx(d7, "approved", 10000, "ARS", "", "2026-03-20 09:00") // no charged_at: created_at counts
	f.tx(d10, "pending", 5000, "ARS", "", "2026-03-18 09:00")
	f.tx(d13, "approved", 7000, "USD", "2026-03-31 23:59", "")
	f.tx(d1, "approved", 100000, "ARS", "2026-04-05 12:00", "") // after the period

	f.visits(c1, "2026-03-01", 100)
	f.visits(c1, "2026-03-31", 50)
	f.visits(c1, "2026-04-01", 999)
	f.visits(c1, "2026-02-28", 7)
	f.visits(c2, "2026-03-15", 50)

	// Another organisation's rows in the same shard and period never count.
	other := s.NewOrgAdmin(t, "AR")
	g := newFixture(t, s, other.OrgID)
	oc := g.campaign("otra")
	od := g.donation(don{campaign: oc, monthly: true, status: "discarded", created: "2026-03-05 12:00", discarded: "2026-03-06 10:00", discardBy: "moved"})
	g.tx(od, "approved", 999900, "ARS", "2026-03-05 12:00", "")
	g.pause(od, "cc_expired", g.at("2026-03-05 13:00"))
	g.visits(oc, "2026-03-05", 1000)
	otherAgency := g.agency("Otra calle")

	t.Run("all", func(t *testing.T) {
		d := get(t, admin, "?from=2026-03-01&to=2026-03-31")
		require.Equal(t, dashboard.Period{From: "2026-03-01", To: "2026-03-31", Days: 31, Granularity: "day", Timezone: "America/Argentina/Buenos_Aires"}, d.Period)
		// ARS: 100000 + 50050 + 20000 + 30000 + 10000 = 210050 in 5 charges; USD 7000 in 1.
		require.Equal(t, []dashboard.Raised{{Amount: ars(210050), Transactions: 5}, {Amount: usd(7000), Transactions: 1}}, d.Raised)
		// The one money shape, formatted per §9.
		body := string(admin.JSON(http.MethodGet, "/manage/api/dashboard?from=2026-03-01&to=2026-03-31", nil).Body)
		require.Contains(t, body, `{"amount":{"minor":210050,"currency":"ARS","decimal":"2100.50","formatted":"$ 2.100,50"},"transactions":5}`)
		require.Contains(t, body, `{"amount":{"minor":7000,"currency":"USD","decimal":"70.00","formatted":"US$ 70.00"},"transactions":1}`)
		require.Equal(t, []money.Amount{ars(42010), usd(7000)}, d.Average) // 210050 / 5
		require.EqualValues(t, 4, d.NewDonations)                          // d1, d2, d10, d13
		require.EqualValues(t, 4, d.PausedDonations)                       // d5, d7 (restored after 9 days), d15, the unversioned one; not d6
		require.EqualValues(t, 0, d.PausedInGrace)
		require.EqualValues(t, 2, d.DiscardedDonations) // d10, the one at 23:30 without reason
		require.EqualValues(t, 200, d.Visits)           // 100 + 50 + 50
		require.Equal(t, ptr(0.02), d.Conversion)       // 4 / 200
		require.Equal(t, []dashboard.Reason{{Reason: ptr("cc_expired"), Count: 3}, {Reason: ptr("donor_request_stop_debit"), Count: 1}}, d.PauseReasons)
		require.Equal(t, []dashboard.Reason{{Reason: ptr("moved"), Count: 1}, {Reason: nil, Count: 1}}, d.DiscardReasons)
		require.Len(t, d.Series, 31)
		require.Equal(t, dashboard.Point{Bucket: "2026-03-01", Raised: []money.Amount{ars(20000)}, Visits: 100}, point(d, "2026-03-01"))
		require.Equal(t, dashboard.Point{Bucket: "2026-03-05", Raised: []money.Amount{ars(100000)}, NewDonations: 1}, point(d, "2026-03-05"))
		require.Equal(t, dashboard.Point{Bucket: "2026-03-20", Raised: []money.Amount{ars(10000)}}, point(d, "2026-03-20"))
		require.Equal(t, dashboard.Point{Bucket: "2026-03-31", Raised: []money.Amount{ars(30000), usd(7000)}, NewDonations: 1, Visits: 50}, point(d, "2026-03-31"))
		require.Equal(t, dashboard.Point{Bucket: "2026-03-04", Raised: []money.Amount{}}, point(d, "2026-03-04"))
		require.True(t, d.HasCampaigns)
		require.Equal(t, dashboard.Guide{Name: "create_campaign", Step: 0, Steps: 4, Show: false}, d.CampaignGuide)
	})

	t.Run("campaign", func(t *testing.T) {
		d := get(t, admin, "?from=2026-03-01&to=2026-03-31&campaign="+c1.String())
		require.Equal(t, dashboard.Filters{Campaign: &c1}, d.Filters)
		// c1: d1 100000, d2 50050, d6 30000, d7 10000; USD d13 7000.
		require.Equal(t, []dashboard.Raised{{Amount: ars(190050), Transactions: 4}, {Amount: usd(7000), Transactions: 1}}, d.Raised)
		require.Equal(t, []money.Amount{ars(47513), usd(7000)}, d.Average) // 190050 / 4 = 47512.5, rounded
		require.EqualValues(t, 4, d.NewDonations)
		require.EqualValues(t, 1, d.PausedDonations) // d7
		require.EqualValues(t, 1, d.DiscardedDonations)
		require.EqualValues(t, 150, d.Visits)
		require.Equal(t, ptr(0.0267), d.Conversion) // 4 / 150
		require.Equal(t, []dashboard.Reason{{Reason: ptr("donor_request_stop_debit"), Count: 1}}, d.PauseReasons)
		require.Equal(t, []dashboard.Reason{{Reason: ptr("moved"), Count: 1}}, d.DiscardReasons)
	})

	t.Run("agency", func(t *testing.T) {
		d := get(t, admin, "?from=2026-03-01&to=2026-03-31&agency="+street.String())
		require.Equal(t, dashboard.Filters{Agency: &street}, d.Filters)
		require.Equal(t, []dashboard.Raised{{Amount: ars(60050), Transactions: 2}}, d.Raised) // d2 50050, d7 10000
		require.EqualValues(t, 2, d.NewDonations)                                             // d2, d10
		require.EqualValues(t, 1, d.PausedDonations)                                          // d7
		require.EqualValues(t, 1, d.DiscardedDonations)                                       // d10
		require.Equal(t, []dashboard.Reason{{Reason: ptr("moved"), Count: 1}}, d.DiscardReasons)
		require.EqualValues(t, 0, d.Visits) // street sign-ups come from no visit
		require.Nil(t, d.Conversion)
		require.Equal(t, dashboard.Point{Bucket: "2026-03-10", Raised: []money.Amount{ars(50050)}, NewDonations: 1}, point(d, "2026-03-10"))
		// With the campaign and frequency filters too: the agency's monthly ones on c1.
		d = get(t, admin, "?from=2026-03-01&to=2026-03-31&frequency=monthly&campaign="+c1.String()+"&agency="+street.String())
		require.Equal(t, []dashboard.Raised{{Amount: ars(10000), Transactions: 1}}, d.Raised)
		require.EqualValues(t, 1, d.NewDonations) // d10
	})

	t.Run("one-time", func(t *testing.T) {
		d := get(t, admin, "?from=2026-03-01&to=2026-03-31&frequency=one_time")
		require.Equal(t, dashboard.Filters{Frequency: ptr("one_time")}, d.Filters)
		require.Equal(t, []dashboard.Raised{{Amount: ars(50050), Transactions: 1}}, d.Raised) // d2
		require.EqualValues(t, 1, d.NewDonations)                                             // d2
		require.EqualValues(t, 0, d.PausedDonations)
		require.Equal(t, []dashboard.Reason{}, d.PauseReasons)
		require.EqualValues(t, 1, d.DiscardedDonations) // the one without reason
		require.Equal(t, []dashboard.Reason{{Reason: nil, Count: 1}}, d.DiscardReasons)
		require.EqualValues(t, 200, d.Visits) // visits have no frequency
		require.Equal(t, ptr(0.005), d.Conversion)
	})

	t.Run("monthly series", func(t *testing.T) {
		d := get(t, admin, "?from=2026-01-01&to=2026-06-30&frequency=monthly")
		require.Equal(t, "month", d.Period.Granularity)
		require.Len(t, d.Series, 6)
		require.Equal(t, "2026-01-01", d.Series[0].Bucket)
		require.Equal(t, "2026-06-01", d.Series[5].Bucket)
		// Monthly donations created: Jan d8, d9, d15, the 01-05 discarded one (the 01-10 one is one-time) = 4;
		// Feb d5, d6, d7, the 02-28 23:30 one = 4; Mar d1, d10, d13 (+ pending/rejected excluded) = 3.
		require.EqualValues(t, []int64{4, 4, 3, 0, 0, 0}, []int64{d.Series[0].NewDonations, d.Series[1].NewDonations,
			d.Series[2].NewDonations, d.Series[3].NewDonations, d.Series[4].NewDonations, d.Series[5].NewDonations})
		require.Equal(t, []money.Amount{ars(30000)}, d.Series[1].Raised)             // d6 on 02-28 23:50
		require.Equal(t, []money.Amount{ars(160000), usd(7000)}, d.Series[2].Raised) // 210050 − d2's 50050
		require.Equal(t, []money.Amount{ars(100000)}, d.Series[3].Raised)            // d1 in April
		require.EqualValues(t, 11, d.NewDonations)
		// Pauses Jan–Jun: d5, d7, d15, the unversioned 03-25 one and the 04-02 one, all older than 7 days.
		require.EqualValues(t, 5, d.PausedDonations)
	})

	t.Run("validation", func(t *testing.T) {
		for q, field := range map[string]string{
			"?from=2026-13-01":                "from",
			"?to=yesterday":                   "to",
			"?frequency=weekly":               "frequency",
			"?campaign=abc":                   "campaign",
			"?campaign=" + uuid.NewString():   "campaign",
			"?campaign=" + oc.String():        "campaign", // another organisation's campaign
			"?agency=abc":                     "agency",
			"?agency=" + uuid.NewString():     "agency",
			"?agency=" + otherAgency.String(): "agency", // another organisation's agency
			"?from=2026-03-02&to=2026-03-01":  "to",
			"?from=2010-01-01&to=2026-03-01":  "from",
		} {
			res := admin.JSON(http.MethodGet, "/manage/api/dashboard"+q, nil)
			require.Equal(t, http.StatusUnprocessableEntity, res.Status, q)
			var body struct {
				Error struct {
					Fields map[string]string `json:"fields"`
				} `json:"error"`
			}
			res.Decode(t, &body)
			require.Contains(t, body.Error.Fields, field, q)
		}
		anon := s.NewUser(t, "nobody")
		require.Equal(t, http.StatusForbidden, anon.JSON(http.MethodGet, "/manage/api/dashboard", nil).Status)
	})
}

// TestPauseGrace: within the last 7 days, a pause not yet resumed is "in grace", not counted.
func TestPauseGrace(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	f := newFixture(t, s, admin.OrgID)
	c := f.campaign("gracia")
	now := time.Now()
	young := f.donation(don{campaign: c, monthly: true, status: "paused", created: "2026-01-01 09:00", paused: now.Add(-48 * time.Hour).In(f.loc).Format("2006-01-02 15:04"), reason: "by_org"})
	f.pause(young, "by_org", f.at(now.Add(-48*time.Hour).In(f.loc).Format("2006-01-02 15:04")))
	old := f.donation(don{campaign: c, monthly: true, status: "paused", created: "2026-01-01 09:00", paused: now.Add(-240 * time.Hour).In(f.loc).Format("2006-01-02 15:04"), reason: "cc_invalid_number"})
	f.pause(old, "cc_invalid_number", f.at(now.Add(-240*time.Hour).In(f.loc).Format("2006-01-02 15:04")))
	back := f.donation(don{campaign: c, monthly: true, status: "active", created: "2026-01-01 09:00"})
	f.pause(back, "by_org", now.Add(-72*time.Hour))
	f.restore(back, now.Add(-24*time.Hour))

	d := get(t, admin, "") // default: the last 30 days
	require.Equal(t, 30, d.Period.Days)
	require.Equal(t, now.In(f.loc).Format(time.DateOnly), d.Period.To)
	require.EqualValues(t, 1, d.PausedDonations) // old
	require.EqualValues(t, 1, d.PausedInGrace)   // young
	require.Equal(t, []dashboard.Reason{{Reason: ptr("cc_invalid_number"), Count: 1}}, d.PauseReasons)
	require.Nil(t, d.Conversion) // no visits
	require.Equal(t, []dashboard.Raised{}, d.Raised)
}

// TestPauseWithoutFact: a donation paused outside the collection workflow counts by its paused_since, unless a pause
// fact within a minute of it is the same pause, also when a later fact of the donation is what pause_fact_at holds.
func TestPauseWithoutFact(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	f := newFixture(t, s, admin.OrgID)
	c := f.campaign("sin-hecho")
	now := time.Now().Truncate(time.Minute)
	local := func(t time.Time) string { return t.In(f.loc).Format("2006-01-02 15:04") }
	// Paused ten days ago with its fact, then a second pause recorded two days ago while still paused: its paused_since
	// is half a minute after the first fact, its latest fact far from it.
	twice := f.donation(don{campaign: c, monthly: true, status: "paused", created: "2026-01-01 09:00", reason: "by_org"})
	f.exec(`UPDATE donations SET paused_since = $3 WHERE organization_id = $1 AND id = $2`, f.scope.OrgID, twice,
		now.Add(-240*time.Hour+30*time.Second))
	f.pause(twice, "cc_expired", f.at(local(now.Add(-240*time.Hour))))
	f.pause(twice, "by_org", f.at(local(now.Add(-48*time.Hour))))
	// Paused nine days ago with no version row at all.
	f.donation(don{campaign: c, monthly: true, status: "paused", created: "2026-01-01 09:00",
		paused: local(now.Add(-216 * time.Hour)), reason: "donor_request_stop_debit"})

	d := get(t, admin, "")
	require.EqualValues(t, 2, d.PausedDonations)
	require.EqualValues(t, 0, d.PausedInGrace) // twice's pause two days ago: it counts already
	require.ElementsMatch(t, []dashboard.Reason{{Reason: ptr("cc_expired"), Count: 1}, {Reason: ptr("donor_request_stop_debit"), Count: 1}}, d.PauseReasons)
}

// TestPausesOfOneDonation: a donation paused twice in the period counts once, with the reason of its latest pause
// that counts, never in grace then; a donation whose only pauses were resumed within 7 days is not counted. Without
// a filter and with every pause a fact, dashboard_widgets decides from each fact and its links (0690); with a filter
// it goes through dashboard_pause_counts: both must answer alike, also for a period that ends between two pauses.
func TestPausesOfOneDonation(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	f := newFixture(t, s, admin.OrgID)
	c := f.campaign("dos-pausas")
	day := func(d time.Duration) string { return f.ago(d)[:len(time.DateOnly)] }
	// Paused 20 days ago and restored 10 days later (it counts), paused again 2 days ago (in grace on its own).
	again := f.ago(48 * time.Hour)
	twice := f.donation(don{campaign: c, monthly: true, status: "paused", created: "2026-01-01 09:00", paused: again, reason: "cc_expired"})
	f.pause(twice, "by_org", f.at(f.ago(480*time.Hour)))
	f.restore(twice, f.at(f.ago(240*time.Hour)))
	f.pause(twice, "cc_expired", f.at(again))
	// Paused twice, each time resumed within 7 days: never counts.
	back := f.donation(don{campaign: c, monthly: true, status: "active", created: "2026-01-01 09:00"})
	f.pause(back, "by_org", f.at(f.ago(400*time.Hour)))
	f.restore(back, f.at(f.ago(380*time.Hour)))
	f.pause(back, "cc_expired", f.at(f.ago(100*time.Hour)))
	f.restore(back, f.at(f.ago(90*time.Hour)))
	// Paused 3 days ago, still paused: in grace.
	since := f.ago(72 * time.Hour)
	young := f.donation(don{campaign: c, monthly: true, status: "paused", created: "2026-01-01 09:00", paused: since, reason: "donor_request_stop_debit"})
	f.pause(young, "donor_request_stop_debit", f.at(since))
	// Paused 26 days ago and 15 days ago, each time restored after more than 7 days: both count, the donation once.
	chain := f.donation(don{campaign: c, monthly: true, status: "active", created: "2026-01-01 09:00"})
	f.pause(chain, "cc_invalid_number", f.at(f.ago(624*time.Hour)))
	f.restore(chain, f.at(f.ago(408*time.Hour)))
	f.pause(chain, "cc_expired", f.at(f.ago(360*time.Hour)))
	f.restore(chain, f.at(f.ago(120*time.Hour)))

	for _, query := range []string{"", "?frequency=monthly"} {
		d := get(t, admin, query)
		require.EqualValues(t, 2, d.PausedDonations, query)
		require.EqualValues(t, 1, d.PausedInGrace, query)
		require.ElementsMatch(t, []dashboard.Reason{{Reason: ptr("by_org"), Count: 1}, {Reason: ptr("cc_expired"), Count: 1}}, d.PauseReasons, query)
	}
	// From 26 days ago to 16 days ago: chain's later pause is after the period.
	period := "?from=" + day(624*time.Hour) + "&to=" + day(384*time.Hour)
	for _, query := range []string{period, period + "&frequency=monthly"} {
		d := get(t, admin, query)
		require.EqualValues(t, 2, d.PausedDonations, query)
		require.EqualValues(t, 0, d.PausedInGrace, query)
		require.ElementsMatch(t, []dashboard.Reason{{Reason: ptr("by_org"), Count: 1}, {Reason: ptr("cc_invalid_number"), Count: 1}}, d.PauseReasons, query)
	}
}

// TestPausedAgainInGrace: a donation paused twice within 7 days without a restore between (only its reason
// changed) is in grace once. Its facts' links cannot tell which pause is the latest in grace, so dashboard_widgets
// counts through dashboard_pause_counts without a filter too.
func TestPausedAgainInGrace(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	f := newFixture(t, s, admin.OrgID)
	c := f.campaign("otra-razon")
	latest := f.ago(24 * time.Hour)
	again := f.donation(don{campaign: c, monthly: true, status: "paused", created: "2026-01-01 09:00", paused: latest, reason: "by_org"})
	f.pause(again, "cc_expired", f.at(f.ago(72*time.Hour)))
	f.pause(again, "by_org", f.at(latest))
	for _, query := range []string{"", "?frequency=monthly"} {
		d := get(t, admin, query)
		require.EqualValues(t, 0, d.PausedDonations, query)
		require.EqualValues(t, 1, d.PausedInGrace, query)
	}
}

// TestCampaignGuide: an organisation without campaigns sees the 4-step guide while its step is 0.
func TestCampaignGuide(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "CL")
	d := get(t, admin, "")
	require.False(t, d.HasCampaigns)
	require.Equal(t, dashboard.Guide{Name: "create_campaign", Step: 0, Steps: 4, Show: true}, d.CampaignGuide)
	require.Equal(t, http.StatusOK, admin.JSON(http.MethodPut, "/manage/api/tours/create_campaign/progress", map[string]int{"step": 1}).Status)
	d = get(t, admin, "")
	require.Equal(t, dashboard.Guide{Name: "create_campaign", Step: 1, Steps: 4, Show: false}, d.CampaignGuide)
}

// TestTimezoneChanged: the handler keeps each organisation's time zone between requests; a change made behind
// its back (another replica's settings page) is still the next request's period.
func TestTimezoneChanged(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	f := newFixture(t, s, admin.OrgID)
	require.Equal(t, "America/Argentina/Buenos_Aires", get(t, admin, "").Period.Timezone)
	for _, tz := range []string{"Pacific/Kiritimati", "Pacific/Pago_Pago"} { // UTC+14, UTC-11: never the same day
		f.exec(`UPDATE organizations SET timezone = $2 WHERE organization_id = $1`, admin.OrgID, tz)
		loc, err := time.LoadLocation(tz)
		require.NoError(t, err)
		d := get(t, admin, "")
		require.Equal(t, tz, d.Period.Timezone)
		require.Equal(t, time.Now().In(loc).Format(time.DateOnly), d.Period.To)
	}
}
