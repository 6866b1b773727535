// Package workflows runs Aporta's Temporal workers: one worker per long process's task queue.
package workflows

import (
	"context"
	"fmt"
	"log/slog"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/api/config"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/onboarding"
)

// Dial returns a lazy client: it connects on first use, so `aporta serve` starts (and reports
// Temporal as down on /readyz) while the Temporal server is still coming up.
func Dial(cfg *config.Config, log *slog.Logger) (client.Client, error) {
	return client.NewLazyClient(client.Options{
		HostPort:  cfg.TemporalAddr,
		Namespace: cfg.TemporalNS,
		Logger:    tlog.NewStructuredLogger(log),
	})
}

// Run starts a worker per task queue and blocks until ctx ends.
func Run(ctx context.Context, c client.Client, t *tenants.Tenants) error {
	queues := map[string]func(worker.Registry){
		onboarding.TaskQueue: func(r worker.Registry) { onboarding.Register(r, t) },
	}
	var workers []worker.Worker
	for queue, register := range queues {
		w := worker.New(c, queue, worker.Options{})
		register(w)
		if err := w.Start(); err != nil {
			for _, started := range workers {
				started.Stop()
			}
			return fmt.Errorf("worker %s: %w", queue, err)
		}
		workers = append(workers, w)
	}
	<-ctx.Done()
	for _, w := range workers {
		w.Stop()
	}
	return nil
}
