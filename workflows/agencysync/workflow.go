// Package agencysync makes a live agency acquisition the organisation's donation once the agency's
// sync delay has passed (spec organisation-and-account §4 Mode, §9). The delay is a durable timer:
// a worker restart resumes the wait where it was. While it waits, the agent or a supervisor may
// correct the amount or void the acquisition (rows updated by the API while the status is pending);
// the sync takes the row's lock and syncs only a pending one, so a late correction either lands
// before it or finds it synced.
//
// Rule for a discarded agency: an acquisition still pending when its delay ends is voided
// (void_reason agency_discarded), never charged; the organisation discarding a team stops its
// pending street sign-ups. Already synced donations stay the organisation's.
package agencysync

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is where the workflow runs.
const TaskQueue = "agency-sync"

// Input names the acquisition and the delay it was made with.
type Input struct {
	OrganizationID string `json:"organization_id"`
	AcquisitionID  string `json:"acquisition_id"`
	DelaySeconds   int    `json:"delay_seconds"`
}

// Result is how the sync ended: synced, voided, or already (synced or voided before).
type Result struct {
	Status     string `json:"status"`
	DonationID string `json:"donation_id,omitempty"`
}

// ActivityOptions: the sync retries for a day (the database or the gateway down); it is idempotent
// (one donation per acquisition, the first charge keyed by its transaction).
var ActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    2 * time.Minute,
	ScheduleToCloseTimeout: 24 * time.Hour,
	RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 5 * time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Minute},
}

// Workflow waits the delay, then syncs.
func Workflow(ctx workflow.Context, in Input) (Result, error) {
	if in.DelaySeconds > 0 {
		if err := workflow.Sleep(ctx, time.Duration(in.DelaySeconds)*time.Second); err != nil {
			return Result{}, err
		}
	}
	ctx = workflow.WithActivityOptions(ctx, ActivityOptions)
	var a *Activities
	var out Result
	err := workflow.ExecuteActivity(ctx, a.Sync, in).Get(ctx, &out)
	return out, err
}

// WorkflowID derives from the acquisition, so a second start finds the first.
func WorkflowID(acquisitionID string) string { return "agency-sync/" + acquisitionID }

// Client starts the workflow for the API.
type Client struct{ Temporal client.Client }

// Start starts the acquisition's sync; starting it again (a retried submission) is a no-op.
func (c Client) Start(ctx context.Context, orgID, acquisitionID uuid.UUID, delay time.Duration) error {
	_, err := c.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       WorkflowID(acquisitionID.String()),
		TaskQueue:                TaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, Workflow, Input{OrganizationID: orgID.String(), AcquisitionID: acquisitionID.String(), DelaySeconds: int(delay / time.Second)})
	var done *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &done) { // finished already
		return nil
	}
	return err
}
