package outboxsweep_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"

	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/outboxsweep"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// The purge deletes the messages (and e-mail keys) older than the cut-off, and only those.
func TestPurgeDeletesOnlyOldMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := tenantstest.Config(t)
	dir := tenantstest.Open(t).Directory()
	a := &outboxsweep.Activities{Outbox: outbox.New(dir, cfg)}
	old, recent := "old-"+uuid.NewString()[:8]+"@example.test", "recent-"+uuid.NewString()[:8]+"@example.test"
	for _, to := range []string{old, recent} {
		require.NoError(t, a.Outbox.SendOnce(ctx, "test-purge/"+to, outbox.Message{Recipient: to, MessageType: outbox.TypeEmail, Subject: "s", Body: "b"}))
	}
	_, err := dir.Exec(ctx, `UPDATE outbox_messages SET created_at = now() - interval '31 days' WHERE recipient = $1`, old)
	require.NoError(t, err)
	_, err = dir.Exec(ctx, `UPDATE workflow_emails SET created_at = now() - interval '31 days' WHERE key = $1`, "test-purge/"+old)
	require.NoError(t, err)

	n, err := a.Purge(ctx, time.Now().Add(-30*24*time.Hour))
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, int64(1))
	count := func(q, arg string) (n int) {
		require.NoError(t, dir.QueryRow(ctx, q, arg).Scan(&n))
		return n
	}
	require.Zero(t, count(`SELECT count(*) FROM outbox_messages WHERE recipient = $1`, old))
	require.Zero(t, count(`SELECT count(*) FROM workflow_emails WHERE key = $1`, "test-purge/"+old))
	require.Equal(t, 1, count(`SELECT count(*) FROM outbox_messages WHERE recipient = $1`, recent))
	require.Equal(t, 1, count(`SELECT count(*) FROM workflow_emails WHERE key = $1`, "test-purge/"+recent))
}

// A run retries pending messages, then purges with the schedule's retention.
func TestWorkflowRetriesThenPurgesWithTheRetention(t *testing.T) {
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
	var a *outboxsweep.Activities
	env.RegisterActivity(a)
	env.OnActivity(a.DeliverPending, mock.Anything, outboxsweep.Batch).Return(3, nil).Once()
	env.OnActivity(a.Purge, mock.Anything, mock.Anything).Return(func(_ context.Context, before time.Time) (int64, error) {
		require.WithinDuration(t, env.Now().Add(-72*time.Hour), before, time.Second)
		return 5, nil
	}).Once()
	env.ExecuteWorkflow(outboxsweep.Workflow, outboxsweep.Input{Retention: 72 * time.Hour})
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	env.AssertExpectations(t)
}

// Each worker start ensures the schedule: created the first time, updated (not duplicated) after,
// carrying the configured retention.
func TestSweepScheduleIsCreatedOnceAndUpdated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := workflowtest.Client(t)
	id := "outbox-sweep-test-" + uuid.NewString()
	defer func() { _ = c.ScheduleClient().GetHandle(ctx, id).Delete(ctx) }()

	require.NoError(t, outboxsweep.EnsureSchedule(ctx, c, id, "outbox-test", outboxsweep.Input{Retention: 720 * time.Hour}))
	first, err := c.ScheduleClient().GetHandle(ctx, id).Describe(ctx)
	require.NoError(t, err)
	require.NoError(t, outboxsweep.EnsureSchedule(ctx, c, id, "outbox-test", outboxsweep.Input{Retention: 48 * time.Hour}))
	desc, err := c.ScheduleClient().GetHandle(ctx, id).Describe(ctx)
	require.NoError(t, err)
	require.Equal(t, first.Info.CreatedAt, desc.Info.CreatedAt, "the same schedule, not a new one")
	require.Equal(t, outboxsweep.Every, desc.Schedule.Spec.Intervals[0].Every)
	action := desc.Schedule.Action.(*client.ScheduleWorkflowAction)
	require.Len(t, action.Args, 1)
	var in outboxsweep.Input
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(action.Args[0].(*commonpb.Payload), &in))
	require.Equal(t, 48*time.Hour, in.Retention)
}

// The stack's worker ensured the schedule at start, with the configured retention, and runs it.
func TestWorkerEnsuresTheSweepSchedule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := tenantstest.Config(t)
	c := workflowtest.Client(t)
	var desc *client.ScheduleDescription
	var err error
	require.Eventually(t, func() bool {
		desc, err = c.ScheduleClient().GetHandle(ctx, outboxsweep.ScheduleID).Describe(ctx)
		return err == nil
	}, 30*time.Second, 200*time.Millisecond)
	action := desc.Schedule.Action.(*client.ScheduleWorkflowAction)
	require.Equal(t, outboxsweep.TaskQueue, action.TaskQueue)
	var in outboxsweep.Input
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(action.Args[0].(*commonpb.Payload), &in))
	require.Equal(t, cfg.OutboxRetention, in.Retention)

	// And the worker runs it.
	h := c.ScheduleClient().GetHandle(ctx, outboxsweep.ScheduleID)
	require.NoError(t, h.Trigger(ctx, client.ScheduleTriggerOptions{}))
	require.Eventually(t, func() bool {
		desc, err = h.Describe(ctx)
		return err == nil && len(desc.Info.RecentActions) > 0
	}, 30*time.Second, 200*time.Millisecond)
	run := desc.Info.RecentActions[len(desc.Info.RecentActions)-1].StartWorkflowResult
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	require.NoError(t, c.GetWorkflow(wctx, run.WorkflowID, run.FirstExecutionRunID).Get(wctx, nil))
}
