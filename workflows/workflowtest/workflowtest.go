// Package workflowtest holds test support shared by the workflow packages.
package workflowtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"
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
