// Package webhooks delivers organisations' webhook events (issue #20). Events are queued in the
// transaction of the change they tell (internal/webhook.Enqueue, one delivery per subscribed
// endpoint). One EndpointWorkflow per endpoint polls its queue, the way crmsync drains CRM changes,
// and starts a DeliveryWorkflow per delivery, which posts the signed body until the endpoint answers
// 2xx: a failed attempt is retried after 30 s, then twice as long each time (at most 6 h apart),
// for 72 h. A delivery given up on an endpoint that answered nothing else meanwhile disables the
// endpoint and e-mails the organisation's administrators.
package webhooks

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the webhook workers' queue.
const TaskQueue = "webhooks"

// The retry schedule.
const (
	FirstRetry  = 30 * time.Second // after the first failed attempt
	MaxRetryGap = 6 * time.Hour
	Window      = 72 * time.Hour // from the first attempt: no attempt is made later
)

// RetryDelay is the wait after the n-th failed attempt (n ≥ 1): 30 s, 1 min, 2 min… up to 6 h.
func RetryDelay(n int) time.Duration {
	d := FirstRetry
	for i := 1; i < n && d < MaxRetryGap; i++ {
		d *= 2
	}
	return min(d, MaxRetryGap)
}

// EndpointWorkflowID is an endpoint's dispatching workflow; DeliveryWorkflowID a delivery's.
func EndpointWorkflowID(endpointID string) string { return "webhook-endpoint/" + endpointID }
func DeliveryWorkflowID(deliveryID string) string { return "webhook-delivery/" + deliveryID }

// EndpointInput names an endpoint; PollEvery is how often its queue is read (DefaultPoll when zero).
type EndpointInput struct {
	OrganizationID string        `json:"organization_id"`
	EndpointID     string        `json:"endpoint_id"`
	PollEvery      time.Duration `json:"poll_every"`
}

// DeliveryInput names a delivery.
type DeliveryInput struct {
	OrganizationID string `json:"organization_id"`
	DeliveryID     string `json:"delivery_id"`
}

// Dispatch states.
const (
	StateMore = "more" // the batch was full: dispatch again now
	StateIdle = "idle"
	StateGone = "gone" // the endpoint was deleted or disabled: the workflow ends (enabling it starts it again)
)

// Attempt outcomes.
const (
	OutcomeDelivered = "delivered"
	OutcomeFailed    = "failed"
	OutcomeStopped   = "stopped" // nothing to deliver any more: delivered or given up before, endpoint disabled or deleted
)

// DefaultPoll is how often an endpoint's queue is read.
const DefaultPoll = 5 * time.Second

// rounds is how many polls one run makes before continuing as new (a short history).
const rounds = 200

// activityOptions: the activities' own failures (the database, a worker that died) are retried; a
// receiver's failure is an attempt's outcome, never an activity error.
var activityOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 2 * time.Minute,
	RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 5 * time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute},
}

// EndpointWorkflow starts the deliveries of the endpoint's new events for as long as it is active.
func EndpointWorkflow(ctx workflow.Context, in EndpointInput) error {
	var a *Activities
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	poll := in.PollEvery
	if poll <= 0 {
		poll = DefaultPoll
	}
	for range rounds {
		var state string
		if err := workflow.ExecuteActivity(ctx, a.Dispatch, in).Get(ctx, &state); err != nil {
			return err
		}
		switch state {
		case StateGone:
			return nil
		case StateMore:
			continue
		}
		if err := workflow.Sleep(ctx, poll); err != nil {
			return err
		}
	}
	return workflow.NewContinueAsNewError(ctx, EndpointWorkflow, in)
}

// DeliveryWorkflow posts the delivery until the endpoint takes it, on the retry schedule, and gives
// it up when the next attempt would fall outside the window.
func DeliveryWorkflow(ctx workflow.Context, in DeliveryInput) error {
	var a *Activities
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	first := workflow.Now(ctx)
	for n := 1; ; n++ {
		var outcome string
		if err := workflow.ExecuteActivity(ctx, a.Attempt, in).Get(ctx, &outcome); err != nil {
			return err
		}
		if outcome != OutcomeFailed {
			return nil
		}
		wait := RetryDelay(n)
		if workflow.Now(ctx).Add(wait).Sub(first) > Window {
			break
		}
		if err := workflow.Sleep(ctx, wait); err != nil {
			return err
		}
	}
	return workflow.ExecuteActivity(ctx, a.GiveUp, in, first).Get(ctx, nil)
}
