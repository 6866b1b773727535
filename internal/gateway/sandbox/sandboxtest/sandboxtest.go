// Package sandboxtest serves a sandbox gateway of a test's own, so the test's accounts, cards and
// injected faults touch no other test.
package sandboxtest

import (
	"net/http/httptest"
	"testing"

	"github.com/aporta/aporta/internal/gateway/sandbox"
)

// Serve starts a sandbox gateway with opts on a local server that closes when the test ends.
func Serve(t testing.TB, opts sandbox.Options) *httptest.Server {
	t.Helper()
	sb, err := sandbox.New(opts)
	if err != nil {
		t.Fatalf("sandbox gateway: %v", err)
	}
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	return srv
}
