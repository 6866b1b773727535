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
	"flag"
	"log/slog"
	"net/http"
	"os"

	"github.com/aporta/aporta/deploy/sandboxserve"
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
	crm, err := sandbox.New(opts)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	receiver.New().Mount(mux)
	mux.Handle("/", crm)
	return sandboxserve.Run("sandboxcrm", addr, mux, opts.Logger, "state", opts.StatePath)
}
