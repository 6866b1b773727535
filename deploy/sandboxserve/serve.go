// Package sandboxserve runs a sandbox of an outside service (deploy/sandboxgw, deploy/sandboxcrm)
// as an HTTP server until SIGINT or SIGTERM, logging each request and gzipping answers as the real services do.
package sandboxserve

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Run serves h on addr until a signal stops it; attrs go with the "listening" log line.
func Run(name, addr string, h http.Handler, log *slog.Logger, attrs ...any) error {
	srv := &http.Server{Addr: addr, Handler: logRequests(compress(h), log), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info(name+" listening", append([]any{"addr", addr}, attrs...)...)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info(name + " shutting down")
	// Fault-injected requests hang until their clients give up: do not wait for them forever.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
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

// logRequests logs method, path and status only: card data, OAuth codes and access tokens travel
// in bodies and headers, and query strings carry donor e-mails and OAuth state.
func logRequests(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		log.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status, "duration", time.Since(start))
	})
}
