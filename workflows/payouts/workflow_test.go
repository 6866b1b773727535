package payouts_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/aporta/aporta/workflows/payouts"
)

// The sweep starts one cycle per organisation the activity lists.
func TestSweepStartsEachOrganisationsCycle(t *testing.T) {
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
	var a *payouts.Activities
	env.RegisterActivity(a)
	env.RegisterWorkflow(payouts.Cycle)
	env.OnActivity(a.Organizations, mock.Anything).Return([]string{"org-a", "org-b"}, nil).Once()
	var started []string
	env.OnWorkflow(payouts.Cycle, mock.Anything, mock.Anything).Return(func(_ workflow.Context, in payouts.Input) error {
		started = append(started, in.OrganizationID)
		return nil
	})
	env.ExecuteWorkflow(payouts.Sweep, payouts.SweepInput{})
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	require.ElementsMatch(t, []string{"org-a", "org-b"}, started)
}

// A cycle pays each payout Prepare answers; one that fails does not keep the others from being paid.
func TestCyclePaysEveryPreparedPayout(t *testing.T) {
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
	var a *payouts.Activities
	env.RegisterActivity(a)
	in := payouts.Input{OrganizationID: "org"}
	env.OnActivity(a.Prepare, mock.Anything, in).Return([]string{"p1", "p2"}, nil).Once()
	var paid []string
	env.OnActivity(a.Pay, mock.Anything, mock.Anything).Return(func(_ context.Context, p payouts.PayInput) (string, error) {
		paid = append(paid, p.PayoutID)
		if p.PayoutID == "p1" {
			return "", errors.New("processor down")
		}
		return payouts.StatusPaid, nil
	})
	env.ExecuteWorkflow(payouts.Cycle, in)
	require.True(t, env.IsWorkflowCompleted())
	require.Error(t, env.GetWorkflowError())
	require.Contains(t, paid, "p2")
}
