package workflows

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/internal/readiness"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/workflowtest"
)

type report struct {
	Status string             `json:"status"`
	Checks []readiness.Result `json:"checks"`
}

func probe(t *testing.T, url string) (int, report) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	var r report
	require.NoError(t, json.NewDecoder(res.Body).Decode(&r))
	return res.StatusCode, r
}

func failing(r report) []string {
	var names []string
	for _, c := range r.Checks {
		if !c.OK {
			names = append(names, c.Name)
		}
	}
	return names
}

// The stack's own `aporta worker` (deploy/stack.sh waits for its /readyz) answers both probes, and
// /readyz, asked from this machine, names every check: the stores, Temporal and its task queues.
func TestTheStacksWorkerIsReady(t *testing.T) {
	cfg := tenantstest.Config(t)
	base := "http://" + cfg.WorkerHealthAddr
	code, r := probe(t, base+"/healthz")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "ok", r.Status)
	code, r = probe(t, base+"/readyz")
	require.Equal(t, http.StatusOK, code, "failing: %v", failing(r))
	names := make([]string, len(r.Checks))
	for i, c := range r.Checks {
		names[i] = c.Name
	}
	require.Subset(t, names, []string{"directory", "temporal", "workers", "shard_ar", "shard_uy"})
}

// /readyz is 503 until every task queue's worker has started, and while Temporal does not answer;
// /healthz answers all along (a pod is restarted only when the process itself is stuck).
func TestWorkerReadiness(t *testing.T) {
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	c := workflowtest.Client(t)
	h := newHealth(readiness.Stores(tt, c))
	srv := httptest.NewServer(h.handler())
	t.Cleanup(srv.Close)

	code, r := probe(t, srv.URL+"/readyz")
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.Equal(t, []string{"workers"}, failing(r))
	h.started.Store(true)
	code, r = probe(t, srv.URL+"/readyz")
	require.Equal(t, http.StatusOK, code, "failing: %v", failing(r))

	// A Temporal that nobody serves: readiness fails on it alone, liveness stays.
	gone, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1", Namespace: cfg.TemporalNS})
	require.NoError(t, err)
	t.Cleanup(gone.Close)
	down := newHealth(readiness.Stores(tt, gone))
	down.started.Store(true)
	srv2 := httptest.NewServer(down.handler())
	t.Cleanup(srv2.Close)
	code, r = probe(t, srv2.URL+"/readyz")
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.Equal(t, []string{"temporal"}, failing(r))
	code, _ = probe(t, srv2.URL+"/healthz")
	require.Equal(t, http.StatusOK, code)
}
