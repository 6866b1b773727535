package payouts

import (
	"context"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/workflows/internal/schedule"
)

// ScheduleID is the Temporal schedule that runs Sweep daily.
const ScheduleID = "payouts-sweep"

// SweepHour is the hour (UTC) of the daily sweep: early morning in the Americas, so a payout asked
// then reaches the bank within its business day.
const SweepHour = 9

// Register adds the workflows and their activities to a worker on TaskQueue.
func Register(r worker.Registry, a *Activities) {
	r.RegisterWorkflow(Cycle)
	r.RegisterWorkflow(Sweep)
	r.RegisterActivity(a)
}

// KeepSchedule makes sure the daily schedule exists, retrying in the background while the Temporal
// server is still coming up, until ctx ends.
func KeepSchedule(ctx context.Context, c client.Client, queue string) {
	schedule.Keep(ctx, "payouts: sweep schedule", func(ctx context.Context) error {
		return schedule.Ensure(ctx, c, client.ScheduleOptions{ID: ScheduleID,
			Spec:   client.ScheduleSpec{Calendars: []client.ScheduleCalendarSpec{{Hour: []client.ScheduleRange{{Start: SweepHour}}}}},
			Action: &client.ScheduleWorkflowAction{ID: ScheduleID + "-run", Workflow: Sweep, Args: []any{SweepInput{}}, TaskQueue: queue}})
	})
}
