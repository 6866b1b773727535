package webhook

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/config"
)

// URLError is a webhook URL the guard refuses; Code is the i18n key of the reason.
type URLError struct{ Code string }

func (e *URLError) Error() string { return e.Code }

// Reasons a URL is refused.
var (
	ErrURLInvalid       = &URLError{"webhook.url_invalid"}
	ErrHTTPSRequired    = &URLError{"webhook.url_https_required"}
	ErrHostForbidden    = &URLError{"webhook.url_host_forbidden"}
	ErrHostUnresolvable = &URLError{"webhook.url_unresolvable"}
)

// ErrRedirect is a delivery answered with a redirect: it is not followed (a redirect could point
// anywhere, inside our network included) and counts as a failed attempt. Its text is an i18n key,
// as URLError's codes are: the delivery log shows it in the reader's language.
var ErrRedirect = errors.New("webhook.redirect_refused")

// Resolver looks host names up (net.DefaultResolver).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Guard keeps deliveries off our own network: it checks a URL when an endpoint is saved and, since
// a name may resolve elsewhere by the time we deliver (DNS rebinding), checks again every address
// it connects to, dialling the address it checked.
type Guard struct {
	// Allowed are networks reachable although not public: in dev and test the sandbox receiver on
	// loopback (APORTA_WEBHOOK_ALLOWED_NETS); production refuses any.
	Allowed []netip.Prefix
	// AllowHTTP accepts plain http URLs (dev and test); otherwise https only.
	AllowHTTP bool
	Resolver  Resolver // net.DefaultResolver when nil
}

// notPublic are the ranges that are neither loopback, private nor link-local by netip's methods
// but still not the public internet: this network, shared address space, IETF protocol and
// documentation ranges, benchmarking, reserved, IPv4-compatible and NAT64/6to4 forms that can
// embed a private IPv4 address, discard-only, documentation and deprecated site-local IPv6.
var notPublic = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15", "198.51.100.0/24",
		"203.0.113.0/24", "240.0.0.0/4", "::/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001:db8::/32", "2002::/16", "fec0::/10"} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Public reports whether a is an address on the public internet.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.Zone() != "" || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range notPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

func (g Guard) allowed(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range g.Allowed {
		if p.Contains(a) {
			return true
		}
	}
	return Public(a)
}

func (g Guard) resolver() Resolver {
	if g.Resolver == nil {
		return net.DefaultResolver
	}
	return g.Resolver
}

// CheckURL parses raw and refuses what an endpoint may not be: not absolute http(s), credentials
// in it, an address or a name that is not a host on the public internet. It resolves a name and
// refuses it when any of its addresses is not public.
func (g Guard) CheckURL(ctx context.Context, raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.User != nil || u.Opaque != "" || len(raw) > 2000 {
		return nil, ErrURLInvalid
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && g.AllowHTTP:
	case u.Scheme == "http":
		return nil, ErrHTTPSRequired
	default:
		return nil, ErrURLInvalid
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, ErrURLInvalid
		}
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if !g.allowed(a) {
			return nil, ErrHostForbidden
		}
		return u, nil
	}
	if !hostName(host) {
		return nil, ErrURLInvalid
	}
	addrs, err := g.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return nil, ErrHostUnresolvable
	}
	for _, a := range addrs {
		if !g.allowed(a) {
			return nil, ErrHostForbidden
		}
	}
	return u, nil
}

// hostName reports whether h is a DNS name whose last label starts with a letter, as every top-level
// domain does. That refuses the numeric forms some resolvers read as IPv4 addresses (2130706433,
// 0177.0.0.1, 0x7f.1, 127.1) and which netip does not parse.
func hostName(h string) bool {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "" || len(h) > 253 {
		return false
	}
	labels := strings.Split(h, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
				return false
			}
		}
	}
	last := labels[len(labels)-1]
	return last[0] >= 'a' && last[0] <= 'z'
}

// Client is the HTTP client deliveries are posted with: it resolves the host itself and dials only
// an address the guard allows (so a name that now resolves inside our network is refused at
// connect time), uses no proxy, follows no redirect and gives up after timeout.
func (g Guard) Client(timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		addrs := []netip.Addr{}
		if a, err := netip.ParseAddr(host); err == nil {
			addrs = append(addrs, a)
		} else if addrs, err = g.resolver().LookupNetIP(ctx, "ip", host); err != nil {
			return nil, err
		}
		err = ErrHostForbidden
		for _, a := range addrs {
			if !g.allowed(a) {
				continue
			}
			var c net.Conn
			if c, err = dialer.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port)); err == nil {
				return c, nil
			}
		}
		return nil, err
	}
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy: nil, DialContext: dial, ForceAttemptHTTP2: true, TLSHandshakeTimeout: 10 * time.Second,
			MaxResponseHeaderBytes: 64 << 10, MaxIdleConns: 100, IdleConnTimeout: 90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return ErrRedirect },
	}
}

// NewGuard is the guard the configuration asks for: plain http and the allowed networks only in
// dev and test (config refuses allowed networks in production).
func NewGuard(cfg *config.Config) Guard {
	return Guard{Allowed: cfg.WebhookAllowedNets, AllowHTTP: cfg.IsDev()}
}
