package subscription

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"
)

// TestReplaySavedHistory replays a history recorded from a real run on the Temporal test stack
// (TestTrialOnTheRealStack with APORTA_RECORD_HISTORY=1: trial, both reminders, the end, commission
// sweeps, a plan purchase update, cancel). A change that is not guarded with workflow.GetVersion
// fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	t.Parallel()
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflow(Workflow)
	require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(nil, "testdata/subscription_history.json"))
}
