// Package workflows runs Aporta's Temporal workers: one worker per long process's task queue.
package workflows

import (
	"context"
	"fmt"
	"log/slog"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/bankaccounts"
	"github.com/aporta/aporta/internal/bankdebit"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/centralpos"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/portal"
	"github.com/aporta/aporta/internal/processing"
	"github.com/aporta/aporta/internal/readiness"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/internal/thanks"
	"github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/agencysync"
	"github.com/aporta/aporta/workflows/billing"
	"github.com/aporta/aporta/workflows/collection"
	"github.com/aporta/aporta/workflows/crmsync"
	"github.com/aporta/aporta/workflows/export"
	"github.com/aporta/aporta/workflows/firstcharge"
	"github.com/aporta/aporta/workflows/gatewayrefresh"
	"github.com/aporta/aporta/workflows/onboarding"
	"github.com/aporta/aporta/workflows/outboxsweep"
	"github.com/aporta/aporta/workflows/payouts"
	"github.com/aporta/aporta/workflows/registration"
	"github.com/aporta/aporta/workflows/subscription"
	"github.com/aporta/aporta/workflows/webhooks"
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
func Run(ctx context.Context, cfg *config.Config, c client.Client, t *tenants.Tenants) error {
	exports, err := export.NewActivities(ctx, cfg, t)
	if err != nil {
		return fmt.Errorf("exports: %w", err)
	}
	conns, err := connections.Open(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connections: %w", err)
	}
	// Every organisation's charges go through its own connected account, or the processor its rules
	// route a donation to; a token the gateway refuses is refreshed at once.
	processors := processing.New(cfg, conns.Box)
	gateways := charge.Connected(&connections.Clients{Store: conns, Tenants: t, BaseURL: cfg.GatewayURL, PublicURL: cfg.PublicURL,
		CentralPos: centralpos.Config{BaseURL: cfg.CentralPosURL, PartnerKey: cfg.CentralPosPartnerKey},
		Refresh:    gatewayrefresh.Client{Temporal: c}}, processors)
	mpOAuth, err := mercadopago.NewOAuth(mercadopago.OAuthConfig{BaseURL: cfg.GatewayURL, AuthURL: cfg.MPAuthURL,
		ClientID: cfg.MPClientID, ClientSecret: cfg.MPClientSecret})
	if err != nil {
		return fmt.Errorf("mercadopago oauth: %w", err)
	}
	refreshes := &gatewayrefresh.Activities{Tenants: t, Store: conns, OAuth: map[string]gateway.OAuth{connections.MercadoPago: mpOAuth},
		Mail: outbox.NewMailer(cfg, t.Directory()), PublicURL: cfg.PublicURL}
	// First charges are settled as the donation form settles them (firstcharge.Settler).
	firstCharges := &firstcharge.Activities{Tenants: t, Gateways: gateways,
		Settler: firstcharge.Settler{Recurring: collection.Starter{Temporal: c},
			Receipts: receipt.Mailer{Outbox: outbox.NewMailer(cfg, t.Directory()), Links: receipt.Links{Secret: cfg.Secret}, PublicURL: cfg.PublicURL}},
		Thanks: thanks.Mailer{Outbox: outbox.NewMailer(cfg, t.Directory()), Receipts: thanks.Receipts{Secret: cfg.Secret}, PublicURL: cfg.PublicURL}}
	platform, err := billing.NewPlatformAccount(cfg)
	if err != nil {
		return fmt.Errorf("platform gateway account: %w", err)
	}
	bills := &billing.Activities{Tenants: t, Platform: platform, Plans: subscription.Plans{Temporal: c},
		Debits: &bankdebit.Client{BaseURL: cfg.BankDebitURL, Token: cfg.BankDebitToken},
		Rates:  mep.NewRates(t.Directory(), mep.HTTP{URL: cfg.MEPURL, Name: cfg.MEPSource}),
		Mail:   outbox.NewMailer(cfg, t.Directory()), PublicURL: cfg.PublicURL}
	crmVault, err := crmlink.NewVault(ctx, cfg)
	if err != nil {
		return fmt.Errorf("crm vault: %w", err)
	}
	queues := map[string]func(worker.Registry){
		crmsync.TaskQueue: func(r worker.Registry) { crmsync.Register(r, &crmsync.Activities{Tenants: t, Vault: crmVault}) },
		webhooks.TaskQueue: func(r worker.Registry) {
			webhooks.Register(r, &webhooks.Activities{Tenants: t, Vault: webhook.Vault{Box: crmVault.Box}, Guard: webhook.NewGuard(cfg),
				Temporal: c, Mail: outbox.NewMailer(cfg, t.Directory()), PublicURL: cfg.PublicURL})
		},
		onboarding.TaskQueue:   func(r worker.Registry) { onboarding.Register(r, t, onboarding.NewMailer(cfg, t), cfg.StaffInbox) },
		registration.TaskQueue: func(r worker.Registry) { registration.Register(r, t, c) },
		collection.TaskQueue: func(r worker.Registry) {
			collection.Register(r, t, gateways, &collection.Notices{Tenants: t, Keys: portal.Keys{Secret: cfg.Secret},
				Mail: outbox.NewMailer(cfg, t.Directory()), PublicURL: cfg.PublicURL})
		},
		subscription.TaskQueue: func(r worker.Registry) { subscription.Register(r, subscription.NewActivities(cfg, t)) },
		export.TaskQueue:       func(r worker.Registry) { export.Register(r, exports) },
		outboxsweep.TaskQueue: func(r worker.Registry) {
			outboxsweep.Register(r, &outboxsweep.Activities{Outbox: outbox.New(t.Directory(), cfg)})
		},
		firstcharge.TaskQueue: func(r worker.Registry) {
			firstcharge.Register(r, firstCharges)
			firstcharge.RegisterSweep(r, &firstcharge.Sweeper{Tenants: t, Temporal: c})
		},
		gatewayrefresh.TaskQueue: func(r worker.Registry) { gatewayrefresh.Register(r, refreshes) },
		billing.TaskQueue:        func(r worker.Registry) { billing.Register(r, bills) },
		// What processors collected is paid out to the organisations' bank accounts (numbers in the tokens' box).
		payouts.TaskQueue: func(r worker.Registry) {
			payouts.Register(r, &payouts.Activities{Tenants: t, Merchants: processors, Accounts: &bankaccounts.Store{Box: conns.Box}})
		},
		// Live agency acquisitions become donations after their delay, charged like the form's.
		agencysync.TaskQueue: func(r worker.Registry) {
			agencysync.Register(r, &agencysync.Activities{Tenants: t, Gateways: gateways, Settler: firstCharges.Settler})
		},
	}
	go export.KeepCleanupSchedule(ctx, c, export.TaskQueue)
	go payouts.KeepSchedule(ctx, c, payouts.TaskQueue)
	go outboxsweep.KeepSchedule(ctx, c, outboxsweep.TaskQueue, outboxsweep.Input{Retention: cfg.OutboxRetention})
	go firstcharge.KeepSweepSchedule(ctx, c, firstcharge.TaskQueue)
	health := newHealth(readiness.Stores(t, c))
	if err := health.serve(ctx, cfg.WorkerHealthAddr); err != nil {
		return fmt.Errorf("health: %w", err)
	}
	// A worker that stops on a fatal error (its namespace gone, say) ends the process, so it restarts
	// instead of running on without polling.
	fatal := make(chan error, len(queues))
	var workers []worker.Worker
	for queue, register := range queues {
		opts := worker.Options{OnFatalError: func(err error) { fatal <- fmt.Errorf("worker %s: %w", queue, err) }}
		if queue == collection.TaskQueue {
			opts = collection.WorkerOptions(opts, cfg.DB.MaxConns)
		}
		w := worker.New(c, queue, opts)
		register(w)
		if err := w.Start(); err != nil {
			for _, started := range workers {
				started.Stop()
			}
			return fmt.Errorf("worker %s: %w", queue, err)
		}
		workers = append(workers, w)
	}
	health.started.Store(true)
	select {
	case <-ctx.Done():
	case err = <-fatal:
	}
	for _, w := range workers {
		w.Stop()
	}
	return err
}
