// Command sandboxcrm serves the sandbox CRM (a Salesforce-compatible REST API) for the dev and
// test stacks:
//
//	go run ./deploy/sandboxcrm -addr 127.0.0.1:8091 -state .data/sandboxcrm.json
//
// An integration's login URL is its address; the org of the dev stack answers to client id
// aporta-sandbox-crm and secret sandbox-crm-secret, and tests make their own with POST /__sandbox/orgs.
// See package internal/crm/sandbox for the endpoints, budgets and fault injection. It also serves a
// webhook receiver for organisations' endpoints under /__webhooks/ (internal/webhook/receiver).
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/aporta/aporta/internal/crm/sandbox"
	"github.com/aporta/aporta/internal/webhook/receiver"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8091", "listen address")
	var opts sandbox.Options
	flag.StringVar(&opts.StatePath, "state", "", "JSON file keeping the sandbox's orgs and records across restarts (memory only when empty)")
	flag.Parse()
	opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*addr, opts); err != nil {
		opts.Logger.Error("sandboxcrm stopped", "err", err)
		os.Exit(1)
	}
}

func run(addr string, opts sandbox.Options) error {
	log := opts.Logger
	crm, err := sandbox.New(opts)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	receiver.New().Mount(mux)
	mux.Handle("/", crm)
	// Access tokens travel in headers and query strings carry donor e-mails: only method, path and status are logged.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		mux.ServeHTTP(w, r)
		log.Info("request", "method", r.Method, "path", r.URL.Path, "duration", time.Since(start))
	})
	srv := &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info("sandboxcrm listening", "addr", addr, "state", opts.StatePath)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Fault-injected requests hang until their clients give up: do not wait for them forever.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); errors.Is(err, context.DeadlineExceeded) {
		return srv.Close()
	} else {
		return err
	}
}
