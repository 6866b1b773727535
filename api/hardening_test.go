package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// newProductionServer is the real router with the stack's configuration marked production (the
// sandbox settings stay: only the router's own production behaviour is under test).
func newProductionServer(t *testing.T) *httptest.Server {
	t.Helper()
	cfg := *tenantstest.Config(t)
	cfg.Env = "production"
	return apitest.Router(t, &cfg, tenantstest.Open(t))
}

// The mailbox shows every code and link Aporta sends: in production neither the page nor its API
// exists (404), nor the UI kit, while dev and test keep them.
func TestDevMailboxAndOutboxAPIAreAbsentInProduction(t *testing.T) {
	t.Parallel()
	prod := newProductionServer(t)
	for _, path := range []string{"/dev/mailbox", "/dev/kit", "/dev/api/outbox?to=someone@example.com", "/dev/anything"} {
		res, body := get(t, prod.URL+path)
		require.Equal(t, http.StatusNotFound, res.StatusCode, path)
		require.NotContains(t, string(body), "csrf-token", "%s serves the web app", path)
	}
	dev, _ := newServer(t)
	for _, path := range []string{"/dev/mailbox", "/dev/kit"} {
		res, _ := get(t, dev.URL+path)
		require.Equal(t, http.StatusOK, res.StatusCode, path)
	}
	res, _ := get(t, dev.URL+"/dev/anything")
	require.Equal(t, http.StatusNotFound, res.StatusCode, "no page of the app")
	res, _ = get(t, dev.URL+"/dev/api/outbox?to=someone@example.com")
	require.Equal(t, http.StatusOK, res.StatusCode)
}

// Every answer carries the browser protections; the donation pages, their public API, export links
// and account links (which carry signed references and codes) send no Referer to other sites.
func TestSecurityHeadersOnEveryPage(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	cfg := tenantstest.Config(t)
	for path, referrer := range map[string]string{
		"/":                             "strict-origin-when-cross-origin",
		"/manage/dashboard":             "strict-origin-when-cross-origin",
		"/manage/api/subscription":      "strict-origin-when-cross-origin",
		"/d/some-campaign":              "no-referrer",
		"/d/some-campaign/thanks?ref=x": "no-referrer",
		"/api/public/campaigns/x":       "no-referrer",
		"/api/exports/x?sig=y":          "no-referrer",
		"/account/recovery?flow=x":      "no-referrer",
	} {
		res, _ := get(t, srv.URL+path)
		h := res.Header
		require.Equal(t, referrer, h.Get("Referrer-Policy"), path)
		require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"), path)
		csp := h.Get("Content-Security-Policy")
		require.Contains(t, csp, "frame-ancestors 'none'", path)
		gw := strings.TrimSuffix(cfg.GatewayPublicURL, "/")
		if strings.HasPrefix(path, "/d/") {
			// Donation pages may also load the campaign's analytics once the donor consents
			// (middleware.DonationPagePolicy); the tokeniser's origin stays the last connect source.
			require.Contains(t, csp, "script-src 'self' https://www.googletagmanager.com https://connect.facebook.net;", path)
			require.Regexp(t, `connect-src 'self'[^;]* `+regexp.QuoteMeta(gw)+";", csp, path)
		} else {
			require.Contains(t, csp, "script-src 'self';", path)
			// The card tokeniser's origin, exactly, and nothing else outside Aporta.
			require.Contains(t, csp, "connect-src 'self' "+gw+";", path)
		}
		// The MercadoPago form post redirects to the authorization page (the sandbox's, on a test stack).
		require.Contains(t, csp, "form-action 'self' "+gw+";", path)
		require.Empty(t, h.Get("Strict-Transport-Security"), "HSTS on a plain-http test stack: %s", path)
	}

	// Where the processor's tokeniser and the card vault are origins of their own (production's), the
	// browser may send cards to them too.
	own := *cfg
	own.DLocalPublicURL, own.CVaultPublicURL = "https://api.dlocal.example", "https://vault.cvault.example/"
	res, _ := get(t, apitest.Router(t, &own, tenantstest.Open(t)).URL+"/manage/dashboard")
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "connect-src 'self' "+strings.TrimSuffix(cfg.GatewayPublicURL, "/")+
		" https://api.dlocal.example https://vault.cvault.example;")

	prod := newProductionServer(t)
	res, _ = get(t, prod.URL+"/d/some-campaign")
	require.Equal(t, "max-age=63072000; includeSubDomains", res.Header.Get("Strict-Transport-Security"))
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
}

// /readyz names every internal dependency and its error: only staff and probes on the machine
// itself see them; anyone else, including a signed-in organisation user, gets the status alone.
func TestReadyzDetailsOnlyForStaffOrLocalProbes(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	remote := []string{"X-Forwarded-For", "203.0.113.7"} // through a proxy: not a local probe
	checksOf := func(res apitest.Response) []any {
		t.Helper()
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		var out map[string]any
		require.NoError(t, json.Unmarshal(res.Body, &out))
		require.Equal(t, "ok", out["status"])
		checks, _ := out["checks"].([]any)
		return checks
	}

	res, body := get(t, s.Server.URL+"/readyz", remote...)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.JSONEq(t, `{"status":"ok"}`, string(body))
	require.Empty(t, checksOf(s.NewOrgAdmin(t, "AR").JSON(http.MethodGet, "/readyz", nil, remote...)))
	require.Empty(t, checksOf(s.NewStaffPasswordOnly(t).JSON(http.MethodGet, "/readyz", nil, remote...)), "staff without the second factor")
	require.Len(t, checksOf(s.NewStaff(t).JSON(http.MethodGet, "/readyz", nil, remote...)), 11)

	res, body = get(t, s.Server.URL+"/readyz") // straight from this machine
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(body), `"checks"`)
}
