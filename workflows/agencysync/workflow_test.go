package agencysync

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
)

// TestSyncWaitsTheAcquisitionsDelay: the activity runs once the delay the acquisition was made with
// has passed (time skipped), not before, and a failing sync is retried rather than dropped.
func TestSyncWaitsTheAcquisitionsDelay(t *testing.T) {
	for _, delay := range []int{0, 60, 7200} {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		var a *Activities
		env.RegisterActivity(a)
		start := env.Now()
		var at []time.Duration
		in := Input{OrganizationID: "org", AcquisitionID: "acq", DelaySeconds: delay}
		env.OnActivity(a.Sync, mock.Anything, in).Return(func(context.Context, Input) (Result, error) {
			at = append(at, env.Now().Sub(start))
			if len(at) == 1 {
				return Result{}, errors.New("database down")
			}
			return Result{Status: "synced", DonationID: "acq"}, nil
		})
		env.ExecuteWorkflow(Workflow, in)
		require.True(t, env.IsWorkflowCompleted())
		require.NoError(t, env.GetWorkflowError())
		var out Result
		require.NoError(t, env.GetWorkflowResult(&out))
		require.Equal(t, "synced", out.Status)
		require.Len(t, at, 2, "retried once")
		require.GreaterOrEqual(t, at[0], time.Duration(delay)*time.Second)
		require.Less(t, at[0], time.Duration(delay)*time.Second+time.Second)
	}
}
