package billing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/billing"
	"github.com/aporta/aporta/workflows/subscription"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// The worker process of TestNoPeriodChargedTwiceWhenTheWorkerIsKilled is this test binary run again
// with these variables set (TestBillingWorkerProcess serves the queues until killed).
const (
	envBillingQueue = "APORTA_BILLING_TEST_WORKER_QUEUE"
	envPlansQueue   = "APORTA_BILLING_TEST_PLANS_QUEUE"
	envSandbox      = "APORTA_BILLING_TEST_SANDBOX"
)

// TestBillingWorkerProcess is not a test: it is the worker process the kill test starts and kills
// with SIGKILL. Without its variables it does nothing.
func TestBillingWorkerProcess(t *testing.T) {
	workflowtest.ServeProcess(t, envBillingQueue, "TestNoPeriodChargedTwiceWhenTheWorkerIsKilled", func(c client.Client, w worker.Registry) {
		cfg := tenantstest.Config(t)
		tt := tenantstest.Open(t)
		mp, err := mercadopago.New(mercadopago.Config{BaseURL: os.Getenv(envSandbox), AccessToken: "platform-token", Currency: "ARS", Timeout: 700 * time.Millisecond})
		require.NoError(t, err)
		plans := worker.New(c, os.Getenv(envPlansQueue), worker.Options{})
		subscription.Register(plans, subscription.NewActivities(cfg, tt))
		require.NoError(t, plans.Start())
		billing.Register(w, &billing.Activities{Tenants: tt, Platform: &billing.PlatformAccount{Client: mp, Currency: "ARS"}, Rates: rates(cfg, tt),
			Plans: subscription.Plans{Temporal: c, Queue: os.Getenv(envPlansQueue)}, Mail: outbox.NewMailer(cfg, tt.Directory()), PublicURL: cfg.PublicURL})
	})
}

// TestNoPeriodChargedTwiceWhenTheWorkerIsKilled runs the billing worker as a separate process and
// kills it with SIGKILL at random moments (restarting it each time) while the first period of
// several card subscriptions is charged at the sandbox, whose answers time out or fail after the
// payment was recorded. Afterwards each period has exactly one approved payment under its reference
// and one paid invoice, and the plan applied: nothing charged twice, nothing lost.
func TestNoPeriodChargedTwiceWhenTheWorkerIsKilled(t *testing.T) {
	const subscriptions, kills = 6, 4
	tt := tenantstest.Open(t)
	ctx := context.Background()
	srv, mp := platformGateway(t, nil)

	type subOf struct {
		scope tenants.Scope
		sub   sharddb.OrganizationSubscription
	}
	subs := make([]subOf, subscriptions)
	for i := range subs {
		subs[i].scope, subs[i].sub = cardSubscription(t, tt, srv.URL, mp, "Billing kill")
	}

	c := workflowtest.Client(t)
	suffix := fmt.Sprint(time.Now().UnixNano())
	queue, plansQueue := "billing-kill-"+suffix, "billing-kill-plans-"+suffix
	p := workflowtest.StartProcess(t, &workflowtest.Process{Run: "TestBillingWorkerProcess",
		Env: []string{envBillingQueue + "=" + queue, envPlansQueue + "=" + plansQueue, envSandbox + "=" + srv.URL}})
	t.Cleanup(func() {
		for _, s := range subs {
			_ = c.TerminateWorkflow(context.Background(), billing.WorkflowID(s.scope.OrgID.String(), s.sub.ID.String()), "", "test over")
			_ = c.TerminateWorkflow(context.Background(), subscription.WorkflowID(s.scope.OrgID.String()), "", "test over")
		}
	})

	// Answers lost after the payment was recorded: a retry that charged again would double it.
	setFault(t, srv.URL, sandbox.Fault{Mode: "timeout", Count: 4, AfterCommit: true, DelayMS: 1500})
	bills := billing.Client{Temporal: c, Queue: queue}
	for _, s := range subs {
		require.NoError(t, bills.Start(ctx, s.scope.OrgID, s.sub.ID))
	}
	for i := 0; i < kills; i++ {
		time.Sleep(time.Duration(200+rand.IntN(1500)) * time.Millisecond)
		p.Kill()
		time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
		p.Start()
	}
	setFault(t, srv.URL, sandbox.Fault{Mode: "error500", Count: 3, AfterCommit: true})

	for _, s := range subs {
		require.Eventually(t, func() bool {
			facts, err := s.scope.Store().OrganizationFacts(ctx, s.scope.OrgID)
			return err == nil && facts.PlanCode == s.sub.PlanCode
		}, 3*time.Minute, 300*time.Millisecond, "the plan applies once the first period is paid")
		start := billing.FirstPeriodStart(s.sub.CreatedAt)
		ps, err := mp.FindPayments(ctx, billing.Reference(s.sub.ID, start))
		require.NoError(t, err)
		approved := 0
		for _, p := range ps {
			if p.Status == gateway.StatusApproved {
				approved++
			}
		}
		require.Equal(t, 1, approved, "subscription %s: one approved payment for its period", s.sub.ID)
		invs, err := s.scope.Store().SubscriptionInvoices(ctx, sharddb.SubscriptionInvoicesParams{OrganizationID: s.scope.OrgID})
		require.NoError(t, err)
		require.Len(t, invs, 1)
		require.Equal(t, "paid", invs[0].Status)
	}
	require.GreaterOrEqual(t, p.Kills(), kills)
}

// setFault makes the sandbox's next answers fail (its /__sandbox/faults endpoint).
func setFault(t *testing.T, sandboxURL string, f sandbox.Fault) {
	t.Helper()
	body, _ := json.Marshal(f)
	res, err := http.Post(sandboxURL+"/__sandbox/faults", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	res.Body.Close()
	require.Less(t, res.StatusCode, 300)
}
