package collection

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

// The bookkeeping activities, remote and local, stop retrying after BookkeepingRetryLimit: a row
// that cannot be written does not keep a worker slot forever.
func TestBookkeepingRetriesAreCapped(t *testing.T) {
	t.Parallel()
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		require.Equal(t, BookkeepingRetryLimit, workflow.GetActivityOptions(ctx).ScheduleToCloseTimeout)
		require.Equal(t, BookkeepingRetryLimit, workflow.GetLocalActivityOptions(ctx).ScheduleToCloseTimeout)
		require.NotNil(t, workflow.GetActivityOptions(ctx).RetryPolicy)
		return nil
	})
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
}
