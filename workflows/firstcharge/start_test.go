package firstcharge

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/workflows/workflowtest"
)

// lostAnswers is the stack's Temporal answering its first lose starts too late: each start lands at
// the server, and the client sees the deadline pass.
type lostAnswers struct {
	client.Client
	lose int
	runs []string // the run each start landed on
}

func (l *lostAnswers) ExecuteWorkflow(ctx context.Context, o client.StartWorkflowOptions, wf any, args ...any) (client.WorkflowRun, error) {
	run, err := l.Client.ExecuteWorkflow(ctx, o, wf, args...)
	if err != nil {
		return nil, err
	}
	if l.runs = append(l.runs, run.GetRunID()); len(l.runs) <= l.lose {
		return nil, serviceerror.NewDeadlineExceeded("context deadline exceeded")
	}
	return run, nil
}

// TestStartSendsAnUnansweredStartAgain: the form's guard start is sent again when its answer is
// late, and the repeats join the first run.
func TestStartSendsAnUnansweredStartAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := workflowtest.Client(t)
	in := Input{OrganizationID: uuid.NewString(), DonationID: uuid.NewString()}
	t.Cleanup(func() { _ = c.TerminateWorkflow(ctx, WorkflowID(in.DonationID), "", "test over") })
	late := &lostAnswers{Client: c, lose: 2}
	require.NoError(t, Start(ctx, late, in))
	require.Len(t, late.runs, 3)
	require.Equal(t, late.runs[0], late.runs[1])
	require.Equal(t, late.runs[0], late.runs[2], "one guard")

	// An answer that never comes in time fails the start: the form then does not charge.
	ctx, cancel := context.WithTimeout(ctx, 0)
	defer cancel()
	require.Error(t, Start(ctx, &lostAnswers{Client: c, lose: 1 << 20}, in))
}
