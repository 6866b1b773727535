// Command sandboxgw serves the sandbox payment gateway for the dev stack:
//
//	go run ./deploy/sandboxgw -addr 127.0.0.1:8090 -state .data/sandboxgw.json
//
// Point the MercadoPago adapter's base URL (and the card vault's, and CentralPos's) at it. The
// platform account answers to -platform-token and -platform-public-key; organisations' accounts
// connect by OAuth with the -client-id/-client-secret application. See package
// internal/gateway/sandbox for test cards and the /__sandbox admin endpoints.
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
	var opts sandbox.Options
	flag.StringVar(&opts.Currency, "currency", "ARS", "currency of the platform account")
	flag.StringVar(&opts.PlatformToken, "platform-token", sandbox.DefaultPlatformToken, "the platform account's access token (APORTA_GATEWAY_TOKEN)")
	flag.StringVar(&opts.PlatformPublicKey, "platform-public-key", sandbox.DefaultPlatformPublicKey, "the platform account's public key (APORTA_GATEWAY_PUBLIC_KEY)")
	flag.StringVar(&opts.ClientID, "client-id", sandbox.DefaultClientID, "the OAuth application's client id (APORTA_MP_CLIENT_ID)")
	flag.StringVar(&opts.ClientSecret, "client-secret", sandbox.DefaultClientSecret, "the OAuth application's client secret (APORTA_MP_CLIENT_SECRET)")
	flag.StringVar(&opts.CentralPosPartnerKey, "centralpos-partner-key", sandbox.DefaultPartnerKey, "the platform's CentralPos partner key (APORTA_CENTRALPOS_PARTNER_KEY)")
	flag.Parse()

	opts.StatePath = *statePath
	opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	log := opts.Logger
	if err := run(*addr, opts); err != nil {
		log.Error("sandboxgw stopped", "err", err)
		os.Exit(1)
	}
}

func run(addr string, opts sandbox.Options) error {
	log := opts.Logger
	gw, err := sandbox.New(opts)
	if err != nil {
		return err
	}
	srv := &http.Server{Addr: addr, Handler: logRequests(gw, log), ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info("sandboxgw listening", "addr", addr, "state", opts.StatePath, "currency", opts.Currency)

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

// logRequests logs method, path and status only: card data and OAuth codes and tokens travel in
// request bodies, and query strings carry donor e-mails and OAuth state, so neither is logged.
func logRequests(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		log.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status, "duration", time.Since(start))
	})
}
