// Command benchcollect charges N monthly donations due on the same day (issue 5 "Proof" asks for
// 10,000) through the real Temporal server of the stack it runs against, the organisation's shard and
// the sandbox gateway, with the collection worker in this process, and prints charges per second
// beside the same server running N workflows of one no-op activity each (same worker options, same
// count, same run), plus the worker's memory. It does so on each Temporal store of the stack: the
// dev server (SQLite), and under deploy/stack.sh bench also Temporal server on PostgreSQL (issue 17),
// each store with an organisation of its own, and ends with a table of both.
//
// It takes the stack from the environment (deploy/stack.sh: APORTA_TEMPORAL_ADDR,
// APORTA_TEMPORAL_PG_ADDR, APORTA_DIRECTORY_DSN, APORTA_SHARD_DSNS…). The gateway is, by default, the sandbox's own code
// served in memory on a local port by this process; -gateway-url=stack uses the stack's sandboxgw
// process instead (its state journal adds one short file append per change).
//
//	go run ./deploy/benchcollect -donations 10000
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/aporta/aporta/deploy/benchkit"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
)

const tz = "America/Argentina/Buenos_Aires"

func main() {
	n := flag.Int("donations", 10000, "monthly donations due today (and no-op workflows for the reference) on each Temporal store")
	gwFlag := flag.String("gateway-url", "memory", `"memory" (the sandbox in this process), "stack" ($APORTA_GATEWAY_URL) or a URL`)
	starters := flag.Int("starters", 32, "goroutines starting workflows")
	pollers := flag.Int("pollers", 8, "workflow and activity task pollers of the worker (both runs)")
	only := flag.String("store", "both", `"both", "postgresql" (Temporal server on PostgreSQL) or "dev" (the dev server): which Temporal stores to run`)
	timeout := flag.Duration("timeout", 0, "give up a run after this long (default: 10 minutes, or 0.3 s per donation when that is longer)")
	flag.StringVar(&cpuProfile, "cpuprofile", "", "write this process's CPU profile of the (first store's) collection case to this file, for go tool pprof")
	flag.Parse()
	if *timeout == 0 {
		*timeout = max(10*time.Minute, time.Duration(*n)*300*time.Millisecond)
	}
	if err := run(*n, *gwFlag, *only, *starters, *pollers, *timeout); err != nil {
		log.Fatal("benchcollect: ", err)
	}
}

// cpuProfile is -cpuprofile: profile the first collection case into it (then cleared).
var cpuProfile string

// profile starts the CPU profile of a collection case when -cpuprofile asks for one; stop ends it.
func profile() (stop func() error, err error) {
	if cpuProfile == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(cpuProfile)
	if err != nil {
		return nil, err
	}
	cpuProfile = ""
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error { pprof.StopCPUProfile(); return f.Close() }, nil
}

// store is a Temporal server the bench runs on: the stack's dev server, and with deploy/stack.sh bench
// (APORTA_TEMPORAL_PG_ADDR) Temporal server on PostgreSQL as well.
type store struct{ name, addr string }

// result is one store's figures; rate 0 means the case timed out.
type result struct {
	store            store
	collect, noop    float64 // per second
	loadBefore, load string  // load averages when the store's cases began and ended
}

func run(n int, gwFlag, only string, starters, pollers int, timeout time.Duration) error {
	ctx := context.Background()
	began := time.Now()
	cfg, err := config.FromEnv()
	if err == nil {
		err = cfg.DevOnly("benchcollect") // it writes test data straight into the databases
	}
	if err != nil {
		return err
	}
	tt, err := tenants.Open(ctx, cfg.DirectoryDSN, cfg.ShardDSNs, cfg.DB)
	if err != nil {
		return err
	}
	defer tt.Close()

	gwURL, gwName := gwFlag, gwFlag
	switch gwFlag {
	case "memory":
		sb, err := sandbox.New(sandbox.Options{Currency: "ARS"})
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		go http.Serve(ln, sb) //nolint:errcheck // ends with the process
		gwURL, gwName = "http://"+ln.Addr().String(), "sandbox in memory, this process"
	case "stack":
		gwURL, gwName = os.Getenv("APORTA_GATEWAY_URL"), "stack sandboxgw"
	}
	// The production store first: the dev server's cases take several times as long.
	var stores []store
	if addr := os.Getenv("APORTA_TEMPORAL_PG_ADDR"); addr != "" && only != "dev" {
		stores = append(stores, store{"Temporal server (PostgreSQL, 16 shards)", addr})
	}
	if only != "postgresql" {
		stores = append(stores, store{"dev server (SQLite)", cfg.TemporalAddr})
	}
	if len(stores) == 0 {
		return fmt.Errorf("-store %q: no such Temporal store in this stack (APORTA_TEMPORAL_PG_ADDR is set by deploy/stack.sh bench)", only)
	}
	fmt.Printf("Collection benchmark: %d monthly donations due today on each of %d Temporal stores, gateway %s, GOMAXPROCS %d\n",
		n, len(stores), gwName, runtime.GOMAXPROCS(0))
	var results []result
	for _, s := range stores {
		r := result{store: s, loadBefore: loadAvg()}
		c, err := client.Dial(client.Options{HostPort: s.addr, Namespace: cfg.TemporalNS, Logger: quiet{}})
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Printf("\n== %s at %s (load average %s)\n", s.name, s.addr, r.loadBefore)
		r.collect, r.noop, err = measure(ctx, cfg, tt, c, gwURL, n, starters, pollers, timeout)
		c.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		r.load = loadAvg()
		results = append(results, r)
	}
	fmt.Printf("\n%-42s %12s %12s %8s   %s\n", fmt.Sprintf("collection at %d due donations", n), "charges/s", "no-op/s", "ratio", "load average (start → end)")
	for _, r := range results {
		ratio := "n/a"
		if r.collect > 0 && r.noop > 0 {
			ratio = fmt.Sprintf("%.2f×", r.collect/r.noop)
		}
		fmt.Printf("%-42s %12.1f %12.1f %8s   %s → %s\n", r.store.name, r.collect, r.noop, ratio, r.loadBefore, r.load)
	}
	fmt.Printf("  total %s\n\n", time.Since(began).Round(time.Second))
	return nil
}

// measure seeds n due donations of a new organisation, charges them through Temporal client c, then runs
// the reference on the same server, and returns both rates per second (collection 0 on a timeout).
func measure(ctx context.Context, cfg *config.Config, tt *tenants.Tenants, c client.Client, gwURL string, n, starters, pollers int,
	timeout time.Duration) (collect, noop float64, err error) {
	began := time.Now()
	// The organisation charges through its own account at that gateway, connected by OAuth, and the
	// workers look the connection up per charge as in production.
	org := uuid.New()
	if err := tt.CreateOrganization(ctx, tenants.Organization{ID: org, Name: "Bench collection " + strconv.Itoa(n), Country: "AR", Status: "enabled"}, tz); err != nil {
		return 0, 0, err
	}
	orgScope, err := tt.ForOrganization(ctx, org)
	if err != nil {
		return 0, 0, err
	}
	store, _, err := sandboxauth.ConnectAt(ctx, cfg, gwURL, orgScope, "BENCH"+strings.ToUpper(org.String()[:8]))
	if err != nil {
		return 0, 0, fmt.Errorf("connect the gateway: %w", err)
	}
	clients := &connections.Clients{Store: store, Tenants: tt, BaseURL: gwURL}
	gw, conn, err := clients.ForOrganization(ctx, org, connections.MercadoPago, "ARS")
	if err != nil {
		return 0, 0, err
	}
	if err := seed(ctx, tt, gw, gwURL, conn.PublicKey, org, n); err != nil {
		return 0, 0, fmt.Errorf("seed: %w", err)
	}
	fmt.Printf("  seeded %d donors, cards and donations (COPY) in %s\n", n, time.Since(began).Round(100*time.Millisecond))

	// Collection's own limits (collection.WorkerOptions), for the reference too.
	wopts := collection.WorkerOptions(worker.Options{
		MaxConcurrentWorkflowTaskPollers: pollers, MaxConcurrentActivityTaskPollers: pollers,
	}, cfg.DB.MaxConns)

	// --- collection ---
	queue := "bench-collection-" + uuid.NewString()[:8]
	w := worker.New(c, queue, wopts)
	collection.Register(w, tt, charge.Connected(clients, nil))
	if err := w.Start(); err != nil {
		return 0, 0, err
	}
	stopProfile, err := profile()
	if err != nil {
		return 0, 0, err
	}
	mem, stackCPU := startMemSampler(), startCPUSampler()
	t0 := time.Now()
	startErr := startAll(n, starters, func(i int) error {
		return retryStart(func() error {
			_, err := collection.Start(ctx, c, queue, collection.Input{OrganizationID: org.String(), DonationID: donationID(org, i).String()})
			return err
		})
	})
	started := time.Since(t0)
	if startErr != nil {
		return 0, 0, startErr
	}
	approved := 0
	for deadline := t0.Add(timeout); approved < n; time.Sleep(250 * time.Millisecond) {
		if time.Now().After(deadline) {
			fmt.Printf("  TIMEOUT: only %d of %d first charges approved after %s (%.1f per s); the reference is not run\n",
				approved, n, timeout, float64(approved)/time.Since(t0).Seconds())
			w.Stop()
			stackCPU.stop()
			return 0, 0, stopProfile()
		}
		if err := orgScope.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND status = 'approved'`, org).Scan(&approved); err != nil {
			return 0, 0, err
		}
	}
	collectTook := time.Since(t0)
	collectMem, collectCPU := mem.stop(), stackCPU.stop()
	if err := stopProfile(); err != nil {
		return 0, 0, err
	}
	w.Stop()
	var sbPayments int
	if ps, err := benchkit.Payments(ctx, gwURL); err == nil {
		sbPayments = len(ps)
	}

	// --- reference: one no-op activity per workflow ---
	var ran atomic.Int64
	rq := "bench-noop-" + uuid.NewString()[:8]
	rw := worker.New(c, rq, wopts)
	rw.RegisterWorkflowWithOptions(noopWorkflow, workflow.RegisterOptions{Name: "BenchNoop"})
	rw.RegisterActivityWithOptions(func(context.Context) error { ran.Add(1); return nil }, activityOptions("BenchNoopActivity"))
	if err := rw.Start(); err != nil {
		return 0, 0, err
	}
	defer rw.Stop()
	mem, stackCPU = startMemSampler(), startCPUSampler()
	t1 := time.Now()
	prefix := "bench-noop/" + uuid.NewString()[:8] + "/"
	if err := startAll(n, starters, func(i int) error {
		return retryStart(func() error {
			_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: prefix + strconv.Itoa(i), TaskQueue: rq,
				WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, "BenchNoop")
			return err
		})
	}); err != nil {
		return 0, 0, err
	}
	refStarted := time.Since(t1)
	for deadline := t1.Add(timeout); ran.Load() < int64(n); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			return 0, 0, fmt.Errorf("reference: %d of %d activities ran after %s", ran.Load(), n, timeout)
		}
	}
	refTook := time.Since(t1)
	refMem, refCPU := mem.stop(), stackCPU.stop()

	cps, rps := float64(n)/collectTook.Seconds(), float64(n)/refTook.Seconds()
	fmt.Printf("%-58s %10s %10s %12s %12s %10s   %s\n", "case", "per s", "took", "peak RSS", "peak heap", "CPU each", "ratio to reference")
	fmt.Printf("%-58s %10.1f %10s %12s %12s %10s   %.2f× of reference\n",
		fmt.Sprintf("collection: %d first charges approved", n), cps, collectTook.Round(100*time.Millisecond),
		mib(collectMem.rss), mib(collectMem.heap), cpuEach(collectMem.cpu, n), cps/rps)
	fmt.Printf("%-58s %10.1f %10s %12s %12s %10s\n",
		fmt.Sprintf("  reference: %d workflows of one no-op activity", n), rps, refTook.Round(100*time.Millisecond),
		mib(refMem.rss), mib(refMem.heap), cpuEach(refMem.cpu, n))
	fmt.Printf("  CPU per workflow by process, collection: %s\n", cpuByPart(collectCPU, n))
	fmt.Printf("  CPU per workflow by process, reference:  %s\n", cpuByPart(refCPU, n))
	fmt.Printf("  (starting the workflows took %s for collection, %s for the reference; sandbox payments: %d;\n"+
		"   memory and CPU are this whole process's: worker + starter + in-memory sandbox; collection runs per donation, in its first\n"+
		"   workflow task, two local activities: open (load; the row says its next charge date already) and the charge, which also\n"+
		"   writes the approved period's row)\n", started.Round(100*time.Millisecond), refStarted.Round(100*time.Millisecond), sbPayments)
	return cps, rps, nil
}

// loadAvg is the machine's 1, 5 and 15 minute load averages: the bench shares its cores.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "n/a"
}

func activityOptions(name string) activity.RegisterOptions {
	return activity.RegisterOptions{Name: name}
}

func noopWorkflow(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second},
	})
	return workflow.ExecuteActivity(ctx, "BenchNoopActivity").Get(ctx, nil)
}

func startAll(n, goroutines int, start func(i int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := start(i); err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("start %d: %w", i, err)
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// retryStart retries a start the server did not answer: on a loaded machine a burst of starts can
// outlast the client's RPC deadline. Both cases start idempotently (an id already running is joined),
// so a start that did land is not doubled.
func retryStart(start func() error) error {
	var err error
	for range 10 {
		if err = start(); err == nil {
			return nil
		}
		time.Sleep(2 * time.Second)
	}
	return err
}

var benchNS = uuid.MustParse("5f0b7a9e-1c51-4c1e-9a57-7d0f3b4c2a10")

// donationID is per organisation: workflow ids derive from it, and a second run on the same stack
// must start its own workflows rather than join the first run's.
func donationID(org uuid.UUID, i int) uuid.UUID {
	return uuid.NewSHA1(benchNS, []byte(org.String()+"/donation/"+strconv.Itoa(i)))
}

// seed creates the organisation, one campaign, and n donors each with a card saved at the gateway
// (APRO: approved) and a monthly donation whose collect day is today in Buenos Aires.
func seed(ctx context.Context, tt *tenants.Tenants, gw gateway.Customers, gwURL, publicKey string, org uuid.UUID, n int) error {
	// One gateway customer per donor: the sandbox saves a card number once per customer, and a
	// payment method is unique per (customer, card).
	cards := make([]gateway.Card, n)
	if err := startAll(n, 16, func(i int) error {
		cust, err := gw.EnsureCustomer(ctx, gateway.Customer{Email: fmt.Sprintf("donor%d-%s@example.org", i, org.String()[:8]),
			FirstName: "Ana", LastName: "Paz", IDType: "DNI", IDNumber: "30111222"})
		if err != nil {
			return err
		}
		tok, err := sandbox.CardToken(ctx, http.DefaultClient, gwURL, publicKey, "APRO")
		if err != nil {
			return err
		}
		cards[i], err = gw.SaveCard(ctx, cust.ID, tok)
		return err
	}); err != nil {
		return err
	}
	pool, err := tt.Shard("AR")
	if err != nil {
		return err
	}
	loc, _ := time.LoadLocation(tz)
	now := time.Now().In(loc)
	day := now.Day()
	// Due today, as the row of a donation due today says: its first charge, or the collection of the
	// month before, wrote the next charge date (and the collection's first task then need not).
	due := time.Date(now.Year(), now.Month(), day, 0, 0, 0, 0, time.UTC)
	campaign := uuid.New()
	if _, err := pool.Exec(ctx, `INSERT INTO campaigns (organization_id, id, slug, title, type, currency) VALUES ($1,$2,$3,'Mensual','custom','ARS')`,
		org, campaign, "bench-"+campaign.String()[:8]); err != nil {
		return err
	}
	donor := func(i int) uuid.UUID { return uuid.NewSHA1(benchNS, []byte(org.String()+"/donor/"+strconv.Itoa(i))) }
	pm := func(i int) uuid.UUID { return uuid.NewSHA1(benchNS, []byte(org.String()+"/pm/"+strconv.Itoa(i))) }
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"donors"}, []string{"organization_id", "id", "email", "first_name", "last_name"},
			pgx.CopyFromFunc(rows(n, func(i int) []any {
				return []any{org, donor(i), fmt.Sprintf("donor%d-%s@example.org", i, org.String()[:8]), "Ana", "Paz"}
			}))); err != nil {
			return fmt.Errorf("donors: %w", err)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"payment_methods"}, []string{"organization_id", "id", "donor_id", "customer_id", "card_id",
			"brand", "bin", "last_four", "expiry_month", "expiry_year", "holder_name"},
			pgx.CopyFromFunc(rows(n, func(i int) []any {
				c := cards[i]
				return []any{org, pm(i), donor(i), c.CustomerID, c.ID, c.PaymentMethodID, c.FirstSix, c.LastFour,
					int16(c.ExpirationMonth), int16(c.ExpirationYear), c.HolderName}
			}))); err != nil {
			return fmt.Errorf("payment_methods: %w", err)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"donations"}, []string{"organization_id", "id", "campaign_id", "donor_id", "amount_minor",
			"currency", "recurrence", "collect_day", "payment_method_id", "next_charge_date"},
			pgx.CopyFromFunc(rows(n, func(i int) []any {
				return []any{org, donationID(org, i), campaign, donor(i), int64(150000), "ARS", int16(1), int16(day), pm(i), due}
			}))); err != nil {
			return fmt.Errorf("donations: %w", err)
		}
		return nil
	})
}

func rows(n int, row func(i int) []any) func() ([]any, error) {
	i := -1
	return func() ([]any, error) {
		i++
		if i >= n {
			return nil, nil
		}
		return row(i), nil
	}
}

// memPeak is a case's peak memory and the CPU time (user and system) the process used during it.
type memPeak struct {
	rss, heap uint64
	cpu       time.Duration
}

type memSampler struct {
	done chan struct{}
	out  chan memPeak
}

// startMemSampler resets the kernel's peak RSS (VmHWM) and samples the Go heap every 100 ms.
func startMemSampler() *memSampler {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	cpu0 := processCPU()
	m := &memSampler{done: make(chan struct{}), out: make(chan memPeak, 1)}
	go func() {
		var peak memPeak
		var ms runtime.MemStats
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak.heap = max(peak.heap, ms.HeapInuse)
			select {
			case <-m.done:
				peak.rss = vmHWM()
				peak.cpu = processCPU() - cpu0
				m.out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return m
}

func (m *memSampler) stop() memPeak { close(m.done); return <-m.out }

// processCPU is the CPU time this process has used so far. Unlike the rates, it barely depends on
// how many other processes share the cores.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func vmHWM() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// cpuEach is a case's process CPU time per workflow.
func cpuEach(cpu time.Duration, n int) string {
	return fmt.Sprintf("%.1f ms", float64(cpu)/float64(time.Millisecond)/float64(n))
}

func mib(b uint64) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}

// quiet drops the SDK's logs (activity retries and the like) so the report stays readable.
type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(msg string, kv ...any) {
	log.Println(append([]any{"temporal:", msg}, kv...)...)
}

var _ sdklog.Logger = quiet{}
