// Package sandboxtest serves a sandbox gateway of a test's own, so the test's accounts, cards and
// injected faults touch no other test, and tokenises its test cards as a donor's browser does.
package sandboxtest

import (
	"context"
	"net/http"
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

// CardToken tokenises the card pan at the sandbox gateway at base as a browser does (sandbox.CardTokenOf),
// failing the test when the sandbox refuses it.
func CardToken(t testing.TB, base, publicKey, pan, holder string) string {
	t.Helper()
	tok, err := sandbox.CardTokenOf(context.Background(), http.DefaultClient, base, publicKey, pan, holder)
	if err != nil {
		t.Fatalf("card token: %v", err)
	}
	return tok
}
