package onboarding

import (
	"context"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
)

// Client drives organisations' onboarding workflows from the API. Every call signals with start,
// so an organisation whose workflow was never started (or already finished and was restarted by
// the id reuse policy) still gets one; the workflow ignores repeated steps.
type Client struct{ Temporal client.Client }

func (c Client) signal(ctx context.Context, orgID uuid.UUID, name string, arg any) error {
	_, err := c.Temporal.SignalWithStartWorkflow(ctx, WorkflowID(orgID.String()), name, arg,
		client.StartWorkflowOptions{TaskQueue: TaskQueue}, Workflow, Input{OrganizationID: orgID.String()})
	return err
}

// DocumentsReady completes the documents step: the account goes to verifying.
func (c Client) DocumentsReady(ctx context.Context, orgID uuid.UUID) error {
	return c.signal(ctx, orgID, SignalStepCompleted, StepDocuments)
}

// GatewayConnected completes the gateway step: the organisation connected a payment gateway.
func (c Client) GatewayConnected(ctx context.Context, orgID uuid.UUID) error {
	return c.signal(ctx, orgID, SignalStepCompleted, StepGateway)
}

// DocumentReviewed tells the workflow a staff decision on a document (it e-mails the organisation).
func (c Client) DocumentReviewed(ctx context.Context, orgID uuid.UUID, r Review) error {
	return c.signal(ctx, orgID, SignalDocumentReviewed, r)
}

// Enable enables the account.
func (c Client) Enable(ctx context.Context, orgID uuid.UUID) error {
	return c.signal(ctx, orgID, SignalEnabled, nil)
}
