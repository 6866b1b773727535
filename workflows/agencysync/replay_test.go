package agencysync

import (
	"testing"

	"github.com/aporta/aporta/workflows/workflowtest"
)

// TestReplaySavedHistory replays a history recorded on the Temporal dev server (the integration
// test with APORTA_SAVE_HISTORY=1): a 3 s delay, then a sync. A change not guarded with
// workflow.GetVersion fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	workflowtest.Replay(t, Workflow, "testdata/synced.json")
}
