package gatewayrefresh

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

var in = Input{OrganizationID: "org", ConnectionID: "conn"}

// run executes one cycle of the workflow with load's state, a refresh that answers refresh's
// outcomes in turn (an error entry fails that attempt), and the signals sent at their times
// after the start, and records when each activity ran.
func run(t *testing.T, st func(now time.Time) State, refresh []any, signals ...signalAt) (env *testsuite.TestWorkflowEnvironment, refreshedAt []time.Duration, marked []int32, start time.Time) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env = s.NewTestWorkflowEnvironment()
	var a *Activities
	env.RegisterActivity(a)
	start = env.Now()
	env.OnActivity(a.Load, mock.Anything, in).Return(func(context.Context, Input) (State, error) { return st(start), nil })
	env.OnActivity(a.Refresh, mock.Anything, in, int32(3)).Return(func(context.Context, Input, int32) (Outcome, error) {
		refreshedAt = append(refreshedAt, env.Now().Sub(start))
		next := refresh[0]
		refresh = refresh[1:]
		if err, ok := next.(error); ok {
			return "", err
		}
		return next.(Outcome), nil
	})
	env.OnActivity(a.MarkNeedsReconnection, mock.Anything, in, int32(3)).Return(func(_ context.Context, _ Input, v int32) error {
		marked = append(marked, v)
		return nil
	})
	for _, sig := range signals {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(SignalRefreshNow, RefreshNow{Version: sig.version}) }, sig.after)
	}
	env.ExecuteWorkflow(Workflow, in)
	require.True(t, env.IsWorkflowCompleted())
	return env, refreshedAt, marked, start
}

type signalAt struct {
	after   time.Duration
	version int32
}

func expiringIn(d time.Duration) func(time.Time) State {
	return func(now time.Time) State { return State{Exists: true, Active: true, Version: 3, ExpiresAt: now.Add(d)} }
}

// TestRefreshesAMonthBeforeExpiry sleeps (skipped time) until RefreshLead before the expiry,
// refreshes, and continues as new for the next cycle.
func TestRefreshesAMonthBeforeExpiry(t *testing.T) {
	env, at, marked, _ := run(t, expiringIn(180*24*time.Hour), []any{OutcomeRefreshed})
	require.Equal(t, []time.Duration{150 * 24 * time.Hour}, at)
	require.Empty(t, marked)
	var cont *workflow.ContinueAsNewError
	require.ErrorAs(t, env.GetWorkflowError(), &cont)
}

// TestRetriesUntilTheGatewayAnswers: an outage is retried with backoff, not given up.
func TestRetriesUntilTheGatewayAnswers(t *testing.T) {
	outage := errors.New("gateway: 503")
	env, at, marked, _ := run(t, expiringIn(time.Hour), []any{outage, outage, outage, OutcomeRefreshed})
	require.Len(t, at, 4)
	require.Zero(t, at[0], "already within the lead: refreshed at once")
	require.Greater(t, at[3], time.Minute, "with backoff between attempts")
	require.Empty(t, marked)
	var cont *workflow.ContinueAsNewError
	require.ErrorAs(t, env.GetWorkflowError(), &cont)
}

// TestRefusedMarksTheConnectionAndEnds: the account holder must reconnect; a reconnection
// starts a new workflow.
func TestRefusedMarksTheConnectionAndEnds(t *testing.T) {
	env, at, marked, _ := run(t, expiringIn(40*24*time.Hour), []any{OutcomeRefused})
	require.Equal(t, []time.Duration{10 * 24 * time.Hour}, at)
	require.Equal(t, []int32{3}, marked)
	require.NoError(t, env.GetWorkflowError())
}

// TestNothingToRefresh: deleted, already needing reconnection, or a key that does not expire.
func TestNothingToRefresh(t *testing.T) {
	for name, st := range map[string]State{
		"deleted":            {},
		"needs reconnection": {Exists: true, Version: 3, ExpiresAt: time.Now().Add(time.Hour)},
		"does not expire":    {Exists: true, Active: true, Version: 3},
	} {
		t.Run(name, func(t *testing.T) {
			env, at, marked, _ := run(t, func(time.Time) State { return st }, nil)
			require.NoError(t, env.GetWorkflowError())
			require.Empty(t, at)
			require.Empty(t, marked)
		})
	}
}

// TestChangedMeanwhileContinues: a connection refreshed or reconnected by someone else is read
// again in the next cycle.
func TestChangedMeanwhileContinues(t *testing.T) {
	env, at, marked, _ := run(t, expiringIn(time.Hour), []any{OutcomeChanged})
	require.Len(t, at, 1)
	require.Empty(t, marked)
	var cont *workflow.ContinueAsNewError
	require.ErrorAs(t, env.GetWorkflowError(), &cont)
}

// TestRefreshNowRefusedMarksAtOnce: a charge's 401 signals the workflow, which refreshes at once
// instead of months later; the gateway refuses, so the connection needs reconnection.
func TestRefreshNowRefusedMarksAtOnce(t *testing.T) {
	env, at, marked, _ := run(t, expiringIn(180*24*time.Hour), []any{OutcomeRefused}, signalAt{2 * time.Hour, 3})
	require.Equal(t, []time.Duration{2 * time.Hour}, at)
	require.Equal(t, []int32{3}, marked)
	require.NoError(t, env.GetWorkflowError())
}

// TestRefreshNowRenews: the refreshed tokens are stored and the next cycle waits for the new expiry.
func TestRefreshNowRenews(t *testing.T) {
	env, at, marked, _ := run(t, expiringIn(180*24*time.Hour), []any{OutcomeRefreshed}, signalAt{time.Minute, 3})
	require.Equal(t, []time.Duration{time.Minute}, at)
	require.Empty(t, marked)
	var cont *workflow.ContinueAsNewError
	require.ErrorAs(t, env.GetWorkflowError(), &cont)
}

// TestRefreshNowAboutAnOlderVersionIsIgnored: a 401 to the token the last refresh replaced does
// not refresh again; the workflow keeps waiting for the expiry (or a signal about this version).
func TestRefreshNowAboutAnOlderVersionIsIgnored(t *testing.T) {
	env, at, _, _ := run(t, expiringIn(180*24*time.Hour), []any{OutcomeRefreshed},
		signalAt{time.Minute, 2}, signalAt{time.Hour, 2}, signalAt{3 * time.Hour, 3})
	require.Equal(t, []time.Duration{3 * time.Hour}, at)
	var cont *workflow.ContinueAsNewError
	require.ErrorAs(t, env.GetWorkflowError(), &cont)
}
