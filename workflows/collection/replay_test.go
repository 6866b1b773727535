package collection

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"
)

// TestReplaySavedHistory replays a history recorded from a real run on the Temporal dev server
// (TestMonthlyDonationAcrossMonths with APORTA_RECORD_HISTORY=1: five periods charged, an amount
// change, collect-now updates, a discard). A change to the workflow that is not guarded with
// workflow.GetVersion fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	t.Parallel()
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflow(Workflow)
	require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(nil, "testdata/donation_history.json"))
}
