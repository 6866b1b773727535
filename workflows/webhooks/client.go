package webhooks

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
)

// Client starts endpoints' and deliveries' workflows from the API.
type Client struct{ Temporal client.Client }

// Watch starts the endpoint's dispatching workflow unless it runs (a new or re-enabled endpoint).
func (c Client) Watch(ctx context.Context, orgID, endpointID uuid.UUID) error {
	in := EndpointInput{OrganizationID: orgID.String(), EndpointID: endpointID.String()}
	_, err := c.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: EndpointWorkflowID(in.EndpointID), TaskQueue: TaskQueue},
		EndpointWorkflow, in)
	return err
}

// Deliver starts the delivery's workflow (a resend), unless the endpoint's has.
func (c Client) Deliver(ctx context.Context, orgID, deliveryID uuid.UUID) error {
	return StartDelivery(ctx, c.Temporal, TaskQueue, DeliveryInput{OrganizationID: orgID.String(), DeliveryID: deliveryID.String()})
}

// StartDelivery starts in's delivery workflow on queue, once per delivery ever: a second start (the
// endpoint's poll racing a resend, a retried dispatch) is a no-op.
func StartDelivery(ctx context.Context, c client.Client, queue string, in DeliveryInput) error {
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: DeliveryWorkflowID(in.DeliveryID), TaskQueue: queue,
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE, WorkflowExecutionErrorWhenAlreadyStarted: true},
		DeliveryWorkflow, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil
	}
	return err
}
