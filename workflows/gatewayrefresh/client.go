package gatewayrefresh

import (
	"context"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// Client starts connections' refresh workflows from the API.
type Client struct{ Temporal client.Client }

// Watch starts the connection's workflow, replacing a running one: a reconnection has new
// credentials and a new expiry, so the old schedule no longer holds.
func (c Client) Watch(ctx context.Context, orgID, connectionID uuid.UUID) error {
	return Start(ctx, c.Temporal, TaskQueue, Input{OrganizationID: orgID.String(), ConnectionID: connectionID.String()})
}

// Start starts the workflow on queue (TaskQueue in production), terminating one already running
// for the connection.
func Start(ctx context.Context, c client.Client, queue string, in Input) error {
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       WorkflowID(in.ConnectionID),
		TaskQueue:                queue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING,
	}, Workflow, in)
	return err
}

// RefreshNow tells the connection's workflow that the gateway refused the access token of the
// connection's version, starting the workflow when none runs (a connection made before the
// workflow existed, or one whose workflow ended): it refreshes at once.
func (c Client) RefreshNow(ctx context.Context, orgID, connectionID uuid.UUID, version int32) error {
	in := Input{OrganizationID: orgID.String(), ConnectionID: connectionID.String()}
	_, err := c.Temporal.SignalWithStartWorkflow(ctx, WorkflowID(in.ConnectionID), SignalRefreshNow, RefreshNow{Version: version},
		client.StartWorkflowOptions{ID: WorkflowID(in.ConnectionID), TaskQueue: TaskQueue}, Workflow, in)
	return err
}
