package gatewayrefresh

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"
)

// TestReplaySavedHistory replays histories recorded on the Temporal dev server with stub
// activities (a refresh the gateway refuses): refused_before_signal.json from the workflow before
// SignalRefreshNow (a plain sleep until the lead), refused_after_signal.json from this one (a
// signal about an older version ignored, then one about the current version cutting the wait
// short). A change not guarded with workflow.GetVersion fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	for _, file := range []string{"testdata/refused_before_signal.json", "testdata/refused_after_signal.json"} {
		r := worker.NewWorkflowReplayer()
		r.RegisterWorkflow(Workflow)
		require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(nil, file), file)
	}
}
