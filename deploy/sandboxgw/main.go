// Command sandboxgw serves the sandbox payment gateway for the dev stack:
//
//	go run ./deploy/sandboxgw -addr 127.0.0.1:8090 -state .data/sandboxgw.json
//
// Point the MercadoPago adapter's base URL (and the card vault's) at it; any
// bearer token is accepted. See package internal/gateway/sandbox for test cards and
// the /__sandbox admin endpoints.
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

	"github.com/aporta/aporta/internal/gateway/sandbox"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	statePath := flag.String("state", "", "JSON file keeping the sandbox state across restarts (memory only when empty)")
	currency := flag.String("currency", "ARS", "currency of the simulated account")
	flag.Parse()

	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*addr, *statePath, *currency, log); err != nil {
		log.Error("sandboxgw stopped", "err", err)
		os.Exit(1)
	}
}

func run(addr, statePath, currency string, log *slog.Logger) error {
	gw, err := sandbox.New(sandbox.Options{StatePath: statePath, Currency: currency, Logger: log})
	if err != nil {
		return err
	}
	srv := &http.Server{Addr: addr, Handler: logRequests(gw, log), ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info("sandboxgw listening", "addr", addr, "state", statePath, "currency", currency)

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("sandboxgw shutting down")
	// Hanging fault-injected requests end when their clients give up; do not wait for them forever.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	return err
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// logRequests logs method, path and status only: card data travels in request
// bodies, and query strings carry donor e-mails, so neither is logged.
func logRequests(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		log.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status, "duration", time.Since(start))
	})
}
