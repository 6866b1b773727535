package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/aporta/aporta/internal/readiness"
)

// health is the worker's probe server: /healthz answers while the process runs (liveness), /readyz once
// every task queue's worker has started and the stores and Temporal answer (readiness: a rolling update
// waits for it before it stops an old pod). Its checks' details are shown only on the machine itself.
type health struct {
	started atomic.Bool
	checks  []readiness.Check
}

func newHealth(checks []readiness.Check) *health {
	h := &health{}
	h.checks = append(checks, readiness.Check{Name: "workers", Probe: func(context.Context) error {
		if !h.started.Load() {
			return errors.New("task queue workers not started yet")
		}
		return nil
	}})
	return h
}

func (h *health) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		code, body := readiness.Report(r.Context(), h.checks, 3*time.Second, readiness.Local(r))
		writeJSON(w, code, body)
	})
	return mux
}

// serve listens on addr at once (a taken port fails the start) and answers until ctx ends.
func (h *health) serve(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h.handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("worker health server", "error", err)
		}
	}()
	return nil
}

func writeJSON(w http.ResponseWriter, code int, body any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(body)
}
