// Package payouts pays organisations the money the platform collected on their behalf through their
// integrated processors (issue #13): each processor's approved charges, less Aporta's commission and
// the processor's fee, less what earlier payouts paid for charges refunded or charged back since,
// go to the organisation's active bank account through the processor's merchant account (dLocal's
// payouts), one payout per processor and currency, each charge in exactly one payout
// (payout_items' key).
//
// A daily sweep (Sweep, on ScheduleID) rather than a workflow per organisation: it needs nothing
// started when an organisation adds a processor or a bank account, a payout that waited for an
// account leaves the day after one is added, and money collected reaches the organisation within a
// day of settling. The sweep starts one Cycle per organisation, which runs on its own (a slow
// processor delays only that organisation) and is the unit the tests and `aporta payouts` run.
package payouts

import (
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the payouts workers' queue.
const TaskQueue = "payouts"

// Input names the organisation a cycle pays out.
type Input struct {
	OrganizationID string `json:"organization_id"`
}

// CycleID is the workflow id of an organisation's cycle: one at a time per organisation.
func CycleID(orgID string) string { return "payouts/" + orgID }

// Cycle gathers the organisation's payouts (Prepare) and sends each one frozen for sending (Pay).
// A worker that dies mid-payout leaves the activity to be retried, and a payout that could not be
// sent today (the processor down) stays frozen for the next cycle: Pay asks under the same external
// id, so neither pays twice.
func Cycle(ctx workflow.Context, in Input) error {
	var a *Activities
	prepare := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 5 * time.Second, MaximumInterval: 10 * time.Minute, MaximumAttempts: 10},
	})
	var ids []string
	if err := workflow.ExecuteActivity(prepare, a.Prepare, in).Get(ctx, &ids); err != nil {
		return err
	}
	// A dLocal call takes 20 s at most (dlocal.Config.Timeout): a killed worker's attempt is retried
	// soon after; and the payout is retried for most of a day before the next cycle takes it over.
	pay := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    30 * time.Second,
		ScheduleToCloseTimeout: 12 * time.Hour,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 2 * time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Minute},
	})
	var errs []error
	for _, id := range ids {
		if err := workflow.ExecuteActivity(pay, a.Pay, PayInput{OrganizationID: in.OrganizationID, PayoutID: id}).Get(ctx, nil); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// SweepInput is what is left of a sweep that continued as new; the schedule starts it empty.
type SweepInput struct {
	Remaining []string `json:"remaining,omitempty"`
	Listed    bool     `json:"listed,omitempty"`
}

// sweepBatch caps the cycles one run of the sweep starts before it continues as new, keeping its
// history short.
const sweepBatch = 500

// Sweep starts today's cycle of every organisation with a processor. A cycle still running from an
// earlier sweep (its payout retried all day) is left alone. Cycles run on their own: the sweep waits
// only for them to start.
func Sweep(ctx workflow.Context, in SweepInput) error {
	if !in.Listed {
		var a *Activities
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 5 * time.Minute,
			RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 10 * time.Second, MaximumInterval: 5 * time.Minute, MaximumAttempts: 10},
		})
		if err := workflow.ExecuteActivity(actx, a.Organizations).Get(ctx, &in.Remaining); err != nil {
			return err
		}
		in.Listed = true
	}
	batch := in.Remaining[:min(len(in.Remaining), sweepBatch)]
	futures := make([]workflow.ChildWorkflowFuture, len(batch))
	for i, org := range batch {
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID:            CycleID(org),
			ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		})
		futures[i] = workflow.ExecuteChildWorkflow(cctx, Cycle, Input{OrganizationID: org})
	}
	for _, f := range futures {
		err := f.GetChildWorkflowExecution().Get(ctx, nil)
		if err != nil && !temporal.IsWorkflowExecutionAlreadyStartedError(err) {
			return err
		}
	}
	if rest := in.Remaining[len(batch):]; len(rest) > 0 {
		return workflow.NewContinueAsNewError(ctx, Sweep, SweepInput{Remaining: rest, Listed: true})
	}
	return nil
}
