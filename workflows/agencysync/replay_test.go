package agencysync

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"
)

// TestReplaySavedHistory replays a history recorded on the Temporal dev server (the integration
// test with APORTA_SAVE_HISTORY=1): a 3 s delay, then a sync. A change not guarded with
// workflow.GetVersion fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflow(Workflow)
	require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(nil, "testdata/synced.json"))
}
