// Package schedule keeps the workers' Temporal schedules in place.
package schedule

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
)

// Keep calls ensure until it succeeds, every 10 seconds while the Temporal server is still coming
// up, until ctx ends; what names the schedule in the warnings.
func Keep(ctx context.Context, what string, ensure func(context.Context) error) {
	for {
		attempt, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := ensure(attempt)
		cancel()
		if err == nil {
			return
		}
		slog.WarnContext(ctx, what, "error", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(10 * time.Second):
		}
	}
}

// Ensure creates the schedule o.ID, or updates it to o's spec and action when it exists, so every
// worker start leaves exactly one schedule with the current configuration. Overlapping runs are
// skipped (the schedules' default policy).
func Ensure(ctx context.Context, c client.Client, o client.ScheduleOptions) error {
	_, err := c.ScheduleClient().Create(ctx, o)
	if !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return err
	}
	return c.ScheduleClient().GetHandle(ctx, o.ID).Update(ctx, client.ScheduleUpdateOptions{
		DoUpdate: func(u client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
			s := u.Description.Schedule
			s.Spec, s.Action = &o.Spec, o.Action
			return &client.ScheduleUpdate{Schedule: &s}, nil
		},
	})
}
