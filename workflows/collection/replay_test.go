package collection

import (
	"testing"

	"github.com/aporta/aporta/workflows/workflowtest"
)

// TestReplaySavedHistory replays histories recorded from real runs on the Temporal dev server
// (the integration test of the time with APORTA_RECORD_HISTORY=1): donation_history.json from
// before the activity versions (five periods charged, an amount change, collect-now updates, a
// discard), donation_history_v2.json with local bookkeeping activities and a collect-day change
// sent right after the start, donation_history_v3.json with the folded bookkeeping (OpenDonation,
// the charge writing the approved period's row; TestMonthlyDonationOnTheRealStack: a collect-day
// change right after the start, one period charged, an amount change, a discard), and
// donation_history_v4.json, the same test with no marker of the retry schedule's own,
// donation_history_v5.json, the same test with the charge as a local activity (its marker in the first
// workflow task), and donation_history_v5_fallback.json (TestChargesSurviveGatewayFaults' timeout
// before the commit), a local charge that failed and went on as the regular activity. A change to the
// workflow that is not guarded with workflow.GetVersion fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	t.Parallel()
	workflowtest.Replay(t, Workflow, "testdata/donation_history.json", "testdata/donation_history_v2.json", "testdata/donation_history_v3.json",
		"testdata/donation_history_v4.json", "testdata/donation_history_v5.json", "testdata/donation_history_v5_fallback.json")
}
