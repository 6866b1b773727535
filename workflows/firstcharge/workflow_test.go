package firstcharge

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

// onSettle answers the settle activity with fn.
func onSettle(env *testsuite.TestWorkflowEnvironment, fn func(context.Context, SettleRequest) (bool, error)) {
	var a *Activities
	env.RegisterActivity(a)
	env.OnActivity(a.SettleFirstCharge, mock.Anything, mock.Anything).Return(fn)
}

// checks runs the workflow with a settle activity that answers settled on the given call (0: never)
// and returns the requests it got and when, measured from the run's first task (the sweep starts it a
// first wait after its donation). startedBefore runs it as a run started before the start delay was.
func checks(t *testing.T, settledOn int, startedBefore bool) ([]SettleRequest, []time.Duration) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	if startedBefore {
		env.OnGetVersion(startDelayedVersion, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	}
	var reqs []SettleRequest
	var at []time.Duration
	var start time.Time
	onSettle(env, func(_ context.Context, r SettleRequest) (bool, error) {
		reqs = append(reqs, r)
		at = append(at, env.Now().Sub(start))
		return len(reqs) == settledOn, nil
	})
	start = env.Now()
	env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org", DonationID: "don"})
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	return reqs, at
}

func TestStopsOnceSettled(t *testing.T) {
	reqs, at := checks(t, 2, false)
	require.Len(t, reqs, 2)
	require.Equal(t, []time.Duration{0, 10 * time.Minute}, at, "the first check at once: the sweep started it a first wait after its donation")
	require.Equal(t, Input{OrganizationID: "org", DonationID: "don"}, reqs[0].Input)
	require.False(t, reqs[1].Final)
}

// A run started without the start delay (before it existed) still waits the first wait itself.
func TestARunStartedBeforeTheStartDelayWaitsItself(t *testing.T) {
	_, at := checks(t, 2, true)
	require.Equal(t, []time.Duration{2 * time.Minute, 12 * time.Minute}, at)
}

func TestGivesUpAfterTheFinalCheck(t *testing.T) {
	reqs, at := checks(t, 0, false)
	require.Len(t, reqs, len(Checks))
	var total time.Duration
	for _, c := range Checks[1:] {
		total += c
	}
	require.Equal(t, total, at[len(at)-1], "about four days in all after the start delay")
	for i, r := range reqs {
		require.Equal(t, i == len(Checks)-1, r.Final, "only the last check is final")
	}
}

// A read-back that keeps failing (the gateway down) gives up within its cap and leaves the question
// to the next check instead of retrying forever; the last check's failure fails the workflow.
func TestFailingReadBackIsCappedAndGivesWayToTheNextCheck(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var start time.Time
	var at []time.Duration
	onSettle(env, func(_ context.Context, r SettleRequest) (bool, error) {
		at = append(at, env.Now().Sub(start))
		return false, errors.New("gateway down")
	})
	start = env.Now()
	env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org", DonationID: "don"})
	require.True(t, env.IsWorkflowCompleted())
	require.ErrorContains(t, env.GetWorkflowError(), "gateway down")
	var total time.Duration
	for _, w := range Checks {
		total += w
	}
	require.Greater(t, len(at), len(Checks), "each check retried")
	// Each check's retries end within the cap, so the whole run ends by then.
	require.LessOrEqual(t, at[len(at)-1], total+time.Duration(len(Checks))*ActivityOptions.ScheduleToCloseTimeout, "retries past the cap")
}

// Invalid input is not retried: one call, and the workflow fails at once.
func TestInvalidInputIsNotRetried(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	calls := 0
	onSettle(env, func(_ context.Context, r SettleRequest) (bool, error) {
		calls++
		return false, temporal.NewNonRetryableApplicationError("donation id", "invalid_input", nil)
	})
	env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org", DonationID: "not-a-uuid"})
	require.True(t, env.IsWorkflowCompleted())
	require.ErrorContains(t, env.GetWorkflowError(), "invalid_input")
	require.Equal(t, 1, calls)
}
