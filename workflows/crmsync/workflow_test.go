package crmsync_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/crm/sandbox"
	"github.com/aporta/aporta/workflows/crmsync"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// The budget runs out (another application of the organisation used it all): the first call is
// refused with REQUEST_LIMIT_EXCEEDED, the queue parks for an hour of workflow time, the window
// reopens meanwhile, and the next drain sends everything, once.
func TestBudgetExhaustionParksAndResumesWithNothingLost(t *testing.T) {
	f := newFixture(t, 5, 100)
	used := 100
	require.NoError(t, f.admin.Usage(f.ctx, f.org.ClientID, &used, nil, false))

	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(crmsync.Workflow)
	env.RegisterActivity(f.activities())
	var atPark map[string]int
	env.RegisterDelayedCallback(func() {
		assert.Equal(t, 10, int(f.queue().Pending), "parked: nothing sent, nothing dropped")
		assert.Empty(t, f.records("Contact"))
		atPark = f.outcomes()
		require.NoError(t, f.admin.Usage(f.ctx, f.org.ClientID, nil, nil, true)) // the 24-hour window reopens
	}, 30*time.Minute)
	env.RegisterDelayedCallback(env.CancelWorkflow, 3*time.Hour)
	in := f.input()
	in.PollEvery = 10 * time.Minute
	env.ExecuteWorkflow(crmsync.Workflow, in)
	require.True(t, env.IsWorkflowCompleted())

	assert.Equal(t, 1, atPark["query/limited"], "the refused call is logged: %v", atPark)
	assert.Equal(t, 0, int(f.queue().Pending))
	assert.Len(t, f.byExternalID(f.records("Contact")), 5)
	assert.Len(t, f.byExternalID(f.records("npe03__Recurring_Donation__c")), 5)
}

// A worker stops in the middle of a batch (its call to the CRM hanging); another worker picks the
// batch up once the heartbeat lapses, and every record lands once. With APORTA_SAVE_HISTORY set it
// saves the workflow's history for TestReplaySavedHistory.
func TestBatchSurvivesWorkerStoppedMidCall(t *testing.T) {
	f := newFixture(t, 3, 0)
	f.vault.Timeout = 20 * time.Second
	c := workflowtest.Client(t)
	queue := "crm-sync-test-" + uuid.NewString()
	start := func() worker.Worker {
		w := worker.New(c, queue, worker.Options{})
		crmsync.Register(w, f.activities())
		require.NoError(t, w.Start())
		return w
	}
	first := start()
	// The contacts' read hangs: the first worker is stopped while it waits.
	require.NoError(t, f.admin.Fault(f.ctx, f.org.ClientID, sandbox.Fault{Mode: "timeout", DelayMS: 15000}))
	in := f.input()
	in.PollEvery = time.Second
	require.NoError(t, crmsync.Wake(f.ctx, c, queue, in))
	time.Sleep(2 * time.Second)
	first.Stop()
	second := start()
	defer second.Stop()

	deadline := time.Now().Add(2 * time.Minute)
	for f.queue().Pending > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Second)
	}
	assert.Equal(t, 0, int(f.queue().Pending))
	assert.Len(t, f.byExternalID(f.records("Contact")), 3)
	assert.Len(t, f.byExternalID(f.records("npe03__Recurring_Donation__c")), 3)

	require.NoError(t, c.TerminateWorkflow(context.Background(), crmsync.WorkflowID(in.IntegrationID), "", "test done"))
	if os.Getenv("APORTA_SAVE_HISTORY") != "" {
		workflowtest.SaveHistory(t, c, crmsync.WorkflowID(in.IntegrationID), "", "testdata/worker_stopped.json")
	}
}

// TestReplaySavedHistory replays a history recorded by TestBatchSurvivesWorkerStoppedMidCall: a
// change to the workflow not guarded with workflow.GetVersion fails here.
func TestReplaySavedHistory(t *testing.T) {
	workflowtest.Replay(t, crmsync.Workflow, "testdata/worker_stopped.json")
}
