package billing

import (
	"testing"

	"github.com/aporta/aporta/workflows/workflowtest"
)

// TestReplaySavedHistory replays a history recorded on the Temporal test stack
// (TestPeriodChargedOnceWhenTheActivityRetries with APORTA_RECORD_HISTORY=1: the first period's charge
// retried after its lost answer, the plan applied, the sleep to the next period). A change that is not
// guarded with workflow.GetVersion fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	t.Parallel()
	workflowtest.Replay(t, Workflow, "testdata/billing_history.json")
}
