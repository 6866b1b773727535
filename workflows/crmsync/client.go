package crmsync

import (
	"context"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
)

// Client wakes integrations' workflows from the API.
type Client struct{ Temporal client.Client }

// Wake tells the integration's workflow there is work, starting it when none runs (a new
// integration, or one whose workflow ended).
func (c Client) Wake(ctx context.Context, orgID, integrationID uuid.UUID) error {
	return Wake(ctx, c.Temporal, TaskQueue, Input{OrganizationID: orgID.String(), IntegrationID: integrationID.String()})
}

// Wake signals (or starts, on queue) the workflow of in's integration.
func Wake(ctx context.Context, c client.Client, queue string, in Input) error {
	_, err := c.SignalWithStartWorkflow(ctx, WorkflowID(in.IntegrationID), SignalWake, nil,
		client.StartWorkflowOptions{ID: WorkflowID(in.IntegrationID), TaskQueue: queue}, Workflow, in)
	return err
}
