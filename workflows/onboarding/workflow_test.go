package onboarding

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
)

func TestWorkflowFollowsStepsToEnabled(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var a *Activities
	var steps, statuses []string
	env.OnActivity(a.CompleteStep, mock.Anything, "org-1", mock.Anything).Return(
		func(_ context.Context, _ string, step string) error { steps = append(steps, step); return nil })
	env.OnActivity(a.SetStatus, mock.Anything, "org-1", mock.Anything).Return(
		func(_ context.Context, _ string, status string) error {
			statuses = append(statuses, status)
			return nil
		})

	query := func() State {
		v, err := env.QueryWorkflow(QueryState)
		require.NoError(t, err)
		var st State
		require.NoError(t, v.Get(&st))
		return st
	}
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(SignalStepCompleted, StepVerification) }, time.Minute)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(SignalStepCompleted, "bogus") }, 2*time.Minute)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(SignalStepCompleted, StepVerification) }, 3*time.Minute)
	env.RegisterDelayedCallback(func() {
		require.Equal(t, State{Completed: []string{StepVerification}, Status: "onboarding"}, query())
		env.SignalWorkflow(SignalStepCompleted, StepDocuments)
	}, time.Hour)
	env.RegisterDelayedCallback(func() {
		require.Equal(t, "verifying", query().Status)
		env.SignalWorkflow(SignalEnabled, nil)
	}, 30*time.Hour)

	env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org-1"})
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var final State
	require.NoError(t, env.GetWorkflowResult(&final))
	require.Equal(t, State{Completed: []string{StepVerification, StepDocuments}, Status: "enabled"}, final)
	require.Equal(t, []string{StepVerification, StepDocuments}, steps, "duplicates and unknown steps record nothing")
	require.Equal(t, []string{"verifying", "enabled"}, statuses)
}
