package dashboard_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
)

// fromRows recomputes the rollup's non-empty rows straight from donations and transactions, and the
// pause facts from the version history (each pause with its first later restore, and the donation's nearest
// pauses before and after it not restored within 7 days: migrations/shard/0690) and each donation's
// latest pause (donations.pause_fact_at), one line per row.
const fromRows = `
SELECT format('raised %s %s %s %s %s %s%s', day, campaign_id, recurrence, currency, sum(amount_minor), count(*), ' agency ' || agency_id)
FROM (SELECT (COALESCE(t.charged_at, t.created_at) AT TIME ZONE o.timezone)::date AS day, d.campaign_id, d.recurrence,
             t.currency, t.amount_minor, d.agency_id
      FROM transactions t
      JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
      JOIN organizations o ON o.organization_id = t.organization_id
      WHERE t.organization_id = $1 AND t.status = 'approved') x
GROUP BY day, campaign_id, recurrence, currency, agency_id
UNION ALL
SELECT format('fees %s %s %s %s %s%s', day, campaign_id, recurrence, currency, sum(amount_minor), ' agency ' || agency_id)
FROM (SELECT (COALESCE(t.charged_at, t.created_at) AT TIME ZONE o.timezone)::date AS day, d.campaign_id, d.recurrence,
             t.currency, f.amount_minor, d.agency_id
      FROM transactions t
      JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
      JOIN transaction_processor_fees f ON f.organization_id = t.organization_id AND f.transaction_id = t.id
      JOIN organizations o ON o.organization_id = t.organization_id
      WHERE t.organization_id = $1 AND t.status = 'approved') x
GROUP BY day, campaign_id, recurrence, currency, agency_id
UNION ALL
SELECT format('new %s %s %s %s %s%s', day, campaign_id, recurrence, currency, count(*), ' agency ' || agency_id)
FROM (SELECT (d.created_at AT TIME ZONE o.timezone)::date AS day, d.campaign_id, d.recurrence, d.currency, d.agency_id
      FROM donations d JOIN organizations o ON o.organization_id = d.organization_id
      WHERE d.organization_id = $1 AND d.status NOT IN ('pending', 'rejected')) x
GROUP BY day, campaign_id, recurrence, currency, agency_id
UNION ALL
SELECT format('discarded %s %s %s %s %s%s', day, campaign_id, recurrence, reason, count(*), ' agency ' || agency_id)
FROM (SELECT (d.discarded_at AT TIME ZONE o.timezone)::date AS day, d.campaign_id, d.recurrence,
             COALESCE(d.discard_reason, '') AS reason, d.agency_id
      FROM donations d JOIN organizations o ON o.organization_id = d.organization_id
      WHERE d.organization_id = $1 AND d.discarded_at IS NOT NULL) x
GROUP BY day, campaign_id, recurrence, reason, agency_id
UNION ALL
SELECT format('pause %s %s %s %s links %s %s', donation_id, paused_at, reason, resumed_at,
              max(paused_at) FILTER (WHERE q) OVER (PARTITION BY donation_id ORDER BY paused_at ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
              min(paused_at) FILTER (WHERE q) OVER (PARTITION BY donation_id ORDER BY paused_at ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING))
FROM (SELECT *, resumed_at IS NULL OR resumed_at > paused_at + interval '168 hours' AS q
      FROM (SELECT v.donation_id, v.created_at AS paused_at, v.after ->> 'paused_reason' AS reason,
                   (SELECT min(r.created_at) FROM donation_versions r
                    WHERE r.organization_id = $1 AND r.donation_id = v.donation_id AND r.field = 'status'
                      AND r.before ->> 'status' = 'paused' AND r.after ->> 'status' = 'active' AND r.created_at > v.created_at) AS resumed_at
            FROM donation_versions v
            WHERE v.organization_id = $1 AND v.field = 'status' AND v.after ->> 'status' = 'paused') facts) pauses
UNION ALL
SELECT format('latest pause %s %s', donation_id, max(created_at))
FROM donation_versions
WHERE organization_id = $1 AND field = 'status' AND after ->> 'status' = 'paused'
GROUP BY donation_id
ORDER BY 1`

// rollup is the same lines read from the rollup tables (the nil agency is no agency's).
const rollup = `
SELECT format('raised %s %s %s %s %s %s%s', day, campaign_id, recurrence, currency, raised_minor, raised_count, ' agency ' || NULLIF(agency_id, '00000000-0000-0000-0000-000000000000'))
FROM dashboard_daily WHERE organization_id = $1 AND raised_count <> 0
UNION ALL
SELECT format('fees %s %s %s %s %s%s', day, campaign_id, recurrence, currency, processor_fees_minor, ' agency ' || NULLIF(agency_id, '00000000-0000-0000-0000-000000000000'))
FROM dashboard_daily WHERE organization_id = $1 AND processor_fees_minor <> 0
UNION ALL
SELECT format('new %s %s %s %s %s%s', day, campaign_id, recurrence, currency, new_donations, ' agency ' || NULLIF(agency_id, '00000000-0000-0000-0000-000000000000'))
FROM dashboard_daily WHERE organization_id = $1 AND new_donations <> 0
UNION ALL
SELECT format('discarded %s %s %s %s %s%s', day, campaign_id, recurrence, reason, donations, ' agency ' || NULLIF(agency_id, '00000000-0000-0000-0000-000000000000'))
FROM dashboard_daily_discards WHERE organization_id = $1 AND donations <> 0
UNION ALL
SELECT format('pause %s %s %s %s links %s %s', donation_id, paused_at, reason, resumed_at, prev_q_at, next_q_at)
FROM dashboard_pauses WHERE organization_id = $1
UNION ALL
SELECT format('latest pause %s %s', id, pause_fact_at)
FROM donations WHERE organization_id = $1 AND pause_fact_at IS NOT NULL
ORDER BY 1`

func (f *fixture) lines(sql string) []string {
	f.t.Helper()
	var out []string
	require.NoError(f.t, f.scope.Tx(f.ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(f.ctx, sql, f.scope.OrgID)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	}))
	return out
}

func ids(donations ...uuid.UUID) []uuid.UUID { return donations }

func (f *fixture) agrees() []string {
	f.t.Helper()
	want := f.lines(fromRows)
	require.Equal(f.t, want, f.lines(rollup))
	return want
}

// TestRollupMatchesRows writes a mixed series the way the application's writers do, each in a
// transaction that keeps the rollup (sharddb.Queries.WithRollup), (donation form:
// pending donation then its first charge; collection: pending charge settled, approved or
// rejected; refunds; pause and restore; discard through the manage API; conversion to monthly;
// bulk statements) and checks after each step that the rollup equals a recomputation from the rows.
func TestRollupMatchesRows(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	f := newFixture(t, s, admin.OrgID)
	c1, c2 := f.campaign("uno"), f.campaign("dos")
	org := f.scope.OrgID

	// Donation form: a pending donation whose first charge is approved, one whose charge is refused.
	d1 := f.donation(don{campaign: c1, monthly: true, status: "pending", created: "2026-03-05 23:30"})
	f.tx(d1, "pending", 10000, "ARS", "", "2026-03-05 23:30")
	f.write(ids(d1), `UPDATE transactions SET status = 'approved', charged_at = $2 WHERE organization_id = $1 AND donation_id = $3`, org, f.at("2026-03-06 00:10"), d1)
	f.write(ids(d1), `UPDATE donations SET status = 'active' WHERE organization_id = $1 AND id = $2`, org, d1)
	d2 := f.donation(don{campaign: c2, monthly: true, status: "pending", created: "2026-03-05 10:00"})
	f.tx(d2, "pending", 20000, "ARS", "", "2026-03-05 10:00")
	f.write(ids(d2), `UPDATE transactions SET status = 'rejected', charged_at = now() WHERE organization_id = $1 AND donation_id = $2`, org, d2)
	f.write(ids(d2), `UPDATE donations SET status = 'rejected' WHERE organization_id = $1 AND id = $2`, org, d2)
	lines := f.agrees()
	require.Contains(t, lines, fmt.Sprintf("raised 2026-03-06 %s 1 ARS 10000 1", c1)) // charged after local midnight
	require.Contains(t, lines, fmt.Sprintf("new 2026-03-05 %s 1 ARS 1", c1))

	// Collection: a month of charges in one statement, some approved, one rejected; then a refund.
	d3 := f.donation(don{campaign: c2, monthly: true, status: "active", created: "2026-01-10 09:00"})
	d4 := f.donation(don{campaign: c1, monthly: false, status: "active", created: "2026-03-10 09:00"})
	f.write(ids(d3, d4), `INSERT INTO transactions (organization_id, id, donation_id, period, attempt, amount_minor, currency, status, charged_at, created_at)
		SELECT $1, gen_random_uuid(), d, NULL, 1, 5000 * n, 'ARS', CASE WHEN n = 3 THEN 'rejected' ELSE 'approved' END,
		       $4::timestamptz + n * interval '1 day', $4::timestamptz
		FROM unnest(ARRAY[$2::uuid, $3::uuid]) AS d, generate_series(1, 3) AS n`, org, d3, d4, f.at("2026-03-15 12:00"))
	f.tx(d1, "approved", 7000, "USD", "2026-03-20 12:00", "")
	f.write(ids(d3), `UPDATE transactions SET status = 'refunded' WHERE organization_id = $1 AND donation_id = $2 AND amount_minor = 5000`, org, d3)
	f.agrees()

	// Pause resumed within 7 days, pause never resumed (they do not touch the money), a discard
	// through the manage API and one written directly without a reason.
	f.write(ids(d1), `UPDATE donations SET status = 'paused', paused_reason = 'by_org', paused_since = $3 WHERE organization_id = $1 AND id = $2`, org, d1, f.at("2026-03-21 10:00"))
	f.pause(d1, "by_org", f.at("2026-03-21 10:00"))
	f.write(ids(d1), `UPDATE donations SET status = 'active', paused_reason = NULL, paused_since = NULL WHERE organization_id = $1 AND id = $2`, org, d1)
	f.restore(d1, f.at("2026-03-24 10:00"))
	f.write(ids(d3), `UPDATE donations SET status = 'paused', paused_reason = 'cc_expired', paused_since = $3 WHERE organization_id = $1 AND id = $2`, org, d3, f.at("2026-03-22 10:00"))
	f.pause(d3, "cc_expired", f.at("2026-03-22 10:00"))
	// d3 paused again while paused (only its reason changes), then restored within 7 days of both pauses: neither
	// counts any more, so their links move to its next pause.
	f.pause(d3, "by_org", f.at("2026-03-23 10:00"))
	lines = f.agrees()
	require.Contains(t, lines, fmt.Sprintf("pause %s 2026-03-22 13:00:00+00 cc_expired  links  2026-03-23 13:00:00+00", d3))
	f.restore(d3, f.at("2026-03-25 10:00"))
	f.pause(d3, "by_org", f.at("2026-04-10 10:00"))
	lines = f.agrees()
	require.Contains(t, lines, fmt.Sprintf("pause %s 2026-03-22 13:00:00+00 cc_expired 2026-03-25 13:00:00+00 links  2026-04-10 13:00:00+00", d3))
	res := admin.JSON(http.MethodPost, "/manage/api/donations/"+d4.String()+"/discard", map[string]any{"reason": "donor_request"})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	f.donation(don{campaign: c2, monthly: false, status: "discarded", created: "2026-02-01 09:00", discarded: "2026-03-25 22:00"})
	lines = f.agrees()
	today := time.Now().In(f.loc).Format(time.DateOnly)
	require.Contains(t, lines, fmt.Sprintf("discarded %s %s 0 donor_request 1", today, c1))

	// A one-time donation converted to monthly (by a writer that names it twice: counted once) and moved
	// to another campaign takes its money along; a deleted charge takes its money back.
	d5 := f.donation(don{campaign: c1, monthly: false, status: "active", created: "2026-03-26 09:00"})
	f.tx(d5, "approved", 3000, "ARS", "2026-03-26 09:00", "")
	f.write(ids(d5, d5), `UPDATE donations SET recurrence = 1 WHERE organization_id = $1 AND id = $2`, org, d5)
	f.write(ids(d5), `UPDATE donations SET campaign_id = $3 WHERE organization_id = $1 AND id = $2`, org, d5, c2)
	f.write(ids(d3), `DELETE FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND amount_minor = 15000`, org, d3)
	lines = f.agrees()
	require.Contains(t, lines, fmt.Sprintf("raised 2026-03-26 %s 1 ARS 3000 1", c2))

	// Charges through an integrated payments processor, recorded as the application does (charge.Record):
	// the day's row sums their fees; a refunded one's fee leaves with its money.
	global := &charge.Processor{ID: uuid.New(), Family: "global_payments", Descriptor: "APORTA*DEMO", FeeBps: 549}
	d7 := f.donation(don{campaign: c2, monthly: false, status: "active", created: "2026-03-27 10:00"})
	d8 := f.donation(don{campaign: c2, monthly: false, status: "active", created: "2026-03-27 11:00"})
	for i, d := range ids(d7, d8) {
		require.NoError(t, charge.Record(f.ctx, f.scope, charge.Transaction{OrgID: org, ID: uuid.New(), DonationID: d, Attempt: 1,
			Amount: 20000, Currency: "ARS"}, charge.Outcome{Status: gateway.StatusApproved, PaymentID: fmt.Sprintf("D-%d", i),
			At: f.at("2026-03-27 12:00"), Processor: global}))
	}
	require.Contains(t, f.agrees(), fmt.Sprintf("fees 2026-03-27 %s 0 ARS 2196", c2)) // 5.49 % of 200.00, twice
	f.write(ids(d8), `UPDATE transactions SET status = 'refunded' WHERE organization_id = $1 AND donation_id = $2`, org, d8)
	require.Contains(t, f.agrees(), fmt.Sprintf("fees 2026-03-27 %s 0 ARS 1098", c2))
	require.Equal(t, []money.Amount{money.New(1098, "ARS")}, get(t, admin, "?from=2026-03-27&to=2026-03-27").ProcessorFees)
	require.Empty(t, get(t, admin, "?from=2026-03-26&to=2026-03-26").ProcessorFees, "a day without processor charges")

	// An agency's donation (synced from the street) counts under its agency, beside the form's of the
	// same day, campaign and frequency; its discard too.
	street := f.agency("Calle")
	d9 := f.donation(don{campaign: c2, monthly: true, status: "active", created: "2026-03-26 10:00", agency: &street})
	f.tx(d9, "approved", 3000, "ARS", "2026-03-26 10:00", "")
	lines = f.agrees()
	require.Contains(t, lines, fmt.Sprintf("raised 2026-03-26 %s 1 ARS 3000 1 agency %s", c2, street))
	f.write(ids(d9), `UPDATE donations SET status = 'discarded', discarded_at = $3, discard_reason = 'donor_request' WHERE organization_id = $1 AND id = $2`,
		org, d9, f.at("2026-03-27 10:00"))
	lines = f.agrees()
	require.Contains(t, lines, fmt.Sprintf("discarded 2026-03-27 %s 1 donor_request 1 agency %s", c2, street))

	// Another organisation's writes and a time-zone change (days move) keep both right.
	other := s.NewOrgAdmin(t, "AR")
	g := newFixture(t, s, other.OrgID)
	od := g.donation(don{campaign: g.campaign("otra"), monthly: true, status: "active", created: "2026-03-05 12:00"})
	g.tx(od, "approved", 999900, "ARS", "2026-03-05 12:00", "")
	g.agrees()
	require.NoError(t, f.scope.Tx(f.ctx, func(tx pgx.Tx) error { // as api/organization changes it
		q := sharddb.Store(tx)
		if err := q.UpdateOrganizationTimezone(f.ctx, sharddb.UpdateOrganizationTimezoneParams{OrganizationID: org, Timezone: "UTC"}); err != nil {
			return err
		}
		return q.RebuildRollup(f.ctx, org)
	}))
	lines = f.agrees()
	require.Contains(t, lines, fmt.Sprintf("raised 2026-03-06 %s 1 ARS 10000 1", c1))
	require.Contains(t, lines, fmt.Sprintf("fees 2026-03-27 %s 0 ARS 1098", c2), "the rebuild keeps the fees")

	// A charge and a conversion of its donation in two concurrent transactions: the conversion waits
	// for the charge to commit, so it moves the charge's money too.
	d6 := f.donation(don{campaign: c1, monthly: false, status: "active", created: "2026-03-20 09:00"})
	inserted, release := make(chan struct{}), make(chan struct{})
	charged := make(chan error, 1)
	go func() {
		charged <- f.scope.Tx(f.ctx, func(tx pgx.Tx) error {
			return sharddb.Store(tx).WithRollup(f.ctx, org, ids(d6), func() error {
				_, err := tx.Exec(f.ctx, `INSERT INTO transactions (organization_id, id, donation_id, attempt, amount_minor, currency, status, charged_at)
					VALUES ($1, $2, $3, 1, 6000, 'ARS', 'approved', $4)`, org, uuid.New(), d6, f.at("2026-03-27 09:00"))
				close(inserted)
				<-release
				return err
			})
		})
	}()
	<-inserted
	converted := make(chan struct{})
	go func() {
		defer close(converted)
		f.write(ids(d6), `UPDATE donations SET recurrence = 1 WHERE organization_id = $1 AND id = $2`, org, d6)
	}()
	time.Sleep(300 * time.Millisecond) // the conversion is waiting for the charge's lock
	close(release)
	require.NoError(t, <-charged)
	<-converted
	lines = f.agrees()
	require.Contains(t, lines, fmt.Sprintf("raised 2026-03-27 %s 1 ARS 6000 1", c1))

	// A bulk loader writes its rows without the rollup and rebuilds the organisation afterwards.
	f.exec(`INSERT INTO transactions (organization_id, id, donation_id, attempt, amount_minor, currency, status, charged_at)
		VALUES ($1, $2, $3, 1, 4000, 'ARS', 'approved', now())`, org, uuid.New(), d5)
	f.exec(`INSERT INTO donation_versions (organization_id, id, donation_id, actor, field, before, after, created_at)
		VALUES ($1, $2, $3, 'system', 'status', '{"status":"active"}', '{"status":"paused","paused_reason":"by_org"}', $4)`,
		org, uuid.New(), d5, f.at("2026-03-28 10:00"))
	require.NotEqual(t, f.lines(fromRows), f.lines(rollup))
	f.exec(`SELECT dashboard_rollup_rebuild($1)`, org)
	f.agrees()
}

// TestRollupWritersDoNotDeadlock runs writers of one organisation's donations at once, as the demo
// seed and collection do: each charges its donations on days all over the year, in no order, moves
// them between two campaigns (every day of their money changes rows) and discards them. Rollup
// writers lock the rows they change in one order (migrations/shard/0330), so none deadlocks (no
// error, no retry), and the rollup still equals the rows.
func TestRollupWritersDoNotDeadlock(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	f := newFixture(t, s, admin.OrgID)
	org := f.scope.OrgID
	campaigns := []uuid.UUID{f.campaign("uno"), f.campaign("dos")}
	const writers, each, steps = 8, 2, 12
	donations := make([][]uuid.UUID, writers)
	for w := range donations {
		for i := range each {
			donations[w] = append(donations[w], f.donation(don{campaign: campaigns[i%2], monthly: true, status: "active",
				created: fmt.Sprintf("2026-01-%02d 09:00", 1+(w*each+i)%3)}))
		}
	}
	errs := make(chan error, writers)
	for w, mine := range donations {
		go func() {
			rnd := rand.New(rand.NewPCG(uint64(w), 18))
			write := func(d uuid.UUID, sql string, args ...any) error {
				return f.scope.Tx(f.ctx, func(tx pgx.Tx) error {
					return sharddb.Store(tx).WithRollup(f.ctx, org, ids(d), func() error {
						_, err := tx.Exec(f.ctx, sql, args...)
						return err
					})
				})
			}
			for step := range steps {
				d := mine[rnd.IntN(len(mine))]
				var err error
				if step%4 == 3 {
					err = write(d, `UPDATE donations SET campaign_id = $3 WHERE organization_id = $1 AND id = $2`, org, d, campaigns[rnd.IntN(2)])
				} else {
					at := f.at(fmt.Sprintf("2026-%02d-%02d 12:00", 1+rnd.IntN(4), 1+rnd.IntN(3)))
					err = write(d, `INSERT INTO transactions (organization_id, id, donation_id, attempt, amount_minor, currency, status, charged_at)
						VALUES ($1, $2, $3, 1, $4, 'ARS', 'approved', $5)`, org, uuid.New(), d, 1000+rnd.Int64N(9000), at)
				}
				if err != nil {
					errs <- fmt.Errorf("writer %d step %d: %w", w, step, err)
					return
				}
			}
			errs <- write(mine[0], `UPDATE donations SET status = 'discarded', discarded_at = $3, discard_reason = 'donor_request'
				WHERE organization_id = $1 AND id = $2`, org, mine[0], f.at(fmt.Sprintf("2026-%02d-15 10:00", 1+rnd.IntN(12))))
		}()
	}
	for range writers {
		require.NoError(t, <-errs)
	}
	raised, discarded := 0, 0
	for _, l := range f.agrees() {
		fields := strings.Fields(l)
		switch fields[0] {
		case "raised":
			n, err := strconv.Atoi(fields[len(fields)-1])
			require.NoError(t, err)
			raised += n
		case "discarded":
			n, err := strconv.Atoi(fields[len(fields)-1])
			require.NoError(t, err)
			discarded += n
		}
	}
	require.Equal(t, writers*(steps-steps/4), raised)
	require.Equal(t, writers, discarded)
}
