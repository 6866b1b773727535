// Package tenantstest connects integration tests to the running test stack (deploy/stack.sh test).
// Without the stack, tests skip; under `make test` (APORTA_REQUIRE_STACK=1) they fail instead, so a
// broken stack can never pass as green.
package tenantstest

import (
	"context"
	"os"
	"testing"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
)

// Config returns the stack's configuration, or skips/fails the test without it.
func Config(t testing.TB) *config.Config {
	t.Helper()
	if os.Getenv("APORTA_DIRECTORY_DSN") == "" {
		if os.Getenv("APORTA_REQUIRE_STACK") != "" {
			t.Fatal("APORTA_REQUIRE_STACK is set but the stack's environment is missing")
		}
		t.Skip("no test stack: run `make test`, or `source .data-test/env` while one runs")
	}
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

// Open returns tenants connected to the migrated stack, closed when the test ends.
func Open(t testing.TB) *tenants.Tenants {
	t.Helper()
	cfg := Config(t)
	tt, err := tenants.Open(context.Background(), cfg.DirectoryDSN, cfg.ShardDSNs, cfg.DB)
	if err != nil {
		t.Fatalf("tenants: %v", err)
	}
	t.Cleanup(tt.Close)
	return tt
}
