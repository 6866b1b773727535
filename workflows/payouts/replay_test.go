package payouts_test

import (
	"testing"

	"github.com/aporta/aporta/workflows/payouts"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// TestReplaySavedHistory replays a cycle recorded on the test stack (TestUnknownOutcomeIsReadBack with
// APORTA_SAVE_HISTORY set: a payout whose first ask failed before dLocal made it, asked again). A
// change not guarded with workflow.GetVersion fails here with a non-determinism error.
func TestReplaySavedHistory(t *testing.T) {
	workflowtest.Replay(t, payouts.Cycle, "testdata/cycle_pay_retried.json")
}
