package apitest

import (
	"math/rand/v2"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// Each test client is its own browser: it connects from its own loopback address (127.x.y.z, all
// routed to lo on Linux), so per-IP limits, shared by every process through PostgreSQL, count each
// client apart, as they would count people, and a test can act as many IPs or as one.
var lastIP atomic.Uint32

func init() { lastIP.Store(rand.Uint32N(1 << 23)) } // test processes start far apart

// NewIP returns a loopback address no other client of this process uses.
func NewIP() string {
	n := lastIP.Add(1)%(1<<24-2) + 1 // never 127.0.0.0 nor 127.255.255.255
	return net.IPv4(127, byte(n>>16), byte(n>>8), byte(n)).String()
}

// HTTPClient is an HTTP client connecting from ip; it follows no redirects, so tests see them.
func HTTPClient(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	return &http.Client{
		Timeout:       2 * time.Minute,
		Transport:     &http.Transport{DialContext: d.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
