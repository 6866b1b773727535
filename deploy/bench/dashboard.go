package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/deploy/seedlarge/largeorg"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
)

// dashboardOptions size the dashboard cases: the large organisation they read is the biggest one
// `make seed-large` left in the AR shard, or, on a fresh stack, one seeded here with these sizes.
type dashboardOptions struct {
	donations, transactions int64
	concurrency             int
	duration                time.Duration
}

// dashboardGoal is issue 19's goal: the endpoint's p99 at most this many times the reference's.
const dashboardGoal = 1.5

// dashboardRounds is how many turns each of a case's two sides gets (paired).
const dashboardRounds = 6

// benchDashboard measures GET /manage/api/dashboard on the large organisation beside one hand-written
// SQL statement aggregating the same rows (raised, new, discarded, visits of the same period).
func benchDashboard(ctx context.Context, cfg *config.Config, t *tenants.Tenants, o dashboardOptions) {
	shard, err := t.Shard("AR")
	if err != nil {
		log.Fatal(err)
	}
	org, donations, transactions, found, err := largeorg.Find(ctx, t.Directory(), shard, "AR")
	if err != nil {
		log.Fatal(err)
	}
	if found {
		fmt.Printf("dashboard data: organisation %s from make seed-large: %d donations, %d transactions\n", org, donations, transactions)
	} else {
		fmt.Printf("dashboard data: seeding %d donations / ~%d transactions (BENCH_DONATIONS, BENCH_TRANSACTIONS)…\n", o.donations, o.transactions)
		r, err := largeorg.Seed(ctx, t, largeorg.Options{Country: "AR", Currency: "ARS", Donations: o.donations,
			Transactions: o.transactions, Campaigns: 20, Batch: 25_000, Workers: 2})
		if err != nil {
			log.Fatal(err)
		}
		org, donations, transactions = r.OrgID, r.Donations, r.Transactions
		fmt.Printf("dashboard data: organisation %s seeded here: %d donations, %d transactions in %s\n",
			org, donations, transactions, r.Took.Round(time.Second))
	}
	hc := signIn(ctx, cfg, t, org, o.concurrency)

	var tz string
	if err := shard.QueryRow(ctx, `SELECT timezone FROM organizations WHERE organization_id = $1`, org).Scan(&tz); err != nil {
		log.Fatal(err)
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		loc = time.UTC
	}
	var campaign uuid.UUID
	if err := shard.QueryRow(ctx, `SELECT id FROM campaigns WHERE organization_id = $1 ORDER BY id LIMIT 1`, org).Scan(&campaign); err != nil {
		log.Fatal(err)
	}
	today := time.Now().In(loc)
	fmt.Printf("%d clients, %s per case and side, in %d turns each, alternating\n", o.concurrency, o.duration, dashboardRounds)
	for _, c := range []struct {
		label    string
		days     int
		campaign bool
	}{{"last 30 days (default)", 30, false}, {"last 365 days", 365, false}, {"last 30 days, one campaign", 30, true}} {
		from := today.AddDate(0, 0, -(c.days - 1)).Format(time.DateOnly)
		to := today.Format(time.DateOnly)
		url := fmt.Sprintf("%s/manage/api/dashboard?from=%s&to=%s", cfg.PublicURL, from, to)
		sql, args := referenceSQL, []any{org, from, to}
		if c.campaign {
			url += "&campaign=" + campaign.String()
			sql, args = referenceCampaignSQL, append(args, campaign)
		}
		api := func() error {
			res, err := hc.Get(url)
			if err != nil {
				return err
			}
			defer res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b, _ := io.ReadAll(res.Body)
				return fmt.Errorf("dashboard: %d %s", res.StatusCode, b)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			return nil
		}
		ref := func() error {
			var raised, newDonations, discarded, visits int64
			return shard.QueryRow(ctx, sql, args...).Scan(&raised, &newDonations, &discarded, &visits)
		}
		got, want := paired(api, ref, o.concurrency, o.duration, dashboardRounds)
		compare("GET /manage/api/dashboard "+c.label, "one SQL aggregate, same rows", got, want)
		ratio := 0.0
		if want.p99 > 0 {
			ratio = float64(got.p99) / float64(want.p99)
		}
		goal(fmt.Sprintf("p99 %s = %.2f× the reference's %s (≤ %.1f×)", got.p99.Round(10*time.Microsecond), ratio,
			want.p99.Round(10*time.Microsecond), dashboardGoal), ratio > 0 && ratio <= dashboardGoal)
	}
}

// referenceSQL is the hand-written aggregate: the widgets' main sums over the same period, in one
// statement, without the series, reasons, pause history, HTTP, session or JSON.
const referenceSQL = `
WITH p AS (
    SELECT ($2::date::timestamp AT TIME ZONE o.timezone) AS s, (($3::date + 1)::timestamp AT TIME ZONE o.timezone) AS e
    FROM organizations o WHERE o.organization_id = $1
)
SELECT (SELECT COALESCE(sum(amount_minor), 0)::bigint FROM transactions, p WHERE organization_id = $1 AND status = 'approved'
          AND COALESCE(charged_at, created_at) >= p.s AND COALESCE(charged_at, created_at) < p.e),
       (SELECT count(*) FROM donations, p WHERE organization_id = $1 AND created_at >= p.s AND created_at < p.e
          AND status NOT IN ('pending', 'rejected')),
       (SELECT count(*) FROM donations, p WHERE organization_id = $1 AND discarded_at >= p.s AND discarded_at < p.e),
       (SELECT COALESCE(sum(visits), 0)::bigint FROM campaign_visits WHERE organization_id = $1 AND day BETWEEN $2::date AND $3::date)`

// referenceCampaignSQL is referenceSQL for one campaign ($4): the charges through their donations.
const referenceCampaignSQL = `
WITH p AS (
    SELECT ($2::date::timestamp AT TIME ZONE o.timezone) AS s, (($3::date + 1)::timestamp AT TIME ZONE o.timezone) AS e
    FROM organizations o WHERE o.organization_id = $1
)
SELECT (SELECT COALESCE(sum(t.amount_minor), 0)::bigint FROM transactions t JOIN donations d
          ON d.organization_id = t.organization_id AND d.id = t.donation_id, p
        WHERE t.organization_id = $1 AND t.status = 'approved' AND d.campaign_id = $4
          AND COALESCE(t.charged_at, t.created_at) >= p.s AND COALESCE(t.charged_at, t.created_at) < p.e),
       (SELECT count(*) FROM donations, p WHERE organization_id = $1 AND campaign_id = $4 AND created_at >= p.s AND created_at < p.e
          AND status NOT IN ('pending', 'rejected')),
       (SELECT count(*) FROM donations, p WHERE organization_id = $1 AND campaign_id = $4 AND discarded_at >= p.s AND discarded_at < p.e),
       (SELECT COALESCE(sum(visits), 0)::bigint FROM campaign_visits WHERE organization_id = $1 AND campaign_id = $4
          AND day BETWEEN $2::date AND $3::date)`

// signIn creates an administrator of org and signs in through Kratos's browser flow on the app's
// origin, returning a client that carries the session cookie.
func signIn(ctx context.Context, cfg *config.Config, t *tenants.Tenants, org uuid.UUID, conns int) *http.Client {
	hc := &http.Client{Timeout: 10 * time.Second}
	kratos := identity.NewKratos(cfg.KratosAdmin, hc)
	keto := identity.NewKeto(cfg.KetoRead, cfg.KetoWrite, hc)
	email := "bench-" + uuid.NewString()[:8] + "@bench.aporta.test"
	password := "Bench-Aporta-2026!"
	user, err := kratos.CreateUser(ctx, identity.NewUser{Email: email, FirstName: "Bench", LastName: "Admin", Password: password, Verified: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := t.AddMembership(ctx, user, org, "administrator"); err != nil {
		log.Fatal(err)
	}
	if err := keto.Grant(ctx, identity.NamespaceOrganization, org.String(), "administrators", user.String()); err != nil {
		log.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: conns}}
	base := cfg.PublicURL + "/.ory/kratos/public"
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/self-service/login/browser", nil)
	req.Header.Set("Accept", "application/json")
	res, err := c.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	var flow struct {
		ID string `json:"id"`
		UI struct {
			Nodes []struct {
				Attributes struct {
					Name  string `json:"name"`
					Value any    `json:"value"`
				} `json:"attributes"`
			} `json:"nodes"`
		} `json:"ui"`
	}
	err = json.NewDecoder(res.Body).Decode(&flow)
	res.Body.Close()
	if err != nil {
		log.Fatal(err)
	}
	var csrf string
	for _, n := range flow.UI.Nodes {
		if n.Attributes.Name == "csrf_token" {
			csrf, _ = n.Attributes.Value.(string)
		}
	}
	body, _ := json.Marshal(map[string]string{"method": "password", "identifier": email, "password": password, "csrf_token": csrf})
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, base+"/self-service/login?flow="+flow.ID, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	res, err = c.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		log.Fatalf("bench login: %d %s", res.StatusCode, b)
	}
	return c
}
