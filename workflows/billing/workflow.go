// Package billing charges an organisation's own subscription to an Aporta plan (organisation-and-
// account §4 "Subscription flow", "Payment flow", "Trial and plans"; issue #14). One workflow per
// subscription: it sleeps until the paid period ends, charges the next one through the platform's
// gateway account (card) or the bank-debit network (CBU debit: submitted, then read back until the
// bank confirms or rejects it) or waits for staff to record it (bank transfer), retries a
// failed charge on a schedule, e-mails the administrators on each failure, and after the last
// retry ends the subscription, which puts the organisation back under the restriction. A cancelled
// subscription keeps its plan to the end of the paid period.
//
// A period is charged at most once: its invoice is keyed by the period, the gateway payment's
// external reference (or debit reference) names the period, and each attempt's idempotency key is
// the reference plus the attempt number, so a retried activity gets the first payment back instead
// of a second one.
package billing

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the billing task queue.
const TaskQueue = "billing"

// WorkflowID is one per subscription, so starting it twice is a no-op.
func WorkflowID(orgID, subscriptionID string) string {
	return "billing/" + orgID + "/" + subscriptionID
}

// SignalChanged wakes the workflow after the subscription changed outside it (a new payment
// method, a cancellation, a transfer recorded by staff): it reloads and, during retries, tries again
// at once.
const SignalChanged = "changed"

// DefaultRetryDelays are the waits between the attempts at a period's charge: the first attempt at
// the period's start, then one, three and five days later. After the last the subscription ends.
var DefaultRetryDelays = []time.Duration{24 * time.Hour, 3 * 24 * time.Hour, 5 * 24 * time.Hour}

// Outcomes of a charge attempt.
const (
	OutcomePaid    = "paid"
	OutcomeFailed  = "failed"  // the gateway refused: a retry, an e-mail
	OutcomePending = "pending" // not decided yet (a transfer awaiting staff, a card payment in review)
	// OutcomeSubmitted: a CBU debit the bank has not decided yet; the workflow reads it back.
	OutcomeSubmitted = "submitted"
)

// DefaultDebitPoll is how long the workflow waits before reading back a submitted CBU debit, and
// MaxDebitPolls how many times before the attempt counts as undecided (the retry schedule goes on;
// the same debit is still read back, never submitted twice).
const (
	DefaultDebitPoll = 12 * time.Hour
	MaxDebitPolls    = 10
)

// Subscription statuses (organization_subscriptions.status).
const (
	StatusPending   = "pending"
	StatusActive    = "active"
	StatusPastDue   = "past_due"
	StatusCancelled = "cancelled"
	StatusEnded     = "ended"
)

// Input starts the workflow.
type Input struct {
	OrganizationID string          `json:"organization_id"`
	SubscriptionID string          `json:"subscription_id"`
	RetryDelays    []time.Duration `json:"retry_delays,omitempty"` // tests; DefaultRetryDelays when empty
	DebitPoll      time.Duration   `json:"debit_poll,omitempty"`   // tests; DefaultDebitPoll when zero
}

// State is the subscription as the workflow reads it (activity Load).
type State struct {
	Status      string `json:"status"`
	PaymentMode string `json:"payment_mode"`
	PlanCode    string `json:"plan_code"`
	// NextPlanCode waits for the next period (a downgrade); applied after that period is paid.
	NextPlanCode string     `json:"next_plan_code,omitempty"`
	CreatedAt    time.Time  `json:"created_at"`
	PaidUntil    *time.Time `json:"paid_until,omitempty"`
}

// Attempt is one try at a period's charge.
type Attempt struct {
	OrganizationID string    `json:"organization_id"`
	SubscriptionID string    `json:"subscription_id"`
	PeriodStart    time.Time `json:"period_start"`
	Number         int       `json:"number"` // 1 for the first
}

// ActivityOptions: database writes and gateway calls, retried through an outage; an unknown
// subscription fails at once.
var ActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    time.Minute,
	ScheduleToCloseTimeout: 12 * time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute,
		NonRetryableErrorTypes: []string{ErrUnknownSubscription},
	},
}

// Workflow bills one subscription until it ends.
func Workflow(ctx workflow.Context, in Input) error {
	ctx = workflow.WithActivityOptions(ctx, ActivityOptions)
	var a *Activities
	delays := in.RetryDelays
	if len(delays) == 0 {
		delays = DefaultRetryDelays
	}
	poll := in.DebitPoll
	if poll <= 0 {
		poll = DefaultDebitPoll
	}
	changed := workflow.GetSignalChannel(ctx, SignalChanged)
	// reload is changed's twin for this workflow's own plan changes.
	reload := workflow.NewBufferedChannel(ctx, 1)
	drain := func() {
		for changed.ReceiveAsync(nil) {
		}
		for reload.ReceiveAsync(nil) {
		}
	}
	// Plan changes run one at a time, never while a period is being charged (charging).
	charging, changing := false, false
	if err := workflow.SetUpdateHandlerWithOptions(ctx, UpdateChangePlan,
		func(ctx workflow.Context, c Change) (ChangeResult, error) {
			if err := workflow.Await(ctx, func() bool { return !charging && !changing }); err != nil {
				return ChangeResult{}, err
			}
			changing = true
			defer func() { changing = false }()
			c.OrganizationID, c.SubscriptionID, c.At = in.OrganizationID, in.SubscriptionID, workflow.Now(ctx)
			var res ChangeResult
			err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, ActivityOptions), a.ChangePlan, c).Get(ctx, &res)
			reload.SendAsync(true)
			return res, err
		},
		workflow.UpdateHandlerOptions{Validator: func(c Change) error {
			if charging {
				return temporal.NewApplicationError("a period is being charged", ErrNotChangeable)
			}
			if c.PlanCode == "" || c.ChangeID == "" {
				return temporal.NewApplicationError("plan and change id required", ErrUnknownPlan)
			}
			return nil
		}},
	); err != nil {
		return err
	}
	// wait sleeps d, or less when the subscription changes; it reports whether it was woken.
	wait := func(d time.Duration) bool {
		if d <= 0 {
			return false
		}
		timerCtx, cancel := workflow.WithCancel(ctx)
		defer cancel()
		timer := workflow.NewTimer(timerCtx, d)
		woke := false
		sel := workflow.NewSelector(ctx)
		sel.AddFuture(timer, func(workflow.Future) {})
		sel.AddReceive(changed, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil); woke = true })
		sel.AddReceive(reload, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil); woke = true })
		sel.Select(ctx)
		drain()
		return woke
	}

	ensured := false
	for {
		var st State
		if err := workflow.ExecuteActivity(ctx, a.Load, in.OrganizationID, in.SubscriptionID).Get(ctx, &st); err != nil {
			return err
		}
		if st.Status == StatusEnded {
			return nil
		}
		// A paid period holds the plan: applied once per run, in case whoever took the payment (the
		// API's checkout, a staff record) failed to apply it. Applying it again changes nothing.
		if !ensured && st.PaidUntil != nil {
			if err := workflow.ExecuteActivity(ctx, a.Activate, in.OrganizationID, in.SubscriptionID).Get(ctx, nil); err != nil {
				return err
			}
			ensured = true
		}
		start := st.CreatedAt // the first period starts when the subscription was made
		if st.PaidUntil != nil {
			if wait(st.PaidUntil.Sub(workflow.Now(ctx))) {
				continue // reload: cancelled, or the method changed
			}
			if st.Status == StatusCancelled {
				return workflow.ExecuteActivity(ctx, a.End, in.OrganizationID, in.SubscriptionID, false).Get(ctx, nil)
			}
			start = *st.PaidUntil
		} else if st.Status == StatusCancelled {
			return workflow.ExecuteActivity(ctx, a.End, in.OrganizationID, in.SubscriptionID, false).Get(ctx, nil)
		}

		paid := false
		charging = true
		for n := 1; n <= len(delays)+1 && !paid; n++ {
			var outcome string
			at := Attempt{OrganizationID: in.OrganizationID, SubscriptionID: in.SubscriptionID, PeriodStart: start, Number: n}
			if err := workflow.ExecuteActivity(ctx, a.ChargePeriod, at).Get(ctx, &outcome); err != nil {
				return err
			}
			// A CBU debit is decided by the bank later: read it back (the same attempt, so the same debit).
			for polls := 0; outcome == OutcomeSubmitted && polls < MaxDebitPolls; polls++ {
				wait(poll)
				if err := workflow.ExecuteActivity(ctx, a.ChargePeriod, at).Get(ctx, &outcome); err != nil {
					return err
				}
			}
			if outcome == OutcomePaid {
				paid = true
				// The first period: the plan starts now; or a waiting plan took over with this one.
				if !ensured || st.NextPlanCode != "" {
					if err := workflow.ExecuteActivity(ctx, a.Activate, in.OrganizationID, in.SubscriptionID).Get(ctx, nil); err != nil {
						return err
					}
					ensured = true
				}
				break
			}
			if outcome == OutcomeFailed {
				if err := workflow.ExecuteActivity(ctx, a.PaymentFailed, at).Get(ctx, nil); err != nil {
					workflow.GetLogger(ctx).Error("payment-failed e-mail", "error", err)
				}
			}
			if n <= len(delays) {
				wait(delays[n-1])
			}
		}
		charging = false
		if !paid {
			// The last retry failed (or the transfer never came): the plan lapses.
			return workflow.ExecuteActivity(ctx, a.End, in.OrganizationID, in.SubscriptionID, true).Get(ctx, nil)
		}
		if workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
				return err
			}
			return workflow.NewContinueAsNewError(ctx, Workflow, in)
		}
	}
}
