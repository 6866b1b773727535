// Command aporta is Aporta's single binary.
//
//	aporta serve     the HTTP API and web app
//	aporta worker    the Temporal workers
//	aporta migrate   apply directory and shard migrations
//	aporta seed      create the demo organisation and logins (dev stack)
//	aporta payouts   run one organisation's payout cycle now
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api"
	"github.com/aporta/aporta/api/gateways"
	"github.com/aporta/aporta/api/seed"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/bankaccounts"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows"
	"github.com/aporta/aporta/workflows/gatewayrefresh"
	"github.com/aporta/aporta/workflows/onboarding"
	"github.com/aporta/aporta/workflows/payouts"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: aporta serve|worker|migrate|seed|rotate-secrets|payouts")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1]); err != nil {
		slog.Error("aporta failed", "command", os.Args[1], "error", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, command string) error {
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	switch command {
	case "seed": // demo logins with known passwords
		if err := cfg.DevOnly("aporta seed"); err != nil {
			return err
		}
	case "migrate": // a migration may rebuild a large index: no per-statement limit
		cfg.DB.StatementTimeout = 0
	}
	log := newLogger(cfg.LogLevel)
	slog.SetDefault(log)
	t, err := tenants.Open(ctx, cfg.DirectoryDSN, cfg.ShardDSNs, cfg.DB)
	if err != nil {
		return err
	}
	defer t.Close()

	switch command {
	case "migrate":
		return t.Migrate(ctx, log)
	case "rotate-secrets": // after a key change: every secret we hold for organisations under the new key
		conns, err := connections.Open(ctx, cfg)
		if err != nil {
			return err
		}
		// Bank account numbers, CRM client secrets and webhook secrets share the tokens' box.
		n, err := conns.RotateAll(ctx, t, (&bankaccounts.Store{Box: conns.Box}).RotateKeys, (&crmlink.Vault{Box: conns.Box}).RotateKeys,
			webhook.Vault{Box: conns.Box}.RotateKeys)
		fmt.Printf("re-wrapped %d gateway connections' tokens, bank account numbers, CRM client secrets and webhook secrets with key %s\n", n, conns.Box.KeyID())
		return err
	}

	tc, err := workflows.Dial(cfg, log)
	if err != nil {
		return err
	}
	defer tc.Close()

	switch command {
	case "serve":
		return api.Serve(ctx, api.Deps{Config: cfg, Tenants: t, Temporal: tc, Log: log})
	case "worker":
		log.Info("worker started", "temporal", cfg.TemporalAddr)
		return workflows.Run(ctx, cfg, tc, t)
	case "payouts": // aporta payouts <organization id>: its payout cycle now, out of the daily schedule
		if len(os.Args) != 3 {
			return errors.New("usage: aporta payouts <organization id>")
		}
		orgID, err := uuid.Parse(os.Args[2])
		if err != nil {
			return fmt.Errorf("organization id: %w", err)
		}
		return payouts.Client{Temporal: tc}.RunCycle(ctx, orgID)
	case "seed":
		hc := &http.Client{Timeout: 10 * time.Second}
		conns, err := connections.Open(ctx, cfg)
		if err != nil {
			return err
		}
		gws, err := gateways.NewService(cfg, conns, onboarding.Client{Temporal: tc}, gatewayrefresh.Client{Temporal: tc}, log)
		if err != nil {
			return err
		}
		return seed.Run(ctx, seed.Deps{
			Gateways: gws,
			Tenants:  t,
			Kratos:   identity.NewKratos(cfg.KratosAdmin, hc),
			Flows:    identity.NewFlows(cfg.KratosPublic, hc),
			Keto:     identity.NewKeto(cfg.KetoRead, cfg.KetoWrite, hc),
			Temporal: tc,
			Cards: seed.SandboxCards{Clients: &connections.Clients{Store: conns, Tenants: t, BaseURL: cfg.GatewayURL},
				GatewayURL: cfg.GatewayURL, HTTP: hc},
			Log:     os.Stderr,
			History: cfg.Env == "dev",
		}, os.Stdout)
	}
	return fmt.Errorf("unknown command %q", command)
}

func newLogger(level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}
