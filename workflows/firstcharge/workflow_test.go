package firstcharge

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
)

// checks runs the workflow with a settle activity that answers settled on the given call (0: never)
// and returns the requests it got and when, measured from the start.
func checks(t *testing.T, settledOn int) ([]SettleRequest, []time.Duration) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var reqs []SettleRequest
	var at []time.Duration
	var start time.Time
	env.RegisterActivityWithOptions(func(_ context.Context, r SettleRequest) (bool, error) {
		reqs = append(reqs, r)
		at = append(at, env.Now().Sub(start))
		return len(reqs) == settledOn, nil
	}, activity.RegisterOptions{Name: ActivityName})
	start = env.Now()
	env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org", DonationID: "don"})
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	return reqs, at
}

func TestStopsOnceSettled(t *testing.T) {
	reqs, at := checks(t, 2)
	require.Len(t, reqs, 2)
	require.Equal(t, []time.Duration{2 * time.Minute, 12 * time.Minute}, at)
	require.Equal(t, Input{OrganizationID: "org", DonationID: "don"}, reqs[0].Input)
	require.False(t, reqs[1].Final)
}

func TestGivesUpAfterTheFinalCheck(t *testing.T) {
	reqs, at := checks(t, 0)
	require.Len(t, reqs, len(Checks))
	var total time.Duration
	for _, c := range Checks {
		total += c
	}
	require.Equal(t, total, at[len(at)-1], "about four days in all")
	for i, r := range reqs {
		require.Equal(t, i == len(Checks)-1, r.Final, "only the last check is final")
	}
}
