package agencysync_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/agencysync"
	"github.com/aporta/aporta/workflows/collection"
	"github.com/aporta/aporta/workflows/firstcharge"
	"github.com/aporta/aporta/workflows/workflowtest"
)

type fixture struct {
	scope    tenants.Scope
	agency   uuid.UUID
	campaign uuid.UUID
	clients  *connections.Clients
	acts     *agencysync.Activities
}

// setup makes an enabled organisation connected to a sandbox account, a campaign and a live agency.
func setup(t *testing.T, c client.Client) fixture {
	t.Helper()
	ctx := context.Background()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	scope := tenantstest.ArgentineOrganization(t, tt, "Agencias", "enabled", "essential_monthly")
	store, _, err := sandboxauth.ConnectAt(ctx, cfg, cfg.GatewayURL, scope, "AGSYNC"+strings.ToUpper(scope.OrgID.String()[:8]))
	require.NoError(t, err)
	f := fixture{scope: scope, agency: uuid.New(), campaign: uuid.New(),
		clients: &connections.Clients{Store: store, Tenants: tt, BaseURL: cfg.GatewayURL}}
	require.NoError(t, scope.Exec(ctx, `INSERT INTO campaigns (organization_id, id, slug, title, type, channel, currency, published)
		VALUES ($1, $2, $3, 'Calle', 'fundraise', 'f2f', 'ARS', true)`, scope.OrgID, f.campaign, "calle-"+f.campaign.String()[:8]))
	require.NoError(t, scope.Exec(ctx, `INSERT INTO agencies (organization_id, id, name, mode, sync_delay) VALUES ($1, $2, 'Calle', 'live', 60)`,
		scope.OrgID, f.agency))
	f.acts = &agencysync.Activities{Tenants: tt, Gateways: charge.Connected(f.clients, nil),
		Settler: firstcharge.Settler{Recurring: collection.Starter{Temporal: c}}}
	return f
}

// acquisition stores a pending acquisition whose card the sandbox saved, as the API does.
func (f fixture) acquisition(t *testing.T) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	cfg := tenantstest.Config(t)
	mp, _, err := f.clients.ForOrganization(ctx, f.scope.OrgID, connections.MercadoPago, "ARS")
	require.NoError(t, err)
	email := "donante-" + uuid.NewString()[:8] + "@example.org"
	cust, err := mp.EnsureCustomer(ctx, gateway.Customer{Email: email, FirstName: "Dora", LastName: "Calle"})
	require.NoError(t, err)
	card, err := mp.SaveCard(ctx, cust.ID, sandboxtest.CardToken(t, cfg.GatewayURL, "", "4509953566233704", "APRO"))
	require.NoError(t, err)
	id := uuid.New()
	require.NoError(t, f.scope.Exec(ctx, `INSERT INTO agency_acquisitions (organization_id, id, agency_id, campaign_id, agent_id, mode, status,
		amount_minor, currency, recurrence, email, first_name, last_name, customer_id, card_id, brand, bin, last_four, expiry_month, expiry_year,
		holder_name, sync_delay, idempotency_key)
		VALUES ($1, $2, $3, $4, $5, 'live', 'pending', 100000, 'ARS', 1, $6, 'Dora', 'Calle', $7, $8, 'visa', '450995', '3704', 11, 2030, 'APRO', 60, $9)`,
		f.scope.OrgID, id, f.agency, f.campaign, uuid.New(), email, cust.ID, card.ID, "k-"+id.String()))
	return id
}

func (f fixture) count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, f.scope.QueryRow(context.Background(), sql, append([]any{f.scope.OrgID}, args...)...).Scan(&n))
	return n
}

// startWorker runs the workflow and acts on a worker of queue, started.
func startWorker(t *testing.T, c client.Client, queue string, acts *agencysync.Activities) worker.Worker {
	t.Helper()
	w := worker.New(c, queue, worker.Options{})
	agencysync.Register(w, acts)
	require.NoError(t, w.Start())
	return w
}

// TestSyncSurvivesAWorkerRestartAndChargesOnce: the workflow's worker stops while the delay runs;
// another picks the timer up and syncs. Running the sync again (a retried activity) changes
// nothing: one donation, one approved charge, one payment at the gateway.
func TestSyncSurvivesAWorkerRestartAndChargesOnce(t *testing.T) {
	c := workflowtest.Client(t)
	f := setup(t, c)
	id := f.acquisition(t)
	queue := "agency-sync-test-" + uuid.NewString()
	first := startWorker(t, c, queue, f.acts)
	ctx := context.Background()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: agencysync.WorkflowID(id.String()), TaskQueue: queue},
		agencysync.Workflow, agencysync.Input{OrganizationID: f.scope.OrgID.String(), AcquisitionID: id.String(), DelaySeconds: 3})
	require.NoError(t, err)
	time.Sleep(time.Second) // the timer is started
	first.Stop()            // the worker dies mid-delay
	require.Zero(t, f.count(t, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2", id), "hidden during the delay")
	second := startWorker(t, c, queue, f.acts)
	t.Cleanup(second.Stop)

	var out agencysync.Result
	require.NoError(t, run.Get(ctx, &out))
	require.Equal(t, "synced", out.Status)
	again, err := f.acts.Sync(ctx, agencysync.Input{OrganizationID: f.scope.OrgID.String(), AcquisitionID: id.String()})
	require.NoError(t, err)
	require.Equal(t, "already", again.Status)
	require.Equal(t, 1, f.count(t, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND agency_id = $3", id, f.agency))
	require.Equal(t, 1, f.count(t, "SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'", id))
	require.Equal(t, 1, f.count(t, "SELECT count(*) FROM agency_acquisitions WHERE organization_id = $1 AND id = $2 AND status = 'synced'", id))
	if os.Getenv("APORTA_SAVE_HISTORY") != "" {
		workflowtest.SaveHistory(t, c, run.GetID(), run.GetRunID(), "testdata/synced.json")
	}
}

// TestDiscardedAgencysPendingAcquisitionIsVoided: the documented rule, nothing charged.
func TestDiscardedAgencysPendingAcquisitionIsVoided(t *testing.T) {
	c := workflowtest.Client(t)
	f := setup(t, c)
	id := f.acquisition(t)
	ctx := context.Background()
	require.NoError(t, f.scope.Exec(ctx, "UPDATE agencies SET discarded_at = now() WHERE organization_id = $1 AND id = $2", f.scope.OrgID, f.agency))
	out, err := f.acts.Sync(ctx, agencysync.Input{OrganizationID: f.scope.OrgID.String(), AcquisitionID: id.String()})
	require.NoError(t, err)
	require.Equal(t, "voided", out.Status)
	require.Zero(t, f.count(t, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2", id))
	require.Equal(t, 1, f.count(t, "SELECT count(*) FROM agency_acquisitions WHERE organization_id = $1 AND id = $2 AND void_reason = 'agency_discarded'", id))
}

// TestSyncKilledMidChargeChargesOnce: the worker dies while the sync's first charge is at the
// gateway (the payment is made, its answer never recorded); another worker retries the sync, which
// reads the payment back by its reference instead of charging again: one donation, one approved
// transaction, one payment at the gateway.
func TestSyncKilledMidChargeChargesOnce(t *testing.T) {
	c := workflowtest.Client(t)
	f := setup(t, c)
	id := f.acquisition(t)
	charged := make(chan struct{})
	hanging := &hangAfterCharge{Gateways: f.acts.Gateways, charged: charged}
	dying := *f.acts
	dying.Gateways = hanging
	queue := "agency-sync-test-" + uuid.NewString()
	first := startWorker(t, c, queue, &dying)
	ctx := context.Background()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: agencysync.WorkflowID(id.String()), TaskQueue: queue},
		agencysync.Workflow, agencysync.Input{OrganizationID: f.scope.OrgID.String(), AcquisitionID: id.String(), DelaySeconds: 0})
	require.NoError(t, err)
	select {
	case <-charged:
	case <-time.After(60 * time.Second):
		t.Fatal("the sync never reached the gateway")
	}
	first.Stop() // killed with the gateway's answer in flight
	require.Equal(t, 1, f.count(t, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2", id), "the donation committed before the charge")
	require.Zero(t, f.count(t, "SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'", id))

	second := startWorker(t, c, queue, f.acts)
	t.Cleanup(second.Stop)
	var out agencysync.Result
	require.NoError(t, run.Get(ctx, &out))
	require.Equal(t, agencysync.Result{Status: "already", DonationID: id.String()}, out, "the retry found the donation and only finished its charge")
	require.Equal(t, 1, f.count(t, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND agency_id = $3", id, f.agency))
	require.Equal(t, 1, f.count(t, "SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2", id))
	require.Equal(t, 1, f.count(t, "SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'", id))
	g, err := f.acts.Gateways.Gateway(ctx, f.scope.OrgID, connections.MercadoPago, "ARS")
	require.NoError(t, err)
	payments, err := g.FindPayments(ctx, hanging.reference)
	require.NoError(t, err)
	require.Len(t, payments, 1, "one payment at the gateway")
}

// hangAfterCharge makes the first charge at the gateway, then hangs until its worker stops: a
// worker killed before it recorded the answer.
type hangAfterCharge struct {
	charge.Gateways
	charged   chan struct{}
	once      sync.Once
	reference string
}

func (h *hangAfterCharge) Gateway(ctx context.Context, orgID uuid.UUID, gw, currency string) (charge.Gateway, error) {
	g, err := h.Gateways.Gateway(ctx, orgID, gw, currency)
	if err != nil {
		return nil, err
	}
	return hangingGateway{Gateway: g, h: h}, nil
}

type hangingGateway struct {
	charge.Gateway
	h *hangAfterCharge
}

func (g hangingGateway) Charge(ctx context.Context, c gateway.Charge) (gateway.Payment, error) {
	p, err := g.Gateway.Charge(ctx, c)
	if err != nil {
		return p, err
	}
	g.h.once.Do(func() {
		g.h.reference = c.ExternalReference
		close(g.h.charged)
	})
	select {
	case <-ctx.Done(): // the worker stopped
	case <-time.After(time.Minute):
	}
	return gateway.Payment{}, errors.New("worker killed before it recorded the answer")
}
