package billing_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/bankdebit"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/billing"
	"github.com/aporta/aporta/workflows/subscription"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// lostAnswer is the platform account whose first charge reaches the gateway but whose answer is
// lost: the activity fails after the money moved, and Temporal retries it.
type lostAnswer struct {
	charge.Gateway
	charges atomic.Int32
}

func (l *lostAnswer) Charge(ctx context.Context, c gateway.Charge) (gateway.Payment, error) {
	n := l.charges.Add(1)
	p, err := l.Gateway.Charge(ctx, c)
	if n == 1 && err == nil {
		return gateway.Payment{}, &gateway.UnknownOutcomeError{Err: errors.New("connection reset after the request")}
	}
	return p, err
}

type platform struct{ g *lostAnswer }

func (p platform) Gateway(string) (charge.Gateway, error) { return p.g, nil }

// TestPeriodChargedOnceWhenTheActivityRetries runs the billing and subscription workflows on the
// stack's Temporal against the sandbox gateway: the first period's charge is answered after the
// money moved but the answer is lost, the activity is retried, and the retry finds the payment by
// the period's reference instead of charging again. The plan then applies once.
func TestPeriodChargedOnceWhenTheActivityRetries(t *testing.T) {
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	ctx := context.Background()

	srv, mp := platformGateway(t, nil)

	scope, sub := cardSubscription(t, tt, srv.URL, mp, "Billing")
	plan := sub.PlanCode

	c := workflowtest.Client(t)
	lost := &lostAnswer{Gateway: mp}
	// The subscription workflow (which applies the plan) on a queue of its own beside billing's.
	plans := workflowtest.Worker(t, c, "billing-it-plans-", func(r worker.Registry) {
		subscription.Register(r, subscription.NewActivities(cfg, tt))
	})
	queue := workflowtest.Worker(t, c, "billing-it-", func(r worker.Registry) {
		billing.Register(r, &billing.Activities{Tenants: tt, Platform: platform{lost}, Rates: rates(cfg, tt), Plans: subscription.Plans{Temporal: c, Queue: plans},
			Mail: outbox.NewMailer(cfg, tt.Directory()), PublicURL: cfg.PublicURL})
	})
	require.NoError(t, billing.Client{Temporal: c, Queue: queue}.Start(ctx, scope.OrgID, sub.ID))
	stopWorkflows(t, c, scope, sub)

	require.Eventually(t, func() bool {
		facts, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
		return err == nil && facts.PlanCode == plan
	}, 30*time.Second, 200*time.Millisecond, "the plan applies once the first period is paid")

	start := billing.FirstPeriodStart(sub.CreatedAt)
	ps, err := mp.FindPayments(ctx, billing.Reference(sub.ID, start))
	require.NoError(t, err)
	require.Len(t, ps, 1, "one payment for the period, though the activity ran twice")
	require.Equal(t, gateway.StatusApproved, ps[0].Status)
	require.EqualValues(t, 1, lost.charges.Load(), "the retry read the payment back instead of charging")

	invs, err := scope.Store().SubscriptionInvoices(ctx, sharddb.SubscriptionInvoicesParams{OrganizationID: scope.OrgID})
	require.NoError(t, err)
	require.Len(t, invs, 1)
	require.Equal(t, "paid", invs[0].Status)
	require.Equal(t, ps[0].ID, *invs[0].GatewayPaymentID)
	got, err := scope.Store().OrganizationSubscription(ctx, sharddb.OrganizationSubscriptionParams{OrganizationID: scope.OrgID})
	require.NoError(t, err)
	require.Equal(t, "active", got.Status)
	require.True(t, got.PaidUntil.Equal(start.AddDate(0, 1, 0)), "paid through one month")

	// The workflow now sleeps until the next period.
	desc, err := c.DescribeWorkflowExecution(ctx, billing.WorkflowID(scope.OrgID.String(), sub.ID.String()), "")
	require.NoError(t, err)
	require.Equal(t, "Running", desc.WorkflowExecutionInfo.Status.String())
	if os.Getenv("APORTA_RECORD_HISTORY") != "" {
		workflowtest.SaveHistory(t, c, billing.WorkflowID(scope.OrgID.String(), sub.ID.String()), desc.WorkflowExecutionInfo.Execution.RunId,
			"testdata/billing_history.json")
	}
}

// platformGateway serves a sandbox gateway of the test's own (on the clock now; nil: the real one)
// and a client of the platform's MercadoPago account there, which subscriptions are charged to.
func platformGateway(t *testing.T, now func() time.Time) (*httptest.Server, *mercadopago.Client) {
	t.Helper()
	srv := sandboxtest.Serve(t, sandbox.Options{Currency: "ARS", PlatformToken: "platform-token", Now: now})
	mp, err := mercadopago.New(mercadopago.Config{BaseURL: srv.URL, AccessToken: "platform-token", Currency: "ARS"})
	require.NoError(t, err)
	return srv, mp
}

// stopWorkflows terminates the subscription's billing workflow and its organisation's plan
// workflow when the test ends.
func stopWorkflows(t *testing.T, c client.Client, scope tenants.Scope, sub sharddb.OrganizationSubscription) {
	t.Cleanup(func() {
		_ = c.TerminateWorkflow(context.Background(), billing.WorkflowID(scope.OrgID.String(), sub.ID.String()), "", "test over")
		_ = c.TerminateWorkflow(context.Background(), subscription.WorkflowID(scope.OrgID.String()), "", "test over")
	})
}

// rates is the stack's MEP rate (its sandbox provider, cached in the directory), as the worker has it.
func rates(cfg *config.Config, tt *tenants.Tenants) *mep.Rates {
	return mep.NewRates(tt.Directory(), mep.HTTP{URL: cfg.MEPURL, Name: cfg.MEPSource})
}

// cardSubscription makes an Argentine organisation with a pending Professional monthly subscription
// by card: the card tokenised with the platform's public key at the sandbox and saved on the
// platform's account, as the checkout does. Its first period is unpaid: the workflow charges it.
func cardSubscription(t *testing.T, tt *tenants.Tenants, sandboxURL string, mp *mercadopago.Client, name string) (tenants.Scope, sharddb.OrganizationSubscription) {
	t.Helper()
	ctx := context.Background()
	scope := tenantstest.ArgentineOrganization(t, tt, name, "enabled", "original")
	tok := sandboxtest.CardToken(t, sandboxURL, sandbox.DefaultPlatformPublicKey, "4509953566233704", "APRO")
	cust, err := mp.EnsureCustomer(ctx, gateway.Customer{Email: "billing-" + scope.OrgID.String()[:8] + "@example.org"})
	require.NoError(t, err)
	card, err := mp.SaveCard(ctx, cust.ID, tok)
	require.NoError(t, err)
	plan := "professional_monthly"
	auth, err := scope.Store().InsertSubscriptionAuthorization(ctx, sharddb.InsertSubscriptionAuthorizationParams{
		OrganizationID: scope.OrgID, ID: uuid.New(), Kind: "card", PlanCode: &plan, IdentityID: uuid.New(), CustomerID: &cust.ID,
		CardID: &card.ID, CardBrand: &card.PaymentMethodID, CardLastFour: &card.LastFour, ExpiresAt: time.Now().Add(time.Hour)})
	require.NoError(t, err)
	sub, err := scope.Store().InsertOrganizationSubscription(ctx, sharddb.InsertOrganizationSubscriptionParams{
		OrganizationID: scope.OrgID, ID: uuid.New(), PlanCode: plan, PaymentMode: "card", AuthorizationID: auth.ID})
	require.NoError(t, err)
	return scope, sub
}

// lostDebit is the bank-debit network whose answer to the n-th submission is lost after the bank
// took the debit.
type lostDebit struct {
	*bankdebit.Client
	lose    int32
	submits atomic.Int32
}

func (l *lostDebit) Submit(ctx context.Context, key string, d bankdebit.Debit) (bankdebit.Debit, error) {
	out, err := l.Client.Submit(ctx, key, d)
	if l.submits.Add(1) == l.lose && err == nil {
		return bankdebit.Debit{}, &gateway.UnknownOutcomeError{Err: errors.New("connection reset after the request")}
	}
	return out, err
}

// TestCBUDebitRejectedThenRetried runs the billing workflow on the stack's Temporal for a
// subscription paid by CBU debit, against the sandbox's bank-debit network: the first debit is
// rejected by the bank (the invoice fails, the subscription is not active), the retry submits a
// second one whose answer is lost, the activity reads it back by the period's reference instead of
// submitting a third, and the bank confirms it: the period is paid once, the plan applies.
func TestCBUDebitRejectedThenRetried(t *testing.T) {
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	ctx := context.Background()

	srv, _ := platformGateway(t, nil)
	const cbu = "2850590940090418135201"
	res, err := http.Post(srv.URL+"/__sandbox/bankdebit/outcomes", "application/json",
		bytes.NewBufferString(`{"cbu":"`+cbu+`","outcomes":["rejected:insufficient_funds","confirmed"]}`))
	require.NoError(t, err)
	res.Body.Close()

	scope := tenantstest.ArgentineOrganization(t, tt, "Billing CBU", "enabled", "original")
	plan, now := "professional_monthly", time.Now()
	cbuValue := cbu
	auth, err := scope.Store().InsertSubscriptionAuthorization(ctx, sharddb.InsertSubscriptionAuthorizationParams{
		OrganizationID: scope.OrgID, ID: uuid.New(), Kind: "cbu", IdentityID: uuid.New(), Cbu: &cbuValue,
		MandateAcceptedAt: &now, ExpiresAt: now.Add(time.Hour)})
	require.NoError(t, err)
	sub, err := scope.Store().InsertOrganizationSubscription(ctx, sharddb.InsertOrganizationSubscriptionParams{
		OrganizationID: scope.OrgID, ID: uuid.New(), PlanCode: plan, PaymentMode: "cbu", AuthorizationID: auth.ID})
	require.NoError(t, err)

	debits := &lostDebit{Client: &bankdebit.Client{BaseURL: srv.URL + "/bankdebit/v1", Token: "platform-token"}, lose: 2}
	c := workflowtest.Client(t)
	plans := workflowtest.Worker(t, c, "billing-cbu-plans-", func(r worker.Registry) {
		subscription.Register(r, subscription.NewActivities(cfg, tt))
	})
	queue := workflowtest.Worker(t, c, "billing-cbu-", func(r worker.Registry) {
		billing.Register(r, &billing.Activities{Tenants: tt, Debits: debits, Rates: rates(cfg, tt), Plans: subscription.Plans{Temporal: c, Queue: plans},
			Mail: outbox.NewMailer(cfg, tt.Directory()), PublicURL: cfg.PublicURL})
	})
	require.NoError(t, billing.Client{Temporal: c, Queue: queue}.StartInput(ctx, billing.Input{OrganizationID: scope.OrgID.String(),
		SubscriptionID: sub.ID.String(), RetryDelays: []time.Duration{time.Second, time.Second}, DebitPoll: 300 * time.Millisecond}))
	stopWorkflows(t, c, scope, sub)

	require.Eventually(t, func() bool {
		facts, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
		return err == nil && facts.PlanCode == plan
	}, 60*time.Second, 200*time.Millisecond, "the plan applies once the bank confirms the retry's debit")

	start := billing.FirstPeriodStart(sub.CreatedAt)
	found, err := debits.Find(ctx, billing.Reference(sub.ID, start))
	require.NoError(t, err)
	require.Len(t, found, 2, "the rejected debit and the retry's; the lost answer was read back, not submitted again")
	require.Equal(t, bankdebit.Rejected, found[0].Status)
	require.Equal(t, bankdebit.Confirmed, found[1].Status)
	require.Equal(t, auth.ID.String(), found[1].MandateID)
	require.EqualValues(t, 2, debits.submits.Load(), "the retried activity read the lost debit back instead of submitting again")

	invs, err := scope.Store().SubscriptionInvoices(ctx, sharddb.SubscriptionInvoicesParams{OrganizationID: scope.OrgID})
	require.NoError(t, err)
	require.Len(t, invs, 1)
	require.Equal(t, "paid", invs[0].Status)
	require.EqualValues(t, 2, invs[0].Attempts)
	require.Equal(t, found[1].ID, *invs[0].GatewayPaymentID)
	require.Equal(t, found[1].AmountMinor, invs[0].AmountMinor)
	got, err := scope.Store().OrganizationSubscription(ctx, sharddb.OrganizationSubscriptionParams{OrganizationID: scope.OrgID})
	require.NoError(t, err)
	require.Equal(t, "active", got.Status)
	require.True(t, got.PaidUntil.Equal(start.AddDate(0, 1, 0)), "paid through one month")
}
