// Package readiness probes a process's dependencies for its /readyz: serve's (api/health) and the
// worker's (workflows) answer the same report from the same checks of the stores and Temporal.
package readiness

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
)

// Check is one dependency's probe.
type Check struct {
	Name  string
	Probe func(context.Context) error
}

// Result is one check's outcome.
type Result struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// Report probes every check in parallel, each within timeout, and returns the status code (503 when
// any is down) and the JSON body. Only with details does the body list each check and its error:
// they name internal hosts and ports.
func Report(ctx context.Context, checks []Check, timeout time.Duration, details bool) (int, any) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	results := make([]Result, len(checks))
	var wg sync.WaitGroup
	for i, ch := range checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := Result{Name: ch.Name, OK: true}
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
	if !details {
		return code, map[string]any{"status": status}
	}
	return code, map[string]any{"status": status, "checks": results}
}

// Stores checks what every process of ours needs: the directory, each country's shard and Temporal.
func Stores(t *tenants.Tenants, temporal client.Client) []Check {
	checks := []Check{
		{Name: "directory", Probe: t.Directory().Ping},
		{Name: "temporal", Probe: func(ctx context.Context) error {
			_, err := temporal.CheckHealth(ctx, &client.CheckHealthRequest{})
			return err
		}},
	}
	for _, country := range config.Countries {
		pool, err := t.Shard(country)
		probe := func(context.Context) error { return err }
		if err == nil {
			probe = pool.Ping
		}
		checks = append(checks, Check{Name: "shard_" + strings.ToLower(country), Probe: probe})
	}
	return checks
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
