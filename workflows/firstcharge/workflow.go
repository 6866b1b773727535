// Package firstcharge settles a donation's first charge. The donation form charges it (Settler) after storing
// the donation pending with its first charge open, and closes it once settled and followed up (Close); this
// package's sweep (Sweep) starts the workflow for every donation still open once the first wait has passed: when
// the donor's request could not settle the charge (the API died between the charge and its record, the gateway's
// answer was lost, or the gateway left the payment pending), the workflow reads the payment back from the gateway
// on a widening schedule until the first transaction is settled, and never charges; when it died after, the
// workflow sends what follows. Both settle through the same Settler.
package firstcharge

import (
	"context"
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is where the workflow runs.
const TaskQueue = "donation-first-charge"

// Checks are the waits before each read-back. The first, how long a donation stays open before the sweep starts
// its run (Sweep), leaves the donor's own request time to finish; the last gives a pending payment three days,
// MercadoPago's usual review window, after which a first charge never found at the gateway is recorded as not
// charged.
var Checks = []time.Duration{2 * time.Minute, 10 * time.Minute, time.Hour, 6 * time.Hour, 24 * time.Hour, 72 * time.Hour}

// Input names the donation.
type Input struct {
	OrganizationID string `json:"organization_id"`
	DonationID     string `json:"donation_id"`
}

// SettleRequest is the activity's input: Final says it is the last check.
type SettleRequest struct {
	Input
	Final bool `json:"final"`
}

// ActivityOptions: one read-back retries for up to an hour (the gateway or the database down); a
// read-back that gives up leaves the question to the next check, and the last one's failure fails
// the workflow. Invalid input fails at once (non-retryable errors).
var ActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    time.Minute,
	ScheduleToCloseTimeout: time.Hour,
	RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 10 * time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Minute},
}

// Workflow checks the first charge until the activity reports it settled. A run starts once its donation has been
// open for the first wait (Sweep), so it checks at once and then waits between checks; a run started before the
// start-delayed version (by the form, before it charged) sleeps the first wait itself.
func Workflow(ctx workflow.Context, in Input) error {
	ctx = workflow.WithActivityOptions(ctx, ActivityOptions)
	delayed := workflow.GetVersion(ctx, startDelayedVersion, workflow.DefaultVersion, 1) == 1
	var a *Activities
	for i, wait := range Checks {
		if i > 0 || !delayed {
			if err := workflow.Sleep(ctx, wait); err != nil {
				return err
			}
		}
		var settled bool
		req := SettleRequest{Input: in, Final: i == len(Checks)-1}
		if err := workflow.ExecuteActivity(ctx, a.SettleFirstCharge, req).Get(ctx, &settled); err != nil {
			var appErr *temporal.ApplicationError
			if req.Final || errors.As(err, &appErr) && appErr.NonRetryable() {
				return err
			}
			workflow.GetLogger(ctx).Error("first charge read-back gave up; the next check tries again", "error", err)
		}
		if settled {
			return nil
		}
	}
	return nil
}

// startDelayedVersion marks the runs started a first wait after their donation was written, which check at once
// (Workflow): by the start delay the form's start gave them, now by the sweep.
const startDelayedVersion = "start-delayed"

// WorkflowID derives from the donation, so a second start finds the first.
func WorkflowID(donationID string) string { return "donation-first-charge/" + donationID }

// StartTimeout bounds Start.
const StartTimeout = 30 * time.Second

// Start starts the workflow, or finds the one already running or finished for the donation. A start
// the server does not answer in time is sent again until StartTimeout: the SDK gives each call 10 s
// and does not retry a timed-out one, and a loaded server (the bench's donors at load average 45)
// answered some starts later than that. Sending it again is safe, as the first may have landed: the
// second joins it (the id derives from the donation). Start still failing leaves the donation to the
// next sweep.
func Start(ctx context.Context, c client.Client, in Input) error {
	ctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	for wait := 500 * time.Millisecond; ; wait *= 2 {
		err := start(ctx, c, in)
		if !unanswered(err) || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

func start(ctx context.Context, c client.Client, in Input) error {
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       WorkflowID(in.DonationID),
		TaskQueue:                TaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, Workflow, in)
	var done *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &done) { // finished already: the first charge is settled
		return nil
	}
	return err
}

// unanswered says whether a start failed for want of the server's answer in time (the SDK retries
// the other transient failures itself).
func unanswered(err error) bool {
	var late *serviceerror.DeadlineExceeded
	return errors.As(err, &late) || errors.Is(err, context.DeadlineExceeded)
}
