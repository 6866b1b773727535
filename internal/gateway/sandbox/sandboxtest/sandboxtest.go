// Package sandboxtest serves a sandbox gateway of a test's own, so the test's accounts, cards and
// injected faults touch no other test, and tokenises its test cards as a donor's browser does.
package sandboxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

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

// Clock is a settable time for a sandbox's codes and tokens: its Now is sandbox.Options.Now.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a clock that stands at the present until advanced.
func NewClock() *Clock { return &Clock{t: time.Now()} }

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

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

// CentralPosTokenize tokenises the card pan of holder at the sandbox's CentralPos tokeniser (url: the
// /centralpos/v1 base the public form is given) as a donor's browser does, with the publishable key
// only, and answers the status and the answer.
func CentralPosTokenize(t testing.TB, url, publishableKey, pan, holder string) (int, map[string]any) {
	t.Helper()
	return tokenize(t, url, "X-Publishable-Key", publishableKey, map[string]any{"number": pan, "cvc": "123", "exp_month": 11,
		"exp_year": time.Now().Year() + 3, "holder": map[string]any{"name": holder, "document": map[string]string{"type": "DNI", "number": "30111222"}}})
}

// CentralPosToken is the token CentralPosTokenize gets, failing the test when the tokeniser refuses the card.
func CentralPosToken(t testing.TB, url, publishableKey, pan, holder string) string {
	t.Helper()
	status, out := CentralPosTokenize(t, url, publishableKey, pan, holder)
	return created(t, status, out, "id")
}

// DLocalTokenize tokenises the Argentinian card pan of holder at the sandbox's dLocal tokeniser (url:
// the /dlocal base the public form is given) as a donor's browser does, with the public key only,
// and answers the status and the answer.
func DLocalTokenize(t testing.TB, url, publicKey, pan, holder string) (int, map[string]any) {
	t.Helper()
	return tokenize(t, url, "X-Public-Key", publicKey, map[string]any{"country": "AR", "card": map[string]any{"holder_name": holder,
		"number": pan, "cvv": "123", "expiration_month": 11, "expiration_year": time.Now().Year() + 3}})
}

// DLocalToken is the token DLocalTokenize gets, failing the test when the tokeniser refuses the card.
func DLocalToken(t testing.TB, url, publicKey, pan, holder string) string {
	t.Helper()
	status, out := DLocalTokenize(t, url, publicKey, pan, holder)
	return created(t, status, out, "token")
}

// tokenize posts body to the tokeniser at url with the key in the header keyHeader.
func tokenize(t testing.TB, url, keyHeader, key string, body any) (int, map[string]any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatalf("card token: %v", err)
	}
	req, err := http.NewRequest(http.MethodPost, url+"/tokens", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("card token: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(keyHeader, key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("card token: %v", err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("card token: %s: %v", res.Status, err)
	}
	return res.StatusCode, out
}

// created is the token under field of a tokeniser's 201, failing the test on any other answer.
func created(t testing.TB, status int, out map[string]any, field string) string {
	t.Helper()
	tok, _ := out[field].(string)
	if status != http.StatusCreated || tok == "" {
		t.Fatalf("card token: %d %v", status, out)
	}
	return tok
}
