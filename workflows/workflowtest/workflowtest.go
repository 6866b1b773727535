// Package workflowtest holds test support shared by the workflow packages.
package workflowtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/aporta/aporta/tenants/tenantstest"
)

// SaveHistory writes a workflow's history as JSON, the form worker.NewWorkflowReplayer reads, for a
// package's replay test.
func SaveHistory(t *testing.T, c client.Client, id, runID, path string) {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), id, runID, false, 0)
	var events []json.RawMessage
	for it.HasNext() {
		e, err := it.Next()
		require.NoError(t, err)
		b, err := protojson.Marshal(e)
		require.NoError(t, err)
		events = append(events, b)
	}
	data, err := json.MarshalIndent(map[string]any{"events": events}, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, data, 0o644))
	fmt.Println("history saved to", path)
}

// Client dials the test stack's Temporal; it is closed when the test ends.
func Client(t testing.TB) client.Client {
	t.Helper()
	cfg := tenantstest.Config(t)
	c, err := client.Dial(client.Options{HostPort: cfg.TemporalAddr, Namespace: cfg.TemporalNS})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

// Worker runs a worker of c on a task queue of its own (prefix and a fresh id), with what register
// adds, until the test ends; it answers the queue.
func Worker(t testing.TB, c client.Client, prefix string, register func(worker.Registry)) string {
	t.Helper()
	queue := prefix + uuid.NewString()
	w := worker.New(c, queue, worker.Options{})
	register(w)
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	return queue
}

// Replay replays saved histories (SaveHistory's files) against the workflow as it is now: a change
// not guarded with workflow.GetVersion fails with a non-determinism error.
func Replay(t *testing.T, workflow any, files ...string) {
	t.Helper()
	ReplayWorkflows(t, []any{workflow}, files...)
}

// ReplayWorkflows is Replay for a package of several workflows: each file, a history of any of them, is
// replayed with all of them registered.
func ReplayWorkflows(t *testing.T, workflows []any, files ...string) {
	t.Helper()
	for _, file := range files {
		r := worker.NewWorkflowReplayer()
		for _, w := range workflows {
			r.RegisterWorkflow(w)
		}
		require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(nil, file), file)
	}
}
