package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/deploy/benchkit"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/tenants"
)

// donorOptions size the public form's load case (issue #11 "Harnesses that stay").
type donorOptions struct {
	donors   int           // concurrent donors
	duration time.Duration // how long new donations start
	refTime  time.Duration // how long the GET /healthz reference runs
}

// outcome is a test cardholder (the sandbox decides by the holder's name) and the answers the form
// may give it: a first submission, and its double (same body, same idempotency key).
type outcome struct {
	holder string
	ok     []int
}

// outcomes, one per donation in turn: 14 of 20 approved, 3 rejected, 3 pending at the gateway.
var outcomes = slices.Concat(
	slices.Repeat([]outcome{{"APRO", []int{http.StatusCreated, http.StatusOK}}}, 14),
	slices.Repeat([]outcome{{"OTHE", []int{http.StatusPaymentRequired}}}, 3),
	slices.Repeat([]outcome{{"CONT", []int{http.StatusAccepted}}}, 3),
)

// donorStats are the load case's counts; latencies are of POST /d/{slug} answers.
type donorStats struct {
	mu         sync.Mutex
	lat        []time.Duration
	status     map[int]int
	unexpected map[string]int // holder and status the outcome does not allow
	transport  int            // requests without an answer
	tokenErr   int
	firstErr   error // of the unanswered and the tokenisations
	donations  int
	doubles    int
}

// benchDonors runs donors concurrent donors on a new campaign's public form for the duration: each
// donation tokenises a sandbox test card, as the browser does, then POSTs the form; one in five is
// submitted twice at once with the same body (a double click). Every donation comes from its own
// loopback address, as donors do from their own IPs, so per-IP limits see one donor each. Then the
// databases and the sandbox must agree: every approved payment has exactly one transaction, and no
// donation has two live charges.
func benchDonors(ctx context.Context, cfg *config.Config, t *tenants.Tenants, o donorOptions) {
	for _, u := range []string{cfg.PublicURL, cfg.GatewayURL} {
		if err := mustBeLoopback(u); err != nil {
			log.Fatal(err)
		}
	}
	org, slug, publicKey, err := donorCampaign(ctx, cfg, t)
	if err != nil {
		log.Fatal("donor campaign: ", err)
	}
	ownAddrs := canBind("127.1.0.1")
	if !ownAddrs {
		fmt.Println("public form: cannot bind 127.1.0.1: every donor comes from 127.0.0.1, so the per-IP limit refuses most of them")
	}
	runID := uuid.NewString()[:8]
	st := &donorStats{status: map[int]int{}, unexpected: map[string]int{}}
	var next atomic.Int64
	deadline := time.Now().Add(o.duration)
	// Bounded in count as well as time: no donor starts more than one donation per 50 ms.
	maxDonations := int64(o.donors) * int64(o.duration/(50*time.Millisecond)+1)
	fmt.Printf("public form: %d concurrent donors for %s on /d/%s (APRO 70%%, OTHE 15%%, CONT 15%%; one in 5 submitted twice at once)\n",
		o.donors, o.duration, slug)
	t0 := time.Now()
	var wg sync.WaitGroup
	for range o.donors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				n := next.Add(1)
				if n > maxDonations {
					return
				}
				donate(ctx, cfg, slug, publicKey, runID, n, ownAddrs, st)
			}
		}()
	}
	wg.Wait()
	took := time.Since(t0)

	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.donors}}
	ref := run(func() error {
		res, err := hc.Get(cfg.PublicURL + "/healthz")
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("healthz: %d", res.StatusCode)
		}
		return nil
	}, o.donors, o.refTime)

	slices.Sort(st.lat)
	r := result{rps: float64(len(st.lat)) / took.Seconds()}
	if len(st.lat) > 0 {
		r.p50, r.p99 = st.lat[len(st.lat)/2], st.lat[len(st.lat)*99/100]
	}
	fivexx := 0
	var codes []string
	for _, code := range sortedKeys(st.status) {
		codes = append(codes, fmt.Sprintf("%d×%d", code, st.status[code]))
		if code >= 500 {
			fivexx += st.status[code]
		}
	}
	fmt.Printf("%-44s %12s %10s %10s   %s\n", "case", "req/s", "p50", "p99", "ratio to reference (req/s)")
	compare(fmt.Sprintf("POST /d/{slug}, %d donors", o.donors), fmt.Sprintf("GET /healthz, %d clients", o.donors), r, ref)
	fmt.Printf("  requests %d (%d donations, %d of them submitted twice) in %s; answers %s\n",
		len(st.lat), st.donations, st.doubles, took.Round(100*time.Millisecond), strings.Join(codes, " "))
	fmt.Printf("  5xx: %d (goal 0); unanswered: %d; tokenisation failures: %d\n", fivexx, st.transport, st.tokenErr)
	if st.firstErr != nil {
		fmt.Printf("  first failure: %v\n", st.firstErr)
	}
	for _, k := range sortedKeys(st.unexpected) {
		fmt.Printf("  unexpected answer %s: %d\n", k, st.unexpected[k])
	}
	if err := checkCharges(ctx, cfg, t, org); err != nil {
		log.Fatal("public form: ", err)
	}
	fmt.Println()
}

// donate makes donation n: tokenise, then POST the form, once or, for one in five, twice at once;
// from the donation's own loopback address when ownAddr.
func donate(ctx context.Context, cfg *config.Config, slug, publicKey, run string, n int64, ownAddr bool, st *donorStats) {
	oc := outcomes[n%int64(len(outcomes))]
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	if ownAddr {
		// 127.1.0.1 onwards: the whole 127/8 reaches the loopback interface.
		dialer.LocalAddr = &net.TCPAddr{IP: net.IPv4(127, byte(1+n>>16), byte(n>>8), byte(n))}
	}
	tr := &http.Transport{DialContext: dialer.DialContext}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 2 * time.Minute}
	tok, err := sandbox.CardToken(ctx, hc, cfg.GatewayURL, publicKey, oc.holder+" Bench")
	if err != nil {
		st.mu.Lock()
		st.tokenErr++
		st.firstErr = cmp.Or(st.firstErr, err)
		st.mu.Unlock()
		return
	}
	body := formBody(tok, oc.holder, n%2, fmt.Sprintf("donor-%s-%d@example.org", run, n), fmt.Sprintf("bench-%s-%d", run, n))
	times := 1
	if n%5 == 0 {
		times = 2
	}
	var wg sync.WaitGroup
	for range times {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, cfg.PublicURL+"/d/"+slug, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept-Language", "es")
			start := time.Now()
			res, err := hc.Do(req)
			took := time.Since(start)
			if err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			st.mu.Lock()
			defer st.mu.Unlock()
			if err != nil {
				st.transport++
				st.firstErr = cmp.Or(st.firstErr, err)
				return
			}
			st.lat = append(st.lat, took)
			st.status[res.StatusCode]++
			if !slices.Contains(oc.ok, res.StatusCode) {
				st.unexpected[fmt.Sprintf("%s %d", oc.holder, res.StatusCode)]++
			}
		}()
	}
	wg.Wait()
	st.mu.Lock()
	st.donations++
	if times == 2 {
		st.doubles++
	}
	st.mu.Unlock()
}

// formBody is a submission of the public form as the browser sends it: the card tokenised at the
// sandbox for holder (who decides the outcome), 1500 of the currency, once (recurrency 0) or monthly (1).
func formBody(token, holder string, recurrency int64, email, key string) []byte {
	body, _ := json.Marshal(map[string]any{
		"donation": map[string]any{"recurrency": recurrency, "items": []any{map[string]any{"uuid": "", "amount": "1500", "item_name": "Donación", "quantity": 1}}},
		"payment_method": map[string]any{"gateway": map[string]any{"name": "mercadopago", "token": token},
			"method_id": "visa", "bin": "450995", "last_four": "3704", "cc_expiration": fmt.Sprintf("11 / %02d", (time.Now().Year()+3)%100),
			"cardholder_name": holder + " Bench", "cardholder_id_type": "DNI", "cardholder_id_number": "30111222", "donor_is_cardholder": true},
		"donor":           map[string]any{"first_name": "Ana", "last_name": "Bench", "email": email, "uid_type": "DNI", "uid_number": "30111222"},
		"idempotency_key": key,
	})
	return body
}

// checkCharges compares the sandbox's payments for the organisation with its transactions. A run
// lasts minutes, so each donation has one period, its first: two live payments for one donation
// are two charges for one period.
func checkCharges(ctx context.Context, cfg *config.Config, t *tenants.Tenants, org uuid.UUID) error {
	payments, err := benchkit.Payments(ctx, cfg.GatewayURL)
	if err != nil {
		return err
	}
	scope, err := t.ForOrganization(ctx, org)
	if err != nil {
		return err
	}
	rows, err := scope.Query(ctx, `SELECT gateway_payment_id, count(*) FROM transactions
		WHERE organization_id = $1 AND gateway_payment_id IS NOT NULL GROUP BY 1`, org)
	if err != nil {
		return err
	}
	txs := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return err
		}
		txs[id] = n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var twiceInDB int
	if err := scope.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM transactions
		WHERE organization_id = $1 AND status NOT IN ('rejected', 'cancelled') GROUP BY donation_id, period HAVING count(*) > 1) twice`,
		org).Scan(&twiceInDB); err != nil {
		return err
	}
	approved, badTx := 0, 0
	live := map[string]int{}
	for _, p := range payments {
		if p.Metadata["organization_id"] != org.String() {
			continue
		}
		if p.Status == "approved" {
			approved++
			if n := txs[fmt.Sprint(p.ID)]; n != 1 {
				badTx++
				fmt.Printf("  approved payment %d has %d transactions\n", p.ID, n)
			}
		}
		if p.Status != "rejected" && p.Status != "cancelled" {
			live[fmt.Sprint(p.Metadata["donation_id"])]++
		}
	}
	twiceAtGateway := 0
	for d, n := range live {
		if n > 1 {
			twiceAtGateway++
			fmt.Printf("  donation %s has %d live payments\n", d, n)
		}
	}
	fmt.Printf("  after the run: %d approved gateway payments, %d without exactly one transaction (goal 0); "+
		"donations charged twice for one period: %d at the gateway, %d in the database (goal 0)\n",
		approved, badTx, twiceAtGateway, twiceInDB)
	return nil
}

// donorCampaign creates an enabled AR organisation on a paid plan, connected to its own sandbox account (publicKey), and a published campaign that takes one-time
// and monthly donations and charges the first month at once.
func donorCampaign(ctx context.Context, cfg *config.Config, t *tenants.Tenants) (org uuid.UUID, slug, publicKey string, err error) {
	org = uuid.New()
	if err := t.CreateOrganization(ctx, tenants.Organization{ID: org, Name: "Fundación Carga", Country: "AR", Status: "enabled"},
		"America/Argentina/Buenos_Aires"); err != nil {
		return org, "", "", err
	}
	scope, err := t.ForOrganization(ctx, org)
	if err != nil {
		return org, "", "", err
	}
	// A paid plan: charging the first month at once is not in the original one.
	if err := scope.Exec(ctx, "UPDATE organizations SET plan_code = 'essential_monthly' WHERE organization_id = $1", org); err != nil {
		return org, "", "", err
	}
	// Its own sandbox MercadoPago account, connected by OAuth as an administrator would.
	conn, err := sandboxauth.ConnectWith(ctx, cfg, scope, "CARGA"+strings.ToUpper(org.String()[:8]))
	if err != nil {
		return org, "", "", fmt.Errorf("connect the gateway: %w", err)
	}
	svc := campaign.NewService(t)
	c, err := svc.CreateFromInput(ctx, org, campaign.Input{Title: "Carga de donantes", Type: "fundraise", Channel: "public",
		AllowOneTime: true, AllowOtherAmount: true, ImmediateCharge: true, Amounts: []campaign.Amount{{Amount: "1500"}, {Amount: "3000"}}})
	if err != nil {
		return org, "", "", err
	}
	if _, err := svc.SetPublished(ctx, org, c.ID, true); err != nil {
		return org, "", "", err
	}
	return org, c.Slug, conn.PublicKey, nil
}

// canBind reports whether this machine lets a socket use addr as its own address.
func canBind(addr string) bool {
	ln, err := net.Listen("tcp", addr+":0")
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// mustBeLoopback refuses to send load anywhere but this machine.
func mustBeLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	ips, err := net.LookupIP(u.Hostname())
	if err != nil {
		return err
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return fmt.Errorf("%s resolves to %s: the load case only runs against this machine", raw, ip)
		}
	}
	return nil
}

func sortedKeys[K interface{ ~int | ~string }, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}
