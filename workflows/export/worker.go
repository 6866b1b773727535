package export

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/blob"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/schedule"
)

// CleanupScheduleID is the Temporal schedule that runs CleanupWorkflow daily.
const CleanupScheduleID = "leads-cleanup"

// Register adds the export workflows and their activities to a worker on TaskQueue.
func Register(w worker.Registry, a *Activities) {
	w.RegisterWorkflow(Workflow)
	w.RegisterWorkflow(CleanupWorkflow)
	w.RegisterActivity(a)
}

// NewActivities builds the activities from the configuration.
func NewActivities(ctx context.Context, cfg *config.Config, t *tenants.Tenants) (*Activities, error) {
	b, err := blob.Open(ctx, cfg.BlobURL)
	if err != nil {
		return nil, err
	}
	return &Activities{Tenants: t, Bucket: b, Mail: outbox.NewMailer(cfg, t.Directory()), Secret: cfg.Secret, PublicURL: cfg.PublicURL}, nil
}

// KeepCleanupSchedule makes sure the daily cleanup schedule exists, retrying in the background
// while the Temporal server is still coming up, until ctx ends.
func KeepCleanupSchedule(ctx context.Context, c client.Client, queue string) {
	schedule.Keep(ctx, "exports: cleanup schedule", func(ctx context.Context) error {
		return EnsureCleanupSchedule(ctx, c, queue)
	})
}

// EnsureCleanupSchedule creates the daily cleanup schedule if it does not exist. A schedule rather
// than a workflow looping on a timer: Temporal keeps no ever-growing history for it, overlapping runs
// are skipped by policy, and it can be paused or triggered from the UI.
func EnsureCleanupSchedule(ctx context.Context, c client.Client, queue string) error {
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID:   CleanupScheduleID,
		Spec: client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: 24 * time.Hour, Offset: 3 * time.Hour}}},
		Action: &client.ScheduleWorkflowAction{
			ID: "leads-cleanup-run", Workflow: CleanupWorkflow, TaskQueue: queue,
		},
	})
	if errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return nil
	}
	return err
}

// Start starts a leads export. key makes a retried request join the same export (the request's
// Idempotency-Key, or a fresh uuid).
func Start(ctx context.Context, c client.Client, queue, key string, in Input) (client.WorkflowRun, error) {
	if key == "" {
		key = uuid.NewString()
	}
	return c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: WorkflowID(in.OrganizationID, key), TaskQueue: queue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, Workflow, in)
}
