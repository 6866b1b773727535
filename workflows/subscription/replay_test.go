package subscription

import (
	"testing"

	"github.com/aporta/aporta/workflows/workflowtest"
)

// TestReplaySavedHistory replays a history recorded from a real run on the Temporal test stack
// (TestTrialOnTheRealStack with APORTA_RECORD_HISTORY=1: trial, both reminders, the end, commission
// sweeps, a plan purchase update, cancel). A change that is not guarded with workflow.GetVersion
// fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	t.Parallel()
	workflowtest.Replay(t, Workflow, "testdata/subscription_history.json")
}
