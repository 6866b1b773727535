// Package crmsync sends organisations' donors, campaigns and donations to their CRMs (issue #16).
// Changes are written to the crm_changes outbox in the transaction that makes them
// (internal/crmsync.Enqueue); one workflow per integration drains that queue in batches: each
// Drain sends the records the batch's changes name, as they are now, by upsert on the external id
// (so a retried batch never duplicates and a record's latest state always lands last), within the
// CRM's daily API budget and our own cap. When the budget runs out the queue parks until the
// window reopens; 5xx and timeouts are retried with backoff; an expired session is renewed by the
// client. Nothing leaves the queue until the CRM accepted it (or refused that record, which stays
// in the queue as failed, retryable from the request log).
package crmsync

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the sync workers' queue.
const TaskQueue = "crm-sync"

// WorkflowID is an integration's workflow.
func WorkflowID(integrationID string) string { return "crm-sync/" + integrationID }

// SignalWake tells the workflow there is work (a setup change, a resync, a retry).
const SignalWake = "wake"

// Input names the integration; PollEvery is how often an idle workflow looks at the queue (the
// API wakes it for its own changes; donations and charges are found by this poll).
type Input struct {
	OrganizationID string        `json:"organization_id"`
	IntegrationID  string        `json:"integration_id"`
	PollEvery      time.Duration `json:"poll_every"`
}

// Drain outcomes.
const (
	StateMore    = "more"    // the batch was full: drain again now
	StateIdle    = "idle"    // the queue is empty (or the integration paused)
	StateParked  = "parked"  // the budget ran out: nothing for Wait
	StateBlocked = "blocked" // the CRM refuses the credentials: wait for the setup to change
	StateGone    = "gone"    // the integration was deleted
)

// Result is what one Drain did.
type Result struct {
	State  string        `json:"state"`
	Sent   int           `json:"sent"`
	Failed int           `json:"failed"`
	Wait   time.Duration `json:"wait,omitempty"`
}

// DefaultPoll is how often an idle integration's queue is read.
const DefaultPoll = 10 * time.Second

// rounds is how many drains one run makes before continuing as new (a short history).
const rounds = 100

// Workflow drains the integration's queue for as long as the integration exists.
func Workflow(ctx workflow.Context, in Input) error {
	var a *Activities
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Minute,
		// A drain heartbeats after every call, and a call gives up after 30s: a worker that died
		// mid-batch is noticed within 45s and the batch runs again elsewhere.
		HeartbeatTimeout: 45 * time.Second,
		// 5xx, timeouts, a worker that died mid-batch: the batch runs again (upserts by external id
		// make that harmless), waiting longer each time.
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 5 * time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Minute},
	})
	poll := in.PollEvery
	if poll <= 0 {
		poll = DefaultPoll
	}
	wake := workflow.GetSignalChannel(ctx, SignalWake)
	for range rounds {
		var r Result
		if err := workflow.ExecuteActivity(ctx, a.Drain, in).Get(ctx, &r); err != nil {
			return err
		}
		switch r.State {
		case StateGone:
			return nil
		case StateMore:
			continue
		case StateParked:
			// Wake signals do not shorten a park: the budget, not the work, is what is missing.
			if err := workflow.Sleep(ctx, max(r.Wait, time.Second)); err != nil {
				return err
			}
		case StateBlocked:
			wake.Receive(ctx, nil) // a setup change
		default:
			waitForWork(ctx, wake, poll)
		}
		flush(wake)
	}
	flush(wake)
	return workflow.NewContinueAsNewError(ctx, Workflow, in)
}

func waitForWork(ctx workflow.Context, wake workflow.ReceiveChannel, poll time.Duration) {
	timer, cancel := workflow.WithCancel(ctx)
	s := workflow.NewSelector(ctx)
	s.AddReceive(wake, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil) })
	s.AddFuture(workflow.NewTimer(timer, poll), func(workflow.Future) {})
	s.Select(ctx)
	cancel()
}

// flush empties the wake channel: the next Drain reads the whole queue anyway.
func flush(wake workflow.ReceiveChannel) {
	for wake.ReceiveAsync(nil) {
	}
}
