package subscription

import (
	"context"
	"errors"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

// Register adds the subscription workflow and its activities to a worker on TaskQueue.
func Register(w worker.Registry, a *Activities) {
	w.RegisterWorkflow(Workflow)
	w.RegisterActivity(a)
}

// NewActivities builds the activities from the configuration: the outbox for e-mails and Kratos for
// the administrators' addresses.
func NewActivities(cfg *config.Config, t *tenants.Tenants) *Activities {
	return &Activities{
		Tenants:   t,
		Mail:      outbox.NewMailer(cfg, t.Directory()),
		PublicURL: cfg.PublicURL,
	}
}

// Start starts the organisation's subscription workflow on queue (TaskQueue in production).
// Idempotent: while it runs, starting again returns the running workflow. Registration and seed call
// it once the organisation exists in its shard.
func Start(ctx context.Context, c client.Client, queue string, orgID uuid.UUID) (client.WorkflowRun, error) {
	return StartWithTiming(ctx, c, queue, orgID, Timing{})
}

// StartWithTiming is Start with shortened durations (tests).
func StartWithTiming(ctx context.Context, c client.Client, queue string, orgID uuid.UUID, t Timing) (client.WorkflowRun, error) {
	return c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       WorkflowID(orgID.String()),
		TaskQueue:                queue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, Workflow, Input{OrganizationID: orgID.String(), Timing: t})
}

// Plans applies and ends bought plans on the organisations' subscription workflows (billing's
// Plans).
type Plans struct {
	Temporal client.Client
	Queue    string // TaskQueue unless a test runs its own worker
}

// Apply stores a paid plan (PurchasePlan).
func (p Plans) Apply(ctx context.Context, orgID uuid.UUID, plan string) error {
	_, err := PurchasePlan(ctx, p.Temporal, p.queue(), orgID, plan)
	return err
}

// Lapse ends the organisation's bought plan and waits until it is stored.
func (p Plans) Lapse(ctx context.Context, orgID uuid.UUID) error {
	return update(ctx, p.Temporal, p.queue(), orgID, UpdatePlanLapsed, nil)
}

func (p Plans) queue() string {
	if p.Queue == "" {
		return TaskQueue
	}
	return p.Queue
}

// ErrPlanRefused is returned by PurchasePlan when the workflow refused the plan code.
var ErrPlanRefused = errors.New("subscription: plan refused")

// PurchasePlan sends the plan-purchased update and waits until the workflow has stored the plan.
// The workflow is started first when it is not running (an organisation created before trials
// existed), so the call always lands.
func PurchasePlan(ctx context.Context, c client.Client, queue string, orgID uuid.UUID, plan string) (State, error) {
	var st State
	return st, update(ctx, c, queue, orgID, UpdatePlanPurchased, &st, PlanRequest{PlanCode: plan})
}

// update sends an update to the organisation's workflow (started first when it is not running) and
// waits for its answer, stored in out when not nil.
func update(ctx context.Context, c client.Client, queue string, orgID uuid.UUID, name string, out *State, args ...any) error {
	if _, err := Start(ctx, c, queue, orgID); err != nil {
		return err
	}
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   WorkflowID(orgID.String()),
		UpdateName:   name,
		Args:         args,
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return err
	}
	if out == nil {
		out = new(State)
	}
	return h.Get(ctx, out)
}
