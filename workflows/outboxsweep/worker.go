package outboxsweep

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/workflows/internal/schedule"
)

// ScheduleID is the Temporal schedule that runs Workflow every Every.
const ScheduleID = "outbox-sweep"

// Every is how often the sweep runs: a failed message waits at least outbox.RetryAfter anyway.
const Every = 2 * time.Minute

// Register adds the sweep workflow and its activities to a worker on TaskQueue.
func Register(w worker.Registry, a *Activities) {
	w.RegisterWorkflow(Workflow)
	w.RegisterActivity(a)
}

// KeepSchedule makes sure the schedule exists with this input, retrying in the background while
// the Temporal server is still coming up, until ctx ends.
func KeepSchedule(ctx context.Context, c client.Client, queue string, in Input) {
	schedule.Keep(ctx, "outbox: sweep schedule", func(ctx context.Context) error {
		return EnsureSchedule(ctx, c, ScheduleID, queue, in)
	})
}

// EnsureSchedule creates the schedule id, or updates it to this spec and input when it exists
// (schedule.Ensure).
func EnsureSchedule(ctx context.Context, c client.Client, id, queue string, in Input) error {
	return schedule.Ensure(ctx, c, client.ScheduleOptions{ID: id, Spec: client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: Every}}},
		Action: &client.ScheduleWorkflowAction{ID: id + "-run", Workflow: Workflow, Args: []any{in}, TaskQueue: queue}})
}
