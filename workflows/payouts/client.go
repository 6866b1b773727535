package payouts

import (
	"context"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// Client runs organisations' payout cycles out of schedule.
type Client struct {
	Temporal client.Client
	Queue    string // TaskQueue when empty
}

// RunCycle runs the organisation's payout cycle now and waits for it, joining the one running if
// any (`aporta payouts`: after fixing what held a payout back, or in a test).
func (c Client) RunCycle(ctx context.Context, orgID uuid.UUID) error {
	queue := c.Queue
	if queue == "" {
		queue = TaskQueue
	}
	run, err := c.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       CycleID(orgID.String()),
		TaskQueue:                queue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, Cycle, Input{OrganizationID: orgID.String()})
	if err != nil {
		return err
	}
	return run.Get(ctx, nil)
}
