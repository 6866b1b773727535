package apitest

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/aporta/aporta/api"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows"
)

// Router serves the real router in process with cfg (the stack's configuration, or a copy the test
// changed) and tt; it is closed when the test ends.
func Router(t testing.TB, cfg *config.Config, tt *tenants.Tenants) *httptest.Server {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tc, err := workflows.Dial(cfg, log)
	if err != nil {
		t.Fatalf("temporal: %v", err)
	}
	t.Cleanup(tc.Close)
	r, err := api.NewRouter(api.Deps{Config: cfg, Tenants: tt, Temporal: tc, Log: log})
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}
