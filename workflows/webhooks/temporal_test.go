package webhooks_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/workflows/webhooks"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// On a real Temporal server: the endpoint's workflow finds the queued event, starts the delivery's
// workflow once (a second dispatch of the same delivery is a no-op), and the receiver gets it. With
// APORTA_RECORD_HISTORY set it saves both histories for TestReplaySavedHistory.
func TestDispatchAndDeliverOnTemporal(t *testing.T) {
	f := newFixture(t)
	c := workflowtest.Client(t)
	f.acts.Temporal = c
	queue := workflowtest.Worker(t, c, "webhooks-test-", func(r worker.Registry) { webhooks.Register(r, f.acts) })
	f.acts.Queue = queue
	in := webhooks.EndpointInput{OrganizationID: f.scope.OrgID.String(), EndpointID: f.endpoint.ID.String(), PollEvery: time.Second}
	run, err := c.ExecuteWorkflow(f.ctx, client.StartWorkflowOptions{ID: webhooks.EndpointWorkflowID(in.EndpointID), TaskQueue: queue},
		webhooks.EndpointWorkflow, in)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.TerminateWorkflow(context.Background(), run.GetID(), "", "test over") })

	require.Eventually(t, func() bool {
		got, err := f.box.Deliveries(f.ctx)
		return err == nil && len(got) == 1
	}, 30*time.Second, 200*time.Millisecond)
	d := f.delivery(t)
	require.NotNil(t, d.DispatchedAt)
	delivery := c.GetWorkflow(f.ctx, webhooks.DeliveryWorkflowID(d.ID.String()), "")
	require.NoError(t, delivery.Get(f.ctx, nil))
	require.NoError(t, webhooks.StartDelivery(f.ctx, c, queue, webhooks.DeliveryInput{OrganizationID: in.OrganizationID, DeliveryID: d.ID.String()}))
	time.Sleep(2 * time.Second) // a few more polls: nothing is delivered twice
	got, err := f.box.Deliveries(f.ctx)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.NoError(t, webhook.Verify([]byte(f.secret), got[0].Headers[webhook.SignatureHeader], []byte(got[0].Body), time.Now()))

	// Deleted, the endpoint's workflow ends at its next poll.
	_, err = f.scope.Store().DeleteWebhookEndpoint(f.ctx, sharddb.DeleteWebhookEndpointParams{OrganizationID: f.scope.OrgID, ID: f.endpoint.ID})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(f.ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, run.Get(ctx, nil))

	if os.Getenv("APORTA_RECORD_HISTORY") != "" {
		workflowtest.SaveHistory(t, c, delivery.GetID(), delivery.GetRunID(), "testdata/delivery_history.json")
		workflowtest.SaveHistory(t, c, run.GetID(), run.GetRunID(), "testdata/endpoint_history.json")
	}
}

// TestReplaySavedHistory replays histories recorded by TestDispatchAndDeliverOnTemporal: a change
// not guarded with workflow.GetVersion fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	t.Parallel()
	workflowtest.ReplayWorkflows(t, []any{webhooks.DeliveryWorkflow, webhooks.EndpointWorkflow},
		"testdata/delivery_history.json", "testdata/endpoint_history.json")
}
