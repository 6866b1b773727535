// Package health answers /healthz (the process is up) and /readyz (every dependency answers).
package health

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// Check is one dependency's probe.
type Check struct {
	Name  string
	Probe func(context.Context) error
}

type result struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// Healthz answers while the process serves requests.
func Healthz(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) }

// Readyz probes every dependency in parallel, each within timeout, and answers 503 when any is down.
// Only a request details allows (staff, or a probe on the machine itself) sees each check and its
// error: they name the internal hosts and ports.
func Readyz(checks []Check, timeout time.Duration, details func(*gin.Context) bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx, cancel := context.WithTimeout(c.Request.Context(), timeout)
		defer cancel()
		results := make([]result, len(checks))
		var wg sync.WaitGroup
		for i, ch := range checks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := result{Name: ch.Name, OK: true}
				if err := ch.Probe(ctx); err != nil {
					r.OK, r.Error = false, err.Error()
				}
				results[i] = r
			}()
		}
		wg.Wait()
		sort.Slice(results, func(i, j int) bool { return results[i].Name < results[j].Name })
		status, code := "ok", http.StatusOK
		for _, r := range results {
			if !r.OK {
				status, code = "degraded", http.StatusServiceUnavailable
			}
		}
		if !details(c) {
			c.JSON(code, gin.H{"status": status})
			return
		}
		c.JSON(code, gin.H{"status": status, "checks": results})
	}
}

// Local reports a request made on this machine straight to the server: from a loopback address and
// through no proxy (a proxy on the same machine forwards other people's requests).
func Local(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback() &&
		r.Header.Get("X-Forwarded-For") == "" && r.Header.Get("X-Real-Ip") == "" && r.Header.Get("Forwarded") == ""
}

// HTTP probes a health URL that answers 200 when ready (Kratos and Keto's /health/ready).
func HTTP(client *http.Client, url string) func(context.Context) error {
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("%s answered %d", url, res.StatusCode)
		}
		return nil
	}
}
