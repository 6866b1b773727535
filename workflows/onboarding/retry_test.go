package onboarding

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
)

// An invalid organisation id can never succeed: the activity says so (non-retryable), and the
// workflow fails after one attempt instead of retrying it for a day.
func TestInvalidOrganisationIDIsNotRetried(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	aenv := s.NewTestActivityEnvironment()
	a := &Activities{}
	aenv.RegisterActivity(a)
	_, err := aenv.ExecuteActivity(a.CompleteStep, "not-a-uuid", "documents")
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	require.True(t, appErr.NonRetryable())

	env := s.NewTestWorkflowEnvironment()
	calls := 0
	env.OnActivity(a.SetStatus, mock.Anything, mock.Anything, mock.Anything).Return(func(ctx context.Context, org, status string) error {
		calls++
		return a.SetStatus(ctx, org, status)
	})
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(SignalEnabled, nil) }, time.Minute)
	env.ExecuteWorkflow(Workflow, Input{OrganizationID: "not-a-uuid"})
	require.True(t, env.IsWorkflowCompleted())
	require.ErrorContains(t, env.GetWorkflowError(), "invalid_input")
	require.Equal(t, 1, calls)
}
