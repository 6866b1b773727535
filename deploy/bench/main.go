// Command bench measures Aporta against a running stack and prints each figure beside a reference
// measured in the same run, so the ratio means something on a shared, noisy machine.
//
//	go run ./deploy/bench -duration 10s -concurrency 16
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
)

func main() {
	duration := flag.Duration("duration", 10*time.Second, "how long each case runs")
	concurrency := flag.Int("concurrency", 16, "concurrent clients")
	var dash dashboardOptions
	flag.Int64Var(&dash.donations, "dashboard-donations", 100_000, "donations of the dashboard's organisation when no seed-large one exists")
	flag.Int64Var(&dash.transactions, "dashboard-transactions", 1_200_000, "transactions of the dashboard's organisation when seeded here")
	flag.IntVar(&dash.concurrency, "dashboard-concurrency", 4, "concurrent clients of the dashboard cases")
	skipDashboard := flag.Bool("skip-dashboard", false, "skip the dashboard cases (they seed a large organisation)")
	only := flag.String("only", "", "comma-separated cases to run (readyz, public, create, keto, donors, dashboard); empty: all")
	var donors donorOptions
	flag.IntVar(&donors.donors, "donors", 200, "concurrent donors of the public form's load case (0 skips it)")
	flag.DurationVar(&donors.duration, "donors-duration", time.Minute, "how long the public form's load case starts donations")
	flag.Parse()
	ctx := context.Background()
	cfg, err := config.FromEnv()
	if err == nil {
		err = cfg.DevOnly("bench") // it writes test data straight into the databases
	}
	if err != nil {
		log.Fatal(err)
	}
	cfg.DB.StatementTimeout = 0 // the dashboard cases seed a large organisation in statements of hundreds of thousands of rows
	base := cfg.PublicURL
	t, err := tenants.Open(ctx, cfg.DirectoryDSN, cfg.ShardDSNs, cfg.DB)
	if err != nil {
		log.Fatal(err)
	}
	defer t.Close()
	slug := setup(ctx, t)

	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *concurrency}}
	get := func(url string) func() error {
		return func() error {
			res, err := hc.Get(url)
			if err != nil {
				return err
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("%s: %d", url, res.StatusCode)
			}
			return nil
		}
	}
	// The reference for a tenant-scoped read: the same two lookups (directory route, shard row) as
	// bare pgx queries, without HTTP, routing or JSON.
	bare := func() error {
		var cid, oid uuid.UUID
		var country string
		if err := t.Directory().QueryRow(ctx, `SELECT campaign_id, organization_id, country FROM public_routes WHERE slug = $1`, slug).
			Scan(&cid, &oid, &country); err != nil {
			return err
		}
		pool, err := t.Shard(country)
		if err != nil {
			return err
		}
		var title string
		return pool.QueryRow(ctx, `SELECT c.title FROM campaigns c JOIN organizations o ON o.organization_id = c.organization_id
			WHERE c.organization_id = $1 AND c.id = $2 AND c.published`, oid, cid).Scan(&title)
	}

	fmt.Printf("Aporta benchmarks: %d clients, %s per case, on %s\n", *concurrency, *duration, base)
	fmt.Printf("machine: %d cores, load average %s\n\n", runtime.NumCPU(), loadAverage())
	fmt.Printf("%-44s %12s %10s %10s   %s\n", "case", "req/s", "p50", "p99", "ratio to reference (req/s)")
	picked := func(name string) bool { return *only == "" || slices.Contains(strings.Split(*only, ","), name) }
	if picked("readyz") {
		compare("GET /readyz (probes 11 dependencies)", "GET /healthz (no dependency)",
			run(get(base+"/readyz"), *concurrency, *duration), run(get(base+"/healthz"), *concurrency, *duration))
	}
	if picked("public") {
		compare("GET /api/public/campaigns/{slug}", "bare pgx: route + shard row",
			run(get(base+"/api/public/campaigns/"+slug), *concurrency, *duration), run(bare, *concurrency, *duration))
	}
	if picked("create") {
		benchCreate(ctx, cfg, t, *concurrency, *duration, canBind("127.100.0.1"))
	}
	if picked("keto") {
		benchKeto(ctx, cfg, t, *concurrency, *duration)
	}
	fmt.Println()
	if donors.donors > 0 && picked("donors") {
		donors.refTime = *duration
		benchDonors(ctx, cfg, t, donors)
	}
	if !*skipDashboard && picked("dashboard") {
		dash.duration = *duration
		benchDashboard(ctx, cfg, t, dash)
	}
}

func setup(ctx context.Context, t *tenants.Tenants) string {
	org := tenants.Organization{ID: uuid.New(), Name: "Fundación Benchmark", Country: "AR"}
	if err := t.CreateOrganization(ctx, org, ""); err != nil {
		log.Fatal(err)
	}
	scope, err := t.ForOrganization(ctx, org.ID)
	if err != nil {
		log.Fatal(err)
	}
	id, slug := uuid.New(), "bench-"+uuid.NewString()[:8]
	if err := scope.Exec(ctx, `INSERT INTO campaigns (organization_id, id, slug, title, type, currency, published)
		VALUES ($1, $2, $3, 'Benchmark', 'fundraise', 'ARS', true)`, org.ID, id, slug); err != nil {
		log.Fatal(err)
	}
	if err := t.AddPublicRoute(ctx, slug, tenants.Route{CampaignID: id, OrganizationID: org.ID, Country: "AR"}); err != nil {
		log.Fatal(err)
	}
	return slug
}

type result struct {
	rps      float64
	p50, p99 time.Duration
	errors   int
}

// run calls fn from n goroutines for d and reports throughput and latency percentiles.
func run(fn func() error, n int, d time.Duration) result {
	return summarise(measure(fn, n, d))
}

// paired runs fn and its reference ref for d each, in turns (inTurns), and summarises each over all its turns.
func paired(fn, ref func() error, n int, d time.Duration, rounds int) (result, result) {
	c := inTurns(d, rounds, func(t time.Duration) calls { return measure(fn, n, t) },
		func(t time.Duration) calls { return measure(ref, n, t) })
	return summarise(c[0]), summarise(c[1])
}

// inTurns gives each side d in all, in rounds turns, the side that goes first moving on from round to round, and
// answers what each saw over all its turns: a change of the machine's load during a case (another process, a
// vacuum) then weighs on every side alike, not on whichever ran at the time.
func inTurns(d time.Duration, rounds int, sides ...func(time.Duration) calls) []calls {
	out := make([]calls, len(sides))
	turn := d / time.Duration(rounds)
	for r := range rounds {
		for i := range sides {
			k := (r + i) % len(sides)
			out[k].add(sides[k](turn))
		}
	}
	return out
}

// calls is what a measurement saw: the latency of each call that answered, how many failed, and the time it took.
type calls struct {
	lat  []time.Duration
	errs int
	took time.Duration
}

func (c *calls) add(more calls) {
	c.lat, c.errs, c.took = append(c.lat, more.lat...), c.errs+more.errs, c.took+more.took
}

// measure calls fn from n goroutines for d.
func measure(fn func() error, n int, d time.Duration) calls {
	var mu sync.Mutex
	all := calls{took: d}
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine calls
			for time.Now().Before(deadline) {
				start := time.Now()
				if err := fn(); err != nil {
					if mine.errs++; mine.errs == 1 {
						fmt.Fprintln(os.Stderr, "error:", err)
					}
					continue
				}
				mine.lat = append(mine.lat, time.Since(start))
			}
			mu.Lock()
			all.add(mine)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return all
}

// summarise is the throughput over the time the calls took and the latency percentiles of those that answered.
func summarise(c calls) result {
	slices.Sort(c.lat)
	r := result{rps: float64(len(c.lat)) / c.took.Seconds(), errors: c.errs}
	if len(c.lat) > 0 {
		r.p50, r.p99 = c.lat[len(c.lat)/2], c.lat[len(c.lat)*99/100]
	}
	return r
}

// paced calls fn at a fixed arrival rate (calls per second) for d, each call on its own goroutine at its
// scheduled time whether or not earlier calls have answered (an open loop, as independent users arrive). A call's
// latency counts from its scheduled time, so a call the machine started late counts its wait too; the time taken
// runs until the last answer, so the rate summarised is the rate achieved.
func paced(fn func() error, rate float64, d time.Duration) calls {
	var mu sync.Mutex
	var all calls
	var wg sync.WaitGroup
	interval := time.Duration(float64(time.Second) / rate)
	start := time.Now()
	for at := start; at.Before(start.Add(d)); at = at.Add(interval) {
		time.Sleep(time.Until(at))
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := fn()
			took := time.Since(at)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if all.errs++; all.errs == 1 {
					fmt.Fprintln(os.Stderr, "error:", err)
				}
				return
			}
			all.lat = append(all.lat, took)
		}()
	}
	wg.Wait()
	all.took = time.Since(start)
	return all
}

func compare(name, refName string, r, ref result) {
	ratio := 0.0
	if ref.rps > 0 {
		ratio = r.rps / ref.rps
	}
	beside(name, refName, r, ref, fmt.Sprintf("%.2f× of reference", ratio))
}

// compareLatency prints a case run at the reference's arrival rate (paced) beside the reference: the ratio is of
// p99, as throughput is the rate both were given.
func compareLatency(name, refName string, r, ref result) {
	ratio := 0.0
	if ref.p99 > 0 {
		ratio = float64(r.p99) / float64(ref.p99)
	}
	beside(name, refName, r, ref, fmt.Sprintf("p99 %.2f× the reference's", ratio))
}

func beside(name, refName string, r, ref result, ratio string) {
	row := func(label string, x result) {
		fmt.Printf("%-44s %12.0f %10s %10s", label, x.rps, x.p50.Round(10*time.Microsecond), x.p99.Round(10*time.Microsecond))
		if x.errors > 0 {
			fmt.Printf("   (%d errors)", x.errors)
		}
	}
	row(name, r)
	fmt.Printf("   %s\n", ratio)
	row("  reference: "+refName, ref)
	fmt.Println()
}

// loadAverage is the 1, 5 and 15 minute load averages of the machine ("?" where /proc has none).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

// goal prints whether the case above met its goal, judged on the figures text gives, with the machine's load
// while it ran.
func goal(text string, met bool) {
	verdict := "met"
	if !met {
		verdict = "NOT met"
	}
	fmt.Printf("  goal: %s: %s (load average %s)\n\n", text, verdict, loadAverage())
}
