package api_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// checkUID posts one signup uid check (limited to 60 a minute per IP) from client, claiming to
// forward for forwardedFor, and returns the status.
func checkUID(t *testing.T, client *http.Client, base, forwardedFor string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/internal/api/validate/uid",
		strings.NewReader(`{"country":"AR","uid_type":"CUIT","uid":"20172543597"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", forwardedFor)
	req.Header.Set("X-Real-IP", forwardedFor)
	res, err := client.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// TestForwardedForDoesNotResetThePerIPLimit runs against the stack's `aporta serve`, which trusts
// no proxy: a caller inventing a new X-Forwarded-For on every call is still one IP.
func TestForwardedForDoesNotResetThePerIPLimit(t *testing.T) {
	cfg := tenantstest.Config(t)
	client := apitest.HTTPClient(apitest.NewIP())
	for i := 1; i <= 60; i++ {
		require.Equal(t, http.StatusOK, checkUID(t, client, cfg.PublicURL, fmt.Sprintf("198.51.100.%d", i)), "call %d", i)
	}
	require.Equal(t, http.StatusTooManyRequests, checkUID(t, client, cfg.PublicURL, "198.51.100.200"))
}

// TestForwardedForFromATrustedProxyNamesTheClient: behind a configured proxy, each forwarded
// client has its own count.
func TestForwardedForFromATrustedProxyNamesTheClient(t *testing.T) {
	cfg := tenantstest.Config(t)
	cfg.TrustedProxies = []string{"127.0.0.0/8"}
	srv := apitest.Router(t, cfg, tenantstest.Open(t))

	proxy := apitest.HTTPClient(apitest.NewIP())
	a := fmt.Sprintf("198.18.%d.%d", rand.IntN(256), rand.IntN(256))
	b := fmt.Sprintf("198.19.%d.%d", rand.IntN(256), rand.IntN(256))
	for i := 1; i <= 60; i++ {
		require.Equal(t, http.StatusOK, checkUID(t, proxy, srv.URL, a), "call %d", i)
	}
	require.Equal(t, http.StatusTooManyRequests, checkUID(t, proxy, srv.URL, a))
	require.Equal(t, http.StatusOK, checkUID(t, proxy, srv.URL, b), "another client behind the same proxy")
}
