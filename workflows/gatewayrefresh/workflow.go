// Package gatewayrefresh keeps an organisation's gateway connection usable: one workflow per
// connection sleeps until RefreshLead before its access token expires, refreshes it (with
// retries), and sleeps again. When the gateway refuses the refresh for good the connection is
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
	if wait := st.ExpiresAt.Add(-RefreshLead).Sub(workflow.Now(ctx)); wait > 0 {
		if err := workflow.Sleep(ctx, wait); err != nil {
			return err
		}
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
	return workflow.NewContinueAsNewError(ctx, Workflow, in)
}
