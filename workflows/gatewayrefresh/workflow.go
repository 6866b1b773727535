// Package gatewayrefresh keeps an organisation's gateway connection usable: one workflow per
// connection sleeps until RefreshLead before its access token expires, or until it is told the
// gateway refused the token (SignalRefreshNow), refreshes it (with retries), and sleeps again. When the gateway refuses the refresh for good the connection is
// marked as needing reconnection and the organisation's administrators are e-mailed; a
// reconnection starts the workflow afresh (Client.Watch).
package gatewayrefresh

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the refresh workers' queue.
const TaskQueue = "gateway-refresh"

// RefreshLead is how long before expiry a connection is refreshed: MercadoPago's tokens last 180
// days, so a month leaves ample room for an outage of either side.
const RefreshLead = 30 * 24 * time.Hour

// WorkflowID is the connection's workflow.
func WorkflowID(connectionID string) string { return "gateway-refresh/" + connectionID }

// SignalRefreshNow asks the workflow to refresh at once: a gateway answered 401 to the
// connection's access token (revoked app, expired token).
const SignalRefreshNow = "refresh-now"

// RefreshNow is SignalRefreshNow's payload.
type RefreshNow struct {
	// Version is the connection version whose token was refused: a signal about an older one
	// (sent before the last refresh took effect) is ignored, so a burst of refusals refreshes once.
	Version int32 `json:"version"`
}

// refreshNowChange is the GetVersion change id of waiting on SignalRefreshNow as well as the
// timer; histories from before it replay with the plain sleep.
const refreshNowChange = "refresh-now-signal"

// Input names the connection.
type Input struct {
	OrganizationID string `json:"organization_id"`
	ConnectionID   string `json:"connection_id"`
}

// Workflow refreshes the connection before each expiry until it is deleted, refused, or has
// nothing to refresh. Each refresh continues as new, so the history stays one cycle long.
func Workflow(ctx workflow.Context, in Input) error {
	var a *Activities
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: 30 * time.Second, BackoffCoefficient: 2, MaximumInterval: time.Hour,
		},
	})
	var st State
	if err := workflow.ExecuteActivity(ctx, a.Load, in).Get(ctx, &st); err != nil {
		return err
	}
	if !st.Refreshable() {
		return nil
	}
	if err := waitForRefresh(ctx, st); err != nil {
		return err
	}
	var out Outcome
	if err := workflow.ExecuteActivity(ctx, a.Refresh, in, st.Version).Get(ctx, &out); err != nil {
		return err
	}
	if out == OutcomeRefused {
		if err := workflow.ExecuteActivity(ctx, a.MarkNeedsReconnection, in, st.Version).Get(ctx, nil); err != nil {
			return err
		}
		return nil
	}
	// Refusals of the token just replaced were answered by this refresh.
	for workflow.GetSignalChannel(ctx, SignalRefreshNow).ReceiveAsync(nil) {
	}
	return workflow.NewContinueAsNewError(ctx, Workflow, in)
}

// waitForRefresh waits until RefreshLead before the expiry or until a SignalRefreshNow about
// the current version, whichever comes first.
func waitForRefresh(ctx workflow.Context, st State) error {
	wait := st.ExpiresAt.Add(-RefreshLead).Sub(workflow.Now(ctx))
	if workflow.GetVersion(ctx, refreshNowChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		if wait > 0 {
			return workflow.Sleep(ctx, wait)
		}
		return nil
	}
	if wait <= 0 {
		return nil
	}
	ctx, cancel := workflow.WithCancel(ctx)
	defer cancel()     // the timer, when a signal came first
	var timerErr error // a cancelled workflow
	due, now := false, false
	sel := workflow.NewSelector(ctx)
	sel.AddFuture(workflow.NewTimer(ctx, wait), func(f workflow.Future) { due, timerErr = true, f.Get(ctx, nil) })
	sel.AddReceive(workflow.GetSignalChannel(ctx, SignalRefreshNow), func(c workflow.ReceiveChannel, _ bool) {
		var sig RefreshNow
		c.Receive(ctx, &sig)
		now = sig.Version >= st.Version
	})
	for !due && !now {
		sel.Select(ctx)
	}
	return timerErr
}
