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
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
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
	require.Equal(t, State{Completed: []string{StepVerification, StepDocuments}, Status: "enabled"}, finalState(t, env))
	require.Equal(t, []string{StepVerification, StepDocuments}, steps, "duplicates and unknown steps record nothing")
	require.Equal(t, []string{"verifying", "enabled"}, statuses)
}

// finalState is the state the workflow ended with; it must have completed without error.
func finalState(t *testing.T, env *testsuite.TestWorkflowEnvironment) State {
	t.Helper()
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var st State
	require.NoError(t, env.GetWorkflowResult(&st))
	return st
}

func TestWorkflowRemindsStaffAndEmailsOrganisation(t *testing.T) {
	t.Parallel()
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
	var a *Activities
	start := env.Now()
	env.RegisterActivity(a)
	env.OnActivity(a.CompleteStep, mock.Anything, "org-1", mock.Anything).Return(nil)
	env.OnActivity(a.SetStatus, mock.Anything, "org-1", mock.Anything).Return(nil)
	var reminders []time.Duration
	env.OnActivity(a.RemindStaff, mock.Anything, "org-1").Return(func(_ context.Context, _ string) (time.Duration, error) {
		reminders = append(reminders, env.Now().Sub(start))
		return ReviewPoll, nil
	})
	var emails []Email
	env.OnActivity(a.EmailOrganization, mock.Anything, "org-1", mock.Anything).Return(func(_ context.Context, _ string, e Email) error {
		emails = append(emails, e)
		return nil
	})

	env.RegisterDelayedCallback(func() { env.SignalWorkflow(SignalStepCompleted, StepDocuments) }, time.Minute)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SignalDocumentReviewed, Review{Key: "k1", DocumentType: "bylaws", Decision: "rejected", Reason: "sin firma"})
	}, 2*time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SignalDocumentReviewed, Review{Key: "k2", DocumentType: "bylaws", Decision: "approved"})
		env.SignalWorkflow(SignalEnabled, nil)
	}, 50*time.Hour)
	env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org-1"})

	require.Equal(t, "enabled", finalState(t, env).Status)
	// The first check comes 40 hours into the review, then every ReviewPoll until enabled.
	require.NotEmpty(t, reminders)
	require.Equal(t, time.Minute+ReviewTarget-ReminderLead, reminders[0])
	kinds := []string{}
	for _, e := range emails {
		kinds = append(kinds, e.Kind)
	}
	require.Equal(t, []string{EmailDocumentRejected, EmailDocumentApproved, EmailAccountEnabled}, kinds)
	require.Equal(t, "sin firma", emails[0].Params["reason"])
	require.Equal(t, "account_enabled/org-1", emails[2].Key)
}
