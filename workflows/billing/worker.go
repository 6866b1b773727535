package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
)

// Register adds the billing workflow and its activities to a worker on TaskQueue.
func Register(w worker.Registry, a *Activities) {
	w.RegisterWorkflow(Workflow)
	w.RegisterActivity(a)
}

// PlatformAccount is the platform's own MercadoPago account (APORTA_GATEWAY_TOKEN): it takes one
// currency, the one of its site.
type PlatformAccount struct {
	Client   *mercadopago.Client
	Currency string
}

// NewPlatformAccount builds the platform account from the configuration.
func NewPlatformAccount(cfg *config.Config) (*PlatformAccount, error) {
	c, err := mercadopago.New(mercadopago.Config{BaseURL: cfg.GatewayURL, AccessToken: cfg.GatewayToken, Currency: cfg.GatewayCurrency})
	if err != nil {
		return nil, err
	}
	return &PlatformAccount{Client: c, Currency: cfg.GatewayCurrency}, nil
}

// ErrNoPlatformAccount: the platform has no account in the currency asked for.
var ErrNoPlatformAccount = fmt.Errorf("billing: no platform gateway account in this currency")

// Gateway answers the platform account when it takes currency.
func (p *PlatformAccount) Gateway(currency string) (charge.Gateway, error) {
	if p == nil || p.Currency != currency {
		return nil, ErrNoPlatformAccount
	}
	return p.Client, nil
}

// Client starts and wakes the billing workflows.
type Client struct {
	Temporal client.Client
	Queue    string // TaskQueue unless a test runs its own worker
}

// Start starts the subscription's billing workflow (idempotent while it runs).
func (c Client) Start(ctx context.Context, orgID, subID uuid.UUID) error {
	return c.StartInput(ctx, Input{OrganizationID: orgID.String(), SubscriptionID: subID.String()})
}

// StartInput is Start with the whole input (tests shorten the retry delays).
func (c Client) StartInput(ctx context.Context, in Input) error {
	q := c.Queue
	if q == "" {
		q = TaskQueue
	}
	_, err := c.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       WorkflowID(in.OrganizationID, in.SubscriptionID),
		TaskQueue:                q,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, Workflow, in)
	return err
}

// Changed tells the subscription's workflow to reload it (new payment method, cancellation,
// a transfer recorded).
func (c Client) Changed(ctx context.Context, orgID, subID uuid.UUID) error {
	return c.Temporal.SignalWorkflow(ctx, WorkflowID(orgID.String(), subID.String()), "", SignalChanged, nil)
}

// ChangePlan asks the subscription's workflow for another plan (UpdateChangePlan) and waits for the
// outcome. Each call is a new change, its id the update's.
func (c Client) ChangePlan(ctx context.Context, orgID, subID uuid.UUID, plan string) (ChangeResult, error) {
	changeID := uuid.NewString()
	h, err := c.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: WorkflowID(orgID.String(), subID.String()), UpdateID: changeID, UpdateName: UpdateChangePlan,
		Args: []any{Change{ChangeID: changeID, PlanCode: plan}}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	var res ChangeResult
	if err != nil {
		return res, err
	}
	return res, h.Get(ctx, &res)
}
