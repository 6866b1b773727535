package onboarding_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/onboarding"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// The first real loop: a worker on the Temporal dev server runs onboarding, whose activities write
// to the organisation's shard and the directory.
func TestOnboardingOnTheDevServer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	c := workflowtest.Client(t)
	queue := workflowtest.Worker(t, c, "onboarding-test-", func(r worker.Registry) {
		onboarding.Register(r, tt, onboarding.NewMailer(cfg, tt), cfg.StaffInbox)
	})

	org := tenants.Organization{ID: uuid.New(), Name: "Fundación Andes", Country: "CL"}
	require.NoError(t, tt.CreateOrganization(ctx, org, ""))
	opts := client.StartWorkflowOptions{ID: onboarding.WorkflowID(org.ID.String()), TaskQueue: queue}
	run, err := c.ExecuteWorkflow(ctx, opts, onboarding.Workflow, onboarding.Input{OrganizationID: org.ID.String()})
	require.NoError(t, err)
	// Starting again with the same id joins the running workflow instead of starting a second one.
	again, err := c.ExecuteWorkflow(ctx, opts, onboarding.Workflow, onboarding.Input{OrganizationID: org.ID.String()})
	require.NoError(t, err)
	require.Equal(t, run.GetRunID(), again.GetRunID())

	for _, step := range []string{onboarding.StepVerification, onboarding.StepGateway, onboarding.StepDocuments} {
		require.NoError(t, c.SignalWorkflow(ctx, run.GetID(), "", onboarding.SignalStepCompleted, step))
	}
	scope, err := tt.ForOrganization(ctx, org.ID)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		var status string
		var steps []string
		err := scope.QueryRow(ctx, `SELECT status, onboarding_steps FROM organizations WHERE organization_id = $1`, org.ID).Scan(&status, &steps)
		return err == nil && status == "verifying" && len(steps) == 3
	}, 30*time.Second, 200*time.Millisecond)

	require.NoError(t, c.SignalWorkflow(ctx, run.GetID(), "", onboarding.SignalEnabled, nil))
	var final onboarding.State
	require.NoError(t, run.Get(ctx, &final))
	require.Equal(t, "enabled", final.Status)
	dir, err := tt.GetOrganization(ctx, org.ID)
	require.NoError(t, err)
	require.Equal(t, "enabled", dir.Status, "the directory follows the shard")
}
