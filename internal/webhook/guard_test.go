package webhook_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/webhook"
)

// resolver answers from a table; a name with several answers gives them in turn (DNS rebinding).
type resolver struct {
	names map[string][][]string
	calls atomic.Int32
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	answers, ok := r.names[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	n := int(r.calls.Add(1)) - 1
	var out []netip.Addr
	for _, s := range answers[min(n, len(answers)-1)] {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	names := map[string][][]string{
		"hooks.example.org":   {{"93.184.216.34"}},
		"dual.example.org":    {{"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"}},
		"inside.example.org":  {{"10.1.2.3"}},
		"mixed.example.org":   {{"93.184.216.34", "192.168.0.10"}},
		"v6local.example.org": {{"fd00::1"}},
		"localhost":           {{"127.0.0.1", "::1"}},
	}
	for _, c := range []struct {
		url  string
		want error // nil: accepted
	}{
		{"https://hooks.example.org/aporta", nil},
		{"https://dual.example.org:8443/x?y=1", nil},
		{"https://93.184.216.34/hook", nil},
		{"https://[2606:2800:220:1:248:1893:25c8:1946]/hook", nil},
		{"http://hooks.example.org/aporta", webhook.ErrHTTPSRequired},
		{"ftp://hooks.example.org/", webhook.ErrURLInvalid},
		{"hooks.example.org/aporta", webhook.ErrURLInvalid},
		{"https://user:pass@hooks.example.org/", webhook.ErrURLInvalid},
		{"https://hooks.example.org:0/", webhook.ErrURLInvalid},
		{"https://hooks.example.org:70000/", webhook.ErrURLInvalid},
		{"https://nowhere.example.org/", webhook.ErrHostUnresolvable},
		// Names that resolve inside.
		{"https://inside.example.org/", webhook.ErrHostForbidden},
		{"https://mixed.example.org/", webhook.ErrHostForbidden},
		{"https://v6local.example.org/", webhook.ErrHostForbidden},
		{"https://localhost/", webhook.ErrHostForbidden},
		// Loopback, private, link-local (cloud metadata), unique-local, unspecified, shared, multicast.
		{"https://127.0.0.1/", webhook.ErrHostForbidden},
		{"https://127.8.9.10:8080/", webhook.ErrHostForbidden},
		{"https://10.0.0.1/", webhook.ErrHostForbidden},
		{"https://172.16.5.4/", webhook.ErrHostForbidden},
		{"https://192.168.1.1/", webhook.ErrHostForbidden},
		{"https://169.254.169.254/latest/meta-data/", webhook.ErrHostForbidden},
		{"https://0.0.0.0/", webhook.ErrHostForbidden},
		{"https://100.64.0.1/", webhook.ErrHostForbidden},
		{"https://224.0.0.1/", webhook.ErrHostForbidden},
		{"https://255.255.255.255/", webhook.ErrHostForbidden},
		{"https://[::1]/", webhook.ErrHostForbidden},
		{"https://[::]/", webhook.ErrHostForbidden},
		{"https://[fe80::1]/", webhook.ErrHostForbidden},
		{"https://[fe80::1%25eth0]/", webhook.ErrHostForbidden},
		{"https://[fc00::1]/", webhook.ErrHostForbidden},
		{"https://[fd12:3456::1]/", webhook.ErrHostForbidden},
		{"https://[ff02::1]/", webhook.ErrHostForbidden},
		// IPv6 forms that carry an IPv4 address inside.
		{"https://[::ffff:127.0.0.1]/", webhook.ErrHostForbidden},
		{"https://[::ffff:a9fe:a9fe]/", webhook.ErrHostForbidden},
		{"https://[::127.0.0.1]/", webhook.ErrHostForbidden},
		{"https://[64:ff9b::a00:1]/", webhook.ErrHostForbidden},
		{"https://[2002:7f00:1::]/", webhook.ErrHostForbidden},
		// Decimal, octal, hexadecimal and short IPv4 forms some resolvers accept.
		{"https://2130706433/", webhook.ErrURLInvalid},
		{"https://0177.0.0.1/", webhook.ErrURLInvalid},
		{"https://0x7f.0.0.1/", webhook.ErrURLInvalid},
		{"https://0x7f000001/", webhook.ErrURLInvalid},
		{"https://127.1/", webhook.ErrURLInvalid},
		{"https://017700000001/", webhook.ErrURLInvalid},
		{"https://hooks.example.org%2f@127.0.0.1/", webhook.ErrURLInvalid},
	} {
		g := webhook.Guard{Resolver: &resolver{names: names}}
		_, err := g.CheckURL(context.Background(), c.url)
		if c.want == nil {
			require.NoError(t, err, c.url)
		} else {
			require.ErrorIs(t, err, c.want, c.url)
		}
	}
}

// Dev and test allow the sandbox receiver on loopback by configuration only: the allowed network,
// plain http.
func TestCheckURLAllowedNets(t *testing.T) {
	t.Parallel()
	r := &resolver{names: map[string][][]string{"localhost": {{"127.0.0.1", "::1"}}}}
	g := webhook.Guard{Resolver: r, AllowHTTP: true,
		Allowed: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}}
	for _, u := range []string{"http://127.0.0.1:9191/__webhooks/x", "http://localhost:9191/x", "http://[::1]:9191/x"} {
		_, err := g.CheckURL(context.Background(), u)
		require.NoError(t, err, u)
	}
	_, err := g.CheckURL(context.Background(), "http://10.0.0.1/")
	require.ErrorIs(t, err, webhook.ErrHostForbidden, "only the allowed networks")
}

func post(t *testing.T, c *http.Client, u string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, u, strings.NewReader("{}"))
	require.NoError(t, err)
	res, err := c.Do(req)
	if res != nil {
		res.Body.Close()
	}
	return res, err
}

// The client dials only addresses the guard allows, checked at connect time: a name that resolved
// to a public address when saved and to loopback now (DNS rebinding) is refused.
func TestClientChecksAtConnectTime(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	r := &resolver{names: map[string][][]string{"rebind.example.org": {{"93.184.216.34"}, {"127.0.0.1"}}}}
	g := webhook.Guard{Resolver: r, AllowHTTP: true}
	_, err := g.CheckURL(context.Background(), "http://rebind.example.org:"+port+"/")
	require.NoError(t, err, "public when checked")
	_, err = post(t, g.Client(5*time.Second), "http://rebind.example.org:"+port+"/")
	require.ErrorIs(t, err, webhook.ErrHostForbidden)
	_, err = post(t, g.Client(5*time.Second), srv.URL) // a loopback literal
	require.ErrorIs(t, err, webhook.ErrHostForbidden)
	require.Zero(t, hits.Load(), "nothing reached the server")

	allowed := webhook.Guard{Resolver: r, AllowHTTP: true, Allowed: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	res, err := post(t, allowed.Client(5*time.Second), "http://rebind.example.org:"+port+"/")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.EqualValues(t, 1, hits.Load())
}

// A redirect is not followed: it could point inside our network.
func TestClientRefusesRedirects(t *testing.T) {
	t.Parallel()
	var inside atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { inside.Add(1) }))
	t.Cleanup(target.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/admin", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	g := webhook.Guard{AllowHTTP: true, Allowed: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	res, err := post(t, g.Client(5*time.Second), redirector.URL)
	require.ErrorIs(t, err, webhook.ErrRedirect)
	var ue *url.Error
	require.True(t, errors.As(err, &ue))
	require.Equal(t, http.StatusTemporaryRedirect, res.StatusCode)
	require.Zero(t, inside.Load())
}
