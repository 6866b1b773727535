package collection_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/centralpos"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/collection"
	"github.com/aporta/aporta/workflows/workflowtest"
)

const tz = "America/Argentina/Buenos_Aires"

// stack is one integration run: the test stack's shards and Temporal, a sandbox gateway served
// by httptest behind the real MercadoPago adapter, and a worker on a queue of its own.
type stack struct {
	t        *testing.T
	tenants  *tenants.Tenants
	temporal client.Client
	gw       gateway.Account
	sandbox  string // base URL
	queue    string
	scope    tenants.Scope
	org      uuid.UUID
	worker   worker.Worker
	gateways charge.Gateways
	store    *connections.Store // the organisation's connection to the sandbox
	oauth    gateway.OAuth
	// cp is the CentralPos merchant the organisation is connected to instead of MercadoPago
	// (newCentralPosStack); zero: MercadoPago.
	cp gateway.Credentials
}

// newStack is newBareStack with a worker in this process on the stack's own queue.
func newStack(t *testing.T) *stack {
	t.Helper()
	s := newBareStack(t, "collection-it-")
	s.startWorker()
	t.Cleanup(func() { s.worker.Stop() })
	return s
}

// newBareStack is the sandbox gateway, a Temporal client and an enabled organisation connected to
// MercadoPago, without a worker.
func newBareStack(t *testing.T, queuePrefix string) *stack {
	t.Helper()
	return newStackAt(t, queuePrefix, connections.MercadoPago)
}

// newCentralPosStack is newStack with the organisation connected to a CentralPos merchant only.
func newCentralPosStack(t *testing.T) *stack {
	t.Helper()
	s := newStackAt(t, "collection-cp-", connections.CentralPos)
	s.startWorker()
	t.Cleanup(func() { s.worker.Stop() })
	return s
}

func newStackAt(t *testing.T, queuePrefix, gw string) *stack {
	t.Helper()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)

	srv := sandboxtest.Serve(t, sandbox.Options{Currency: "ARS", PlatformToken: "test-token"})
	c := workflowtest.Client(t)

	org := uuid.New()
	scope := tenantstest.Organization(t, tt, tenants.Organization{ID: org, Name: "Fundación Prueba", Country: "AR", Status: "enabled"}, tz)
	// The organisation charges through its own account at this sandbox, connected by OAuth.
	ctx := context.Background()
	store, err := connections.Open(ctx, cfg)
	require.NoError(t, err)
	oauth, err := sandboxauth.OAuthAt(cfg, srv.URL)
	require.NoError(t, err)
	var cp gateway.Credentials
	if gw == connections.CentralPos {
		_, cp, err = sandboxauth.ConnectCentralPos(ctx, cfg, srv.URL, scope, "Fundación Prueba CP")
	} else {
		_, err = sandboxauth.Connect(ctx, store, oauth, scope, "COLLECTION")
	}
	require.NoError(t, err)
	clients := &connections.Clients{Store: store, Tenants: tt, BaseURL: srv.URL, Timeout: 700 * time.Millisecond,
		CentralPos: centralpos.Config{BaseURL: srv.URL + "/centralpos/v1", PartnerKey: cfg.CentralPosPartnerKey}}
	account, _, err := clients.ForOrganization(ctx, org, gw, "ARS")
	require.NoError(t, err)
	return &stack{t: t, tenants: tt, temporal: c, gw: account, sandbox: srv.URL, scope: scope, org: org,
		queue: queuePrefix + uuid.NewString(), gateways: charge.Connected(clients, nil), store: store, oauth: oauth, cp: cp}
}

// gateway is the connection's gateway the stack's donations' cards are saved at.
func (s *stack) gateway() string {
	if s.cp.AccountID != "" {
		return connections.CentralPos
	}
	return connections.MercadoPago
}

// cardToken tokenises a test card for the holder as the donor's browser does, at the organisation's gateway.
func (s *stack) cardToken(holder string) string {
	if s.gateway() == connections.CentralPos {
		var tok struct {
			ID string `json:"id"`
		}
		s.postAs("/centralpos/v1/tokens", http.Header{"X-Publishable-Key": {s.cp.PublicKey}}, map[string]any{
			"number": "4509953566233704", "cvc": "123", "exp_month": 11, "exp_year": time.Now().Year() + 3,
			"holder": map[string]any{"name": holder, "document": map[string]string{"type": "DNI", "number": "30111222"}},
		}, &tok)
		return tok.ID
	}
	return sandboxtest.CardToken(s.t, s.sandbox, "", "4509953566233704", holder)
}

func (s *stack) startWorker() {
	w := worker.New(s.temporal, s.queue, worker.Options{})
	collection.Register(w, s.tenants, s.gateways)
	require.NoError(s.t, w.Start())
	s.worker = w
}

// donation creates a campaign, donor, saved card (through the sandbox) and monthly donation whose
// collect day is today in Buenos Aires, so its first period is due at once.
func (s *stack) donation(holder string) (uuid.UUID, collection.PaymentMethod) {
	t, ctx := s.t, context.Background()
	campaign, donor, pmID, donation := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	email := "donor-" + donation.String()[:8] + "@example.org"

	cust, err := s.gw.EnsureCustomer(ctx, gateway.Customer{Email: email, FirstName: "Ana", LastName: "Paz", IDType: "DNI", IDNumber: "30111222"})
	require.NoError(t, err)
	crd, err := s.gw.SaveCard(ctx, cust.ID, s.cardToken(holder))
	require.NoError(t, err)

	loc, _ := time.LoadLocation(tz)
	day := time.Now().In(loc).Day()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO campaigns (organization_id, id, slug, title, type, currency) VALUES ($1,$2,$3,'Mensual','custom','ARS')`,
			[]any{s.org, campaign, "c-" + campaign.String()[:8]}},
		{`INSERT INTO donors (organization_id, id, email, first_name, last_name) VALUES ($1,$2,$3,'Ana','Paz')`,
			[]any{s.org, donor, email}},
		{`INSERT INTO payment_methods (organization_id, id, donor_id, customer_id, card_id, brand, bin, last_four,
		     expiry_month, expiry_year, holder_name, gateway) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
			[]any{s.org, pmID, donor, cust.ID, crd.ID, crd.PaymentMethodID, crd.FirstSix, crd.LastFour,
				crd.ExpirationMonth, crd.ExpirationYear, crd.HolderName, s.gateway()}},
		{`INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency, recurrence,
		     collect_day, payment_method_id) VALUES ($1,$2,$3,$4,150000,'ARS',1,$5,$6)`,
			[]any{s.org, donation, campaign, donor, day, pmID}},
	} {
		require.NoError(t, s.scope.Exec(ctx, q.sql, q.args...))
	}
	return donation, collection.PaymentMethod{ID: pmID.String(), Gateway: s.gateway(), CustomerID: cust.ID, CardID: crd.ID,
		Brand: crd.PaymentMethodID, LastFour: crd.LastFour, ExpiryMonth: crd.ExpirationMonth, ExpiryYear: crd.ExpirationYear}
}

func (s *stack) post(path string, body, out any) { s.postAs(path, nil, body, out) }

func (s *stack) postAs(path string, header http.Header, body, out any) {
	s.t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, s.sandbox+path, bytes.NewReader(data))
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	require.Less(s.t, res.StatusCode, 300, path)
	if out != nil {
		require.NoError(s.t, json.NewDecoder(res.Body).Decode(out))
	}
}

func (s *stack) fault(f sandbox.Fault) { s.post("/__sandbox/faults", f, nil) }

func (s *stack) get(path string, out any) {
	s.t.Helper()
	res, err := http.Get(s.sandbox + path)
	require.NoError(s.t, err)
	defer res.Body.Close()
	require.Equal(s.t, http.StatusOK, res.StatusCode, path)
	require.NoError(s.t, json.NewDecoder(res.Body).Decode(out))
}

func (s *stack) start(donation uuid.UUID) client.WorkflowRun {
	run, err := collection.Start(context.Background(), s.temporal, s.queue,
		collection.Input{OrganizationID: s.org.String(), DonationID: donation.String()})
	require.NoError(s.t, err)
	return run
}

func (s *stack) state(donation uuid.UUID) collection.State {
	s.t.Helper()
	v, err := s.temporal.QueryWorkflow(context.Background(), collection.WorkflowID(donation.String()), "", collection.QueryState)
	require.NoError(s.t, err)
	var st collection.State
	require.NoError(s.t, v.Get(&st))
	return st
}

// waitState waits up to within for the workflow's state to satisfy done. Each query has a deadline
// of its own, so one that a busy or killed worker leaves unanswered is asked again.
func (s *stack) waitState(donation uuid.UUID, within time.Duration, done func(collection.State) bool, msg string, args ...any) collection.State {
	s.t.Helper()
	var st collection.State
	require.Eventually(s.t, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		v, err := s.temporal.QueryWorkflow(ctx, collection.WorkflowID(donation.String()), "", collection.QueryState)
		return err == nil && v.Get(&st) == nil && done(st)
	}, within, 100*time.Millisecond, append([]any{msg}, args...)...)
	return st
}

// charged is a state with at least n charged periods; paused, a paused one.
func charged(n int) func(collection.State) bool {
	return func(st collection.State) bool { return st.ChargedPeriods >= n }
}

func paused(st collection.State) bool { return st.Status == collection.StatusPaused }

// pausedByHardDecline starts the collection of a donation whose cardholder the gateway refuses for
// good, and requires one rejected attempt (not retried) and the pause with reason.
func (s *stack) pausedByHardDecline(holder, reason string) (uuid.UUID, client.WorkflowRun, txRow) {
	s.t.Helper()
	donation, _ := s.donation(holder)
	run := s.start(donation)
	st := s.waitState(donation, 30*time.Second, paused, "waiting for the pause")
	require.Equal(s.t, reason, st.PausedReason)
	rows := s.transactions(donation)
	require.Len(s.t, rows, 1, "a hard decline is not retried")
	require.Equal(s.t, "rejected", rows[0].Status)
	return donation, run, rows[0]
}

func (s *stack) waitCharged(donation uuid.UUID, n int) collection.State {
	s.t.Helper()
	return s.waitState(donation, 60*time.Second, charged(n), "waiting for %d charged periods", n)
}

// refused sends an update and returns how the workflow refused it (nil when it was applied).
func (s *stack) refused(donation uuid.UUID, name string, arg any) error {
	s.t.Helper()
	h, err := s.temporal.UpdateWorkflow(context.Background(), client.UpdateWorkflowOptions{
		WorkflowID: collection.WorkflowID(donation.String()), UpdateName: name,
		Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = h.Get(context.Background(), nil)
	}
	return err
}

func (s *stack) update(donation uuid.UUID, name string, arg any) collection.State {
	s.t.Helper()
	h, err := s.temporal.UpdateWorkflow(context.Background(), client.UpdateWorkflowOptions{
		WorkflowID: collection.WorkflowID(donation.String()), UpdateName: name,
		Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	require.NoError(s.t, err)
	var st collection.State
	require.NoError(s.t, h.Get(context.Background(), &st))
	return st
}

type sandboxPayment struct {
	ID                int64  `json:"id"`
	Status            string `json:"status"`
	ExternalReference string `json:"external_reference"`
}

// approvedPerPeriod counts approved sandbox payments per donation period (the external reference
// is "<donation>/<YYYY-MM>[/<attempt>]") in the ledger of the organisation's account.
func (s *stack) approvedPerPeriod(donation uuid.UUID) map[string]int {
	var ps []sandboxPayment
	if s.gateway() == connections.CentralPos {
		var charges []struct{ State, Reference string }
		s.get("/__sandbox/centralpos/charges?merchant_id="+s.cp.AccountID, &charges)
		for _, c := range charges {
			status := c.State
			if status == "succeeded" {
				status = "approved"
			}
			ps = append(ps, sandboxPayment{Status: status, ExternalReference: c.Reference})
		}
	} else {
		s.get("/__sandbox/payments", &ps)
	}
	out := map[string]int{}
	for _, p := range ps {
		parts := strings.Split(p.ExternalReference, "/")
		if parts[0] != donation.String() {
			continue
		}
		if _, ok := out[parts[1]]; !ok {
			out[parts[1]] = 0
		}
		if p.Status == "approved" {
			out[parts[1]]++
		}
	}
	return out
}

type txRow struct {
	Period, Status string
	Attempt        int
}

func (s *stack) transactions(donation uuid.UUID) []txRow {
	rows, err := s.scope.Query(context.Background(),
		`SELECT period, status, attempt FROM transactions WHERE organization_id = $1 AND donation_id = $2 ORDER BY period, attempt`,
		s.org, donation)
	require.NoError(s.t, err)
	defer rows.Close()
	var out []txRow
	for rows.Next() {
		var r txRow
		require.NoError(s.t, rows.Scan(&r.Period, &r.Status, &r.Attempt))
		out = append(out, r)
	}
	require.NoError(s.t, rows.Err())
	return out
}

func approvedRows(rows []txRow) map[string]int {
	out := map[string]int{}
	for _, r := range rows {
		if _, ok := out[r.Period]; !ok {
			out[r.Period] = 0
		}
		if r.Status == "approved" {
			out[r.Period]++
		}
	}
	return out
}

// TestMonthlyDonationOnTheRealStack charges a donation on its collect day (today), refuses to
// collect the next (future) period now, and follows an amount change, against the real Temporal
// dev server, shard and sandbox gateway.
func TestMonthlyDonationOnTheRealStack(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	donation, _ := s.donation("APRO")

	run := s.start(donation)
	again := s.start(donation)
	require.Equal(t, run.GetRunID(), again.GetRunID(), "starting twice is a no-op")
	// Sent right after the start, before the workflow has loaded its donation: accepted at once,
	// with no retry (the handlers are registered in the first workflow task).
	loc, _ := time.LoadLocation(tz)
	day := collectday.Day(time.Now().In(loc).Day())
	st := s.update(donation, collection.UpdateCollectDay, collection.ChangeCollectDayRequest{Actor: "it", CollectDay: day})
	require.Equal(t, day, st.CollectDay)

	st = s.waitCharged(donation, 1)
	first := st.Recent[0].Period
	require.ErrorContains(t, s.refused(donation, collection.UpdateCollectNow, collection.CollectNowRequest{Actor: "it"}),
		collection.ErrNotDue.Error(), "next month is not collected now")
	s.update(donation, collection.UpdateChangeAmount, collection.ChangeAmountRequest{Actor: "it", Amount: 200000})
	st = s.state(donation)
	require.Equal(t, 1, st.ChargedPeriods)
	require.Equal(t, int64(200000), st.Amount)

	want := map[string]int{first.String(): 1}
	require.Equal(t, want, s.approvedPerPeriod(donation), "one approved sandbox payment per period")
	require.Equal(t, want, approvedRows(s.transactions(donation)), "one approved transaction per period")

	// The row follows the workflow's state: SyncDonation runs right after the charge is recorded.
	var status string
	var next time.Time
	var amount int64
	require.Eventually(t, func() bool {
		err := s.scope.QueryRow(ctx, `SELECT status, next_charge_date, amount_minor FROM donations WHERE organization_id = $1 AND id = $2`,
			s.org, donation).Scan(&status, &next, &amount)
		return err == nil && next.Format("2006-01") == first.Next().String() && amount == 200000
	}, 10*time.Second, 100*time.Millisecond, "next charge date synced to %s, row has %s", first.Next(), next.Format("2006-01"))
	require.Equal(t, "active", status)
	require.Equal(t, int64(200000), amount)
	var versions int
	require.NoError(t, s.scope.QueryRow(ctx, `SELECT count(*) FROM donation_versions WHERE organization_id = $1 AND donation_id = $2 AND actor = 'it'`,
		s.org, donation).Scan(&versions))
	require.Equal(t, 2, versions, "a collect-day change and an amount change; the refused collect-now changed nothing")

	st = s.update(donation, collection.UpdateDiscard, collection.DiscardRequest{Actor: "it", Reason: "test over"})
	require.Equal(t, collection.StatusDiscarded, st.Status)
	require.NoError(t, run.Get(ctx, &st))
	// Starting a discarded donation again starts nothing: the reuse policy refuses a new run and the
	// client hands back the closed one.
	after := s.start(donation)
	require.Equal(t, run.GetRunID(), after.GetRunID(), "a discarded donation's workflow is never started again")
	require.NoError(t, after.Get(ctx, &st))
	require.Equal(t, collection.StatusDiscarded, st.Status)

	require.Zero(t, s.chargeActivities(donation), "the charge ran as a local activity: no activity task")

	if os.Getenv("APORTA_RECORD_HISTORY") != "" {
		workflowtest.SaveHistory(t, s.temporal, collection.WorkflowID(donation.String()), run.GetRunID(), "testdata/donation_history_v5.json")
	}
}

// chargeActivities counts the Charge activities a donation's workflow scheduled: a charge attempt whose
// local try could not settle it (see collection's charge).
func (s *stack) chargeActivities(donation uuid.UUID) int {
	it := s.temporal.GetWorkflowHistory(context.Background(), collection.WorkflowID(donation.String()), "", false, 0)
	n := 0
	for it.HasNext() {
		e, err := it.Next()
		require.NoError(s.t, err)
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == "Charge" {
			n++
		}
	}
	return n
}

// TestOpenDonationWritesTheRowOnlyWhenItDiffers: a new run's first activity writes the donation's next
// charge date when the row does not say it, and writes nothing (updated_at stays) when it does.
func TestOpenDonationWritesTheRowOnlyWhenItDiffers(t *testing.T) {
	s := newBareStack(t, "collection-open-")
	ctx := context.Background()
	acts := &collection.Activities{Tenants: s.tenants, Gateways: s.gateways}
	loc, _ := time.LoadLocation(tz)
	now := time.Now()
	today := now.In(loc).Format(time.DateOnly) // the donations' collect day
	row := func(donation uuid.UUID) (next *time.Time, updated time.Time) {
		require.NoError(t, s.scope.QueryRow(ctx, `SELECT next_charge_date, updated_at FROM donations WHERE organization_id = $1 AND id = $2`,
			s.org, donation).Scan(&next, &updated))
		return next, updated
	}
	for _, c := range []struct {
		name   string
		set    string // SET clause of the row before the run opens
		writes bool
	}{
		{"no next charge date", "next_charge_date = NULL", true},
		{"today's, as a planned first charge writes it", "next_charge_date = '" + today + "'", false},
		{"another date", "next_charge_date = '2031-01-01'", true},
		{"today's, paused since yesterday", "next_charge_date = '" + today + "', paused_since = now() - interval '1 day'", true},
	} {
		donation, _ := s.donation("APRO")
		require.NoError(t, s.scope.Exec(ctx, `UPDATE donations SET `+c.set+`, updated_at = '2020-01-01' WHERE organization_id = $1 AND id = $2`,
			s.org, donation), c.name)
		st, err := acts.OpenDonation(ctx, collection.OpenRequest{OrganizationID: s.org.String(), DonationID: donation.String(), Now: now})
		require.NoError(t, err, c.name)
		require.Equal(t, today, st.NextChargeDate.Format(time.DateOnly), c.name)
		next, updated := row(donation)
		require.NotNil(t, next, c.name)
		require.Equal(t, today, next.Format(time.DateOnly), c.name)
		require.Equal(t, c.writes, updated.Year() != 2020, "%s: written", c.name)
	}
}

// TestChargesSurviveGatewayFaults makes the sandbox fail money-moving requests in every way it
// can (timeouts and 500s after committing the payment, a timeout before it), one donation's first
// period per fault, and restarts the worker before the last; afterwards every period has exactly
// one approved payment in the sandbox and in our transactions, and no due period is missing.
// (Collect-now charges only a due period, so each fault gets its own donation.)
func TestChargesSurviveGatewayFaults(t *testing.T) {
	s := newStack(t)
	faults := []sandbox.Fault{
		// The payment is committed, the answer times out (unknown outcome) → read back.
		{Mode: "timeout", Count: 1, AfterCommit: true, DelayMS: 2000},
		// Committed, then 500 twice (the charge and, if retried, the same key again).
		{Mode: "error500", Count: 2, AfterCommit: true},
		// Times out before committing: nothing to read back, so the activity retries with the
		// same idempotency key and charges once.
		{Mode: "timeout", Count: 1, DelayMS: 2000},
		// A new worker (empty cache) takes over, and the gateway times out after committing again.
		{Mode: "timeout", Count: 1, AfterCommit: true, DelayMS: 1500},
	}
	var runs []client.WorkflowRun
	var ids []uuid.UUID
	for i, f := range faults {
		if i == len(faults)-1 {
			s.worker.Stop()
			s.startWorker()
		}
		donation, _ := s.donation("APRO")
		s.fault(f)
		runs = append(runs, s.start(donation))
		ids = append(ids, donation)
		s.waitCharged(donation, 1)
	}
	s.fault(sandbox.Fault{Mode: "none"})
	require.Equal(t, 1, s.chargeActivities(ids[2]),
		"the timeout before the commit leaves the local try nothing to read back: the attempt goes on as an activity")

	for i, donation := range ids {
		st := s.state(donation)
		want := map[string]int{st.Recent[0].Period.String(): 1}
		require.Equal(t, want, s.approvedPerPeriod(donation), "fault %d: at most one approved payment per period in the sandbox, none missing", i)
		rows := s.transactions(donation)
		require.Equal(t, want, approvedRows(rows), "fault %d: exactly one approved transaction per due period: %v", i, rows)
		require.True(t, st.Recent[0].Approved, "fault %d", i)
		s.update(donation, collection.UpdateDiscard, collection.DiscardRequest{Actor: "it", Reason: "test over"})
		require.NoError(t, runs[i].Get(context.Background(), nil))
	}
	if os.Getenv("APORTA_RECORD_HISTORY") != "" {
		workflowtest.SaveHistory(t, s.temporal, collection.WorkflowID(ids[2].String()), runs[2].GetRunID(), "testdata/donation_history_v5_fallback.json")
	}
}

// TestHardDeclinePausesOnTheRealStack: the sandbox's blacklisted card (BLAC) is rejected with
// cc_rejected_blacklist, which the adapter maps to last_transaction_stolen_issue: one attempt,
// then the donation pauses with that reason in the workflow and in its row.
func TestHardDeclinePausesOnTheRealStack(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	donation, run, _ := s.pausedByHardDecline("BLAC", "last_transaction_stolen_issue")
	var status, reason string
	require.Eventually(t, func() bool {
		err := s.scope.QueryRow(ctx, `SELECT status, COALESCE(paused_reason, '') FROM donations WHERE organization_id = $1 AND id = $2`,
			s.org, donation).Scan(&status, &reason)
		return err == nil && status == "paused"
	}, 10*time.Second, 100*time.Millisecond)
	require.Equal(t, "last_transaction_stolen_issue", reason)

	h, err := s.temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: collection.WorkflowID(donation.String()), UpdateName: collection.UpdateCollectNow,
		Args: []any{collection.CollectNowRequest{}}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	require.ErrorContains(t, err, collection.ErrNotActive.Error(), "collect-now is refused by the validator while paused")
	s.update(donation, collection.UpdateDiscard, collection.DiscardRequest{Actor: "it"})
	require.NoError(t, run.Get(ctx, nil))
}

// TestChargeActivityNeverChargesAnApprovedPeriodAgain calls the activity directly, as retries of
// the schedule would, at MercadoPago and at CentralPos: once a period is approved, later attempts
// read it back instead of charging, and a repeated attempt answers its own payment (the same
// Idempotency-Key).
func TestChargeActivityNeverChargesAnApprovedPeriodAgain(t *testing.T) {
	for gw, open := range map[string]func(*testing.T) *stack{connections.MercadoPago: newStack, connections.CentralPos: newCentralPosStack} {
		t.Run(gw, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			donation, pm := s.donation("APRO")
			require.Equal(t, gw, pm.Gateway)
			acts := &collection.Activities{Tenants: s.tenants, Gateways: s.gateways}
			req := collection.ChargeRequest{OrganizationID: s.org.String(), DonationID: donation.String(), Period: "2031-05",
				Attempt: 1, Amount: 150000, Currency: "ARS", PaymentMethod: pm}

			first, err := acts.Charge(ctx, req)
			require.NoError(t, err)
			require.True(t, first.Approved())
			again, err := acts.Charge(ctx, req) // an activity retry of the same attempt
			require.NoError(t, err)
			require.Equal(t, first.PaymentID, again.PaymentID)
			req.Attempt = 3 // a later attempt of the same period
			later, err := acts.Charge(ctx, req)
			require.NoError(t, err)
			require.Equal(t, first.PaymentID, later.PaymentID)
			require.Equal(t, 1, later.Attempt)

			require.Equal(t, map[string]int{"2031-05": 1}, s.approvedPerPeriod(donation))
			require.Equal(t, []txRow{{Period: "2031-05", Status: "approved", Attempt: 1}}, s.transactions(donation))
		})
	}
}

// TestApprovalWritesTheDonationRow: the charge activity writes the workflow's state after an approval
// (SyncOnApproval) to the donation's row, also when a retry of the activity finds the approval at the
// gateway; a decline leaves the row as it was.
func TestApprovalWritesTheDonationRow(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	acts := &collection.Activities{Tenants: s.tenants, Gateways: s.gateways}
	loc, _ := time.LoadLocation(tz)
	nextOf := func(donation uuid.UUID) (next *time.Time, failed int) {
		require.NoError(t, s.scope.QueryRow(ctx, `SELECT next_charge_date, consecutive_failed_periods FROM donations
			WHERE organization_id = $1 AND id = $2`, s.org, donation).Scan(&next, &failed))
		return next, failed
	}
	period := collectday.Period{Year: 2031, Month: time.July}
	for _, c := range []struct {
		holder  string
		charges int // the activity's calls: a second is a retry after the first answered
		synced  bool
	}{{"APRO", 1, true}, {"APRO", 2, true}, {"OTHE", 1, false}} {
		donation, pm := s.donation(c.holder)
		before, _ := nextOf(donation)
		st := collection.State{OrganizationID: s.org.String(), DonationID: donation.String(), Status: collection.StatusActive,
			Amount: 150000, Currency: "ARS", CollectDay: 12, Timezone: tz, PaymentMethod: pm, NextPeriod: period.Next(),
			ConsecutiveFailed: 0}
		req := collection.ChargeRequest{OrganizationID: s.org.String(), DonationID: donation.String(), Period: period.String(),
			Attempt: 1, Amount: 150000, Currency: "ARS", PaymentMethod: pm, SyncOnApproval: &st}
		var res collection.ChargeResult
		for range c.charges {
			var err error
			res, err = acts.Charge(ctx, req)
			require.NoError(t, err)
		}
		require.Equal(t, c.synced, res.Approved(), c.holder)
		require.Equal(t, c.synced, res.Synced, c.holder)
		next, _ := nextOf(donation)
		if !c.synced {
			require.Equal(t, before, next, "a decline leaves the row as it was")
			continue
		}
		require.NotNil(t, next)
		require.Equal(t, collectday.Day(12).Date(period.Next(), loc).Format(time.DateOnly), next.Format(time.DateOnly))
		require.Equal(t, map[string]int{period.String(): 1}, s.approvedPerPeriod(donation))
	}
}

// TestChargeWaitsWhileTheConnectionNeedsReconnecting: with the organisation's connection in need
// of reconnection the activity charges and records nothing (the workflow waits, see
// TestChargeWaitsForTheGatewayConnection); once the administrator reconnects, the same attempt
// is charged once.
func TestChargeWaitsWhileTheConnectionNeedsReconnecting(t *testing.T) {
	s := newBareStack(t, "collection-reconnect-")
	ctx := context.Background()
	donation, pm := s.donation("APRO")
	acts := &collection.Activities{Tenants: s.tenants, Gateways: s.gateways}
	req := collection.ChargeRequest{OrganizationID: s.org.String(), DonationID: donation.String(), Period: "2031-06",
		Attempt: 1, Amount: 150000, Currency: "ARS", PaymentMethod: pm}

	conn, err := s.store.ActiveConnection(ctx, s.scope, connections.MercadoPago)
	require.NoError(t, err)
	_, ok, err := s.store.NeedsReconnection(ctx, s.scope, conn)
	require.NoError(t, err)
	require.True(t, ok)
	res, err := acts.Charge(ctx, req)
	require.NoError(t, err)
	require.True(t, res.GatewayMissing)
	require.Empty(t, s.transactions(donation))

	_, err = sandboxauth.Connect(ctx, s.store, s.oauth, s.scope, "COLLECTION")
	require.NoError(t, err)
	res, err = acts.Charge(ctx, req)
	require.NoError(t, err)
	require.True(t, res.Approved())
	require.Equal(t, map[string]int{"2031-06": 1}, s.approvedPerPeriod(donation))
}

// TestCommissionRecordedWithTheApprovedCharge: an organisation whose Essential trial ended without
// a plan owes 3.5% of each approved charge, stored with the charge (no sweep) and once however often
// the activity is retried; an organisation on a bought plan, or still in its trial, owes nothing.
func TestCommissionRecordedWithTheApprovedCharge(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, sql string
		want      []int64
	}{
		{"restricted", `UPDATE organizations SET plan_code = 'original', subscription_status = 'restricted',
			trial_started_at = now() - interval '91 days', trial_ends_at = now() - interval '1 day', commission_bps = 350,
			accepting_donations = false WHERE organization_id = $1`, []int64{5250}},
		{"trial", `UPDATE organizations SET plan_code = 'original', subscription_status = 'trial',
			trial_started_at = now() - interval '1 day', trial_ends_at = now() + interval '89 days' WHERE organization_id = $1`, nil},
		{"plan bought", `UPDATE organizations SET plan_code = 'essential_monthly', subscription_status = 'active',
			trial_started_at = now() - interval '100 days', trial_ends_at = now() - interval '10 days', commission_bps = 0
			WHERE organization_id = $1`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newBareStack(t, "collection-commission-")
			require.NoError(t, s.scope.Exec(ctx, c.sql, s.org))
			donation, pm := s.donation("APRO")
			acts := &collection.Activities{Tenants: s.tenants, Gateways: s.gateways}
			req := collection.ChargeRequest{OrganizationID: s.org.String(), DonationID: donation.String(), Period: "2031-06",
				Attempt: 1, Amount: 150000, Currency: "ARS", PaymentMethod: pm}
			for range 2 { // the second call is an activity retry
				res, err := acts.Charge(ctx, req)
				require.NoError(t, err)
				require.True(t, res.Approved())
			}
			rows, err := s.scope.Query(ctx, `SELECT c.amount_minor FROM transaction_commissions c
				JOIN transactions t ON t.organization_id = c.organization_id AND t.id = c.transaction_id
				WHERE c.organization_id = $1 AND t.donation_id = $2`, s.org, donation)
			require.NoError(t, err)
			got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			require.NoError(t, err)
			require.ElementsMatch(t, c.want, got)
		})
	}
}
