// Package outboxsweep keeps the outbox moving and small: every few minutes it retries the messages
// whose delivery failed or never finished, and deletes the messages older than the retention.
package outboxsweep

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the worker queue of the sweep.
const TaskQueue = "outbox"

// Input is the schedule's argument: the configured retention travels with the schedule, so a new
// value reaches it when the worker updates the schedule at start.
type Input struct {
	Retention time.Duration `json:"retention"`
}

// Batch caps how many pending messages one run retries; the next run takes the rest.
const Batch = 200

// Workflow retries pending messages, then purges old ones.
func Workflow(ctx workflow.Context, in Input) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 10 * time.Second, MaximumInterval: time.Minute, MaximumAttempts: 3},
	})
	var a *Activities
	if err := workflow.ExecuteActivity(ctx, a.DeliverPending, Batch).Get(ctx, nil); err != nil {
		return err
	}
	return workflow.ExecuteActivity(ctx, a.Purge, workflow.Now(ctx).Add(-in.Retention)).Get(ctx, nil)
}
