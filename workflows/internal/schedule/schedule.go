// Package schedule keeps the workers' Temporal schedules in place.
package schedule

import (
	"context"
	"log/slog"
	"time"
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
