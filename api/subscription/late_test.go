package subscription

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
)

// A plan change the workflow did not answer in time is "busy" (503), whether our deadline ran out or the server's
// wait for the update did; any other failure is not.
func TestLateTellsAnUnansweredUpdate(t *testing.T) {
	require.True(t, late(fmt.Errorf("change: %w", context.DeadlineExceeded)))
	require.True(t, late(fmt.Errorf("change: %w", client.NewWorkflowUpdateServiceTimeoutOrCanceledError(errors.New("RST_STREAM")))))
	require.False(t, late(errors.New("workflow not found")))
	require.False(t, late(context.Canceled))
}
