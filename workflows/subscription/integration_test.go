package subscription_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/subscription"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// A real run on the test stack with the trial shortened to seconds: trial recorded, restriction in
// the shard after the end, plan purchase through the update lifts it. With APORTA_RECORD_HISTORY=1
// it saves the history the replay test runs.
func TestTrialOnTheRealStack(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	c := workflowtest.Client(t)
	queue := workflowtest.Worker(t, c, "subscription-it-", func(r worker.Registry) {
		subscription.Register(r, subscription.NewActivities(cfg, tt))
	})

	org := uuid.New()
	scope := tenantstest.Organization(t, tt, tenants.Organization{ID: org, Name: "Fundación Prueba", Country: "AR"}, "America/Argentina/Buenos_Aires")
	timing := subscription.Timing{TrialLength: 6 * time.Second, Reminders: []time.Duration{4 * time.Second, 2 * time.Second}}
	run, err := subscription.StartWithTiming(ctx, c, queue, org, timing)
	require.NoError(t, err)
	again, err := subscription.StartWithTiming(ctx, c, queue, org, timing)
	require.NoError(t, err)
	require.Equal(t, run.GetRunID(), again.GetRunID(), "starting twice joins the running workflow")

	require.Eventually(t, func() bool {
		s, err := subscription.Get(ctx, scope)
		return err == nil && s.Status == subscription.StatusTrial && s.TrialEndsAt != nil
	}, 20*time.Second, 100*time.Millisecond)
	ok, err := subscription.AcceptingDonations(ctx, scope)
	require.NoError(t, err)
	require.True(t, ok)

	require.Eventually(t, func() bool {
		s, err := subscription.Get(ctx, scope)
		return err == nil && s.Status == subscription.StatusRestricted && s.CommissionBps == 350 && !s.Accepting
	}, 30*time.Second, 200*time.Millisecond)
	ok, err = subscription.AcceptingDonations(ctx, scope)
	require.NoError(t, err)
	require.False(t, ok)

	st, err := subscription.PurchasePlan(ctx, c, queue, org, "essential_monthly")
	require.NoError(t, err)
	require.Equal(t, subscription.StatusActive, st.Status)
	s, err := subscription.Get(ctx, scope)
	require.NoError(t, err)
	require.Equal(t, "essential_monthly", s.PlanCode)
	require.True(t, s.Accepting)
	require.Zero(t, s.CommissionBps)

	require.NoError(t, c.CancelWorkflow(ctx, run.GetID(), run.GetRunID()))
	if os.Getenv("APORTA_RECORD_HISTORY") != "" {
		time.Sleep(time.Second)
		workflowtest.SaveHistory(t, c, run.GetID(), run.GetRunID(), "testdata/subscription_history.json")
	}
}
