package gatewayrefresh

import (
	"testing"

	"github.com/aporta/aporta/workflows/workflowtest"
)

// TestReplaySavedHistory replays histories recorded on the Temporal dev server with stub
// activities (a refresh the gateway refuses): refused_before_signal.json from the workflow before
// SignalRefreshNow (a plain sleep until the lead), refused_after_signal.json from this one (a
// signal about an older version ignored, then one about the current version cutting the wait
// short). A change not guarded with workflow.GetVersion fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	workflowtest.Replay(t, Workflow, "testdata/refused_before_signal.json", "testdata/refused_after_signal.json")
}
