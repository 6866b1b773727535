// Package subscription keeps an organisation's plan: the 90-day Essential trial of original
// customers, the messages before it ends, the post-trial restriction (3.5% commission on approved
// charges, no new donations) and the plan purchase that lifts it. One entity workflow per
// organisation; every database write is an activity, and only the main loop runs activities, so
// updates and timers never race on the organisation's row.
package subscription

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the subscription ("trials") task queue.
const TaskQueue = "trials"

// WorkflowID is derived from the organisation, so starting it twice is a no-op.
func WorkflowID(orgID string) string { return "subscription/" + orgID }

// Updates and queries.
const (
	// UpdatePlanPurchased carries a PlanRequest and answers the resulting State once it is stored.
	UpdatePlanPurchased = "plan-purchased"
	// UpdatePlanLapsed (no argument) ends a bought plan that was not paid or was cancelled: the
	// organisation goes back to the original plan under the restriction. Answers the State.
	UpdatePlanLapsed = "plan-lapsed"
	QueryState       = "state"
)

// Subscription statuses (organizations.subscription_status).
const (
	StatusNone       = "none"       // not yet started
	StatusTrial      = "trial"      // original customer in the Essential trial
	StatusRestricted = "restricted" // trial over, no plan bought: commission, no new donations
	StatusActive     = "active"     // on a bought plan
)

// Plan constants (organisation-and-account §4, §9).
const (
	PlanOriginal       = "original"
	TrialPlan          = "essential_monthly"
	TrialLength        = 90 * 24 * time.Hour
	CommissionBps      = 350 // 3.5%
	DefaultSweepPeriod = 24 * time.Hour
)

// DefaultReminders are sent this long before the trial ends; the "ended" message goes at the end.
var DefaultReminders = []time.Duration{7 * 24 * time.Hour, 24 * time.Hour}

// E-mail kinds.
const (
	EmailTrialStarted = "trial_started"
	EmailTrialEnding  = "trial_ending"
	EmailTrialEnded   = "trial_ended"
	EmailPlanActive   = "plan_active"
)

// Timing overrides the durations (tests and the replay recording); zero values take the defaults.
type Timing struct {
	TrialLength time.Duration   `json:"trial_length,omitempty"`
	Reminders   []time.Duration `json:"reminders,omitempty"`
	SweepPeriod time.Duration   `json:"sweep_period,omitempty"`
}

func (t Timing) trialLength() time.Duration {
	if t.TrialLength > 0 {
		return t.TrialLength
	}
	return TrialLength
}

func (t Timing) reminders() []time.Duration {
	if len(t.Reminders) > 0 {
		return t.Reminders
	}
	return DefaultReminders
}

func (t Timing) sweepPeriod() time.Duration {
	if t.SweepPeriod > 0 {
		return t.SweepPeriod
	}
	return DefaultSweepPeriod
}

// Input starts the workflow. State is set only when the workflow continues as new.
type Input struct {
	OrganizationID string `json:"organization_id"`
	Timing         Timing `json:"timing,omitempty"`
	State          *State `json:"state,omitempty"`
}

// PlanRequest is the plan-purchased update's argument.
type PlanRequest struct {
	PlanCode string `json:"plan_code"`
	// Lapse (the plan-lapsed update) ends the plan instead of applying one.
	Lapse bool `json:"lapse,omitempty"`
}

// State is the subscription as the workflow knows it (also what the update answers).
type State struct {
	PlanCode       string     `json:"plan_code"`
	Status         string     `json:"status"`
	TrialStartedAt *time.Time `json:"trial_started_at,omitempty"`
	TrialEndsAt    *time.Time `json:"trial_ends_at,omitempty"`
	CommissionBps  int        `json:"commission_bps"`
	Accepting      bool       `json:"accepting_donations"`
	// Sent lists the e-mail keys already queued (reminders are sent once across continue-as-new).
	Sent []string `json:"sent,omitempty"`
}

func (s State) sent(key string) bool {
	for _, k := range s.Sent {
		if k == key {
			return true
		}
	}
	return false
}

// ValidPlanCode reports whether code is a plan an organisation can buy (syntax only; the plans
// table is checked by the API and by ApplyPlan).
func ValidPlanCode(code string) bool {
	return code != "" && code != PlanOriginal && len(code) <= 64
}

// versionCommissionAtCharge (version 1) drops the daily commission sweep of the restriction:
// collection records each commission in the transaction that stores the approved charge. Runs
// recorded before keep sweeping until they continue as new.
const versionCommissionAtCharge = "commission-at-charge"

// maxLoopsBeforeContinue bounds the history: after this many wake-ups the workflow continues as new.
const maxLoopsBeforeContinue = 500

// ActivityOptions: the subscription's database writes and e-mails, retried through an outage of up
// to a day; an unknown plan or organisation fails at once.
var ActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    30 * time.Second,
	ScheduleToCloseTimeout: 24 * time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute,
		NonRetryableErrorTypes: []string{ErrUnknownPlan},
	},
}

// ApplyPlanOptions: a plan change is answered to a caller who waits (PurchasePlan), so it gives up
// within minutes instead of a day; the caller can try again.
var ApplyPlanOptions = func() workflow.ActivityOptions {
	o := ActivityOptions
	o.ScheduleToCloseTimeout = 2 * time.Minute
	return o
}()

// Workflow runs an organisation's subscription for as long as the organisation exists.
func Workflow(ctx workflow.Context, in Input) (State, error) {
	ctx = workflow.WithActivityOptions(ctx, ActivityOptions)
	var a *Activities
	log := workflow.GetLogger(ctx)

	var st State
	// The query and the update are registered before the first activity, so a plan bought right
	// after the start is accepted: the main loop applies it once the subscription has begun.
	if err := workflow.SetQueryHandler(ctx, QueryState, func() (State, error) { return st, nil }); err != nil {
		return st, err
	}

	// Plan requests are queued by the update handler and applied by the main loop, one at a time.
	type pending struct {
		req  PlanRequest
		done bool
		res  State
		err  error
	}
	var queue []*pending
	err := workflow.SetUpdateHandlerWithOptions(ctx, UpdatePlanPurchased,
		func(ctx workflow.Context, req PlanRequest) (State, error) {
			p := &pending{req: req}
			queue = append(queue, p)
			if err := workflow.Await(ctx, func() bool { return p.done }); err != nil {
				return State{}, err
			}
			return p.res, p.err
		},
		workflow.UpdateHandlerOptions{Validator: func(req PlanRequest) error {
			if !ValidPlanCode(req.PlanCode) {
				return temporal.NewApplicationError("unknown plan "+req.PlanCode, ErrUnknownPlan)
			}
			return nil
		}},
	)
	if err != nil {
		return st, err
	}
	err = workflow.SetUpdateHandler(ctx, UpdatePlanLapsed, func(ctx workflow.Context) (State, error) {
		p := &pending{req: PlanRequest{Lapse: true}}
		queue = append(queue, p)
		if err := workflow.Await(ctx, func() bool { return p.done }); err != nil {
			return State{}, err
		}
		return p.res, p.err
	})
	if err != nil {
		return st, err
	}
	if in.State != nil {
		st = *in.State
	} else {
		if err := workflow.ExecuteActivity(ctx, a.Begin, in.OrganizationID, workflow.Now(ctx), in.Timing.trialLength()).Get(ctx, &st); err != nil {
			return st, err
		}
		if st.Status == StatusTrial && !st.sent(EmailTrialStarted+"/"+st.TrialEndsAt.UTC().Format(time.RFC3339)) {
			key := EmailTrialStarted + "/" + st.TrialEndsAt.UTC().Format(time.RFC3339)
			sendEmail(ctx, &st, in.OrganizationID, Email{Key: key, Kind: EmailTrialStarted, TrialEndsAt: *st.TrialEndsAt})
		}
	}
	hasPending := func() bool {
		for _, p := range queue {
			if !p.done {
				return true
			}
		}
		return false
	}
	applyPending := func() {
		for _, p := range queue {
			if p.done {
				continue
			}
			var next State
			var err error
			if p.req.Lapse {
				err = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, ApplyPlanOptions), a.LapsePlan, in.OrganizationID).Get(ctx, &next)
			} else {
				err = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, ApplyPlanOptions), a.ApplyPlan, in.OrganizationID, p.req.PlanCode, workflow.Now(ctx)).Get(ctx, &next)
			}
			if err != nil {
				p.err = err
			} else {
				wasRestricted := st.Status != StatusActive
				next.Sent = st.Sent
				st = next
				if wasRestricted && !p.req.Lapse {
					key := fmt.Sprintf("%s/%s/%d", EmailPlanActive, st.PlanCode, workflow.Now(ctx).Unix())
					sendEmail(ctx, &st, in.OrganizationID, Email{Key: key, Kind: EmailPlanActive, PlanCode: st.PlanCode})
				}
				p.res = st
			}
			p.done = true
		}
	}

	loops := 0
	for {
		loops++
		if loops > maxLoopsBeforeContinue || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) && !hasPending() }); err != nil {
				return st, err
			}
			return st, workflow.NewContinueAsNewError(ctx, Workflow, Input{OrganizationID: in.OrganizationID, Timing: in.Timing, State: &st})
		}
		switch st.Status {
		case StatusTrial:
			at, kind, key := nextTrialEvent(st, in.Timing, workflow.Now(ctx))
			if wait := at.Sub(workflow.Now(ctx)); wait > 0 {
				woke, err := workflow.AwaitWithTimeout(ctx, wait, hasPending)
				if err != nil {
					return st, err
				}
				if woke {
					applyPending()
					continue
				}
			}
			end := *st.TrialEndsAt
			if kind == EmailTrialEnded {
				var next State
				if err := workflow.ExecuteActivity(ctx, a.EndTrial, in.OrganizationID).Get(ctx, &next); err != nil {
					return st, err
				}
				next.Sent = st.Sent
				st = next
			}
			if st.Status == StatusActive { // a plan was stored while the trial ended
				continue
			}
			sendEmail(ctx, &st, in.OrganizationID, Email{Key: key, Kind: kind, TrialEndsAt: end})
		case StatusRestricted:
			// From versionCommissionAtCharge on, collection records the commission with each
			// approved charge and only a plan purchase ends the restriction (the default case).
			if workflow.GetVersion(ctx, versionCommissionAtCharge, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
				// Runs recorded before: the commission on the approved charges since the trial
				// ended, swept every period.
				woke, err := workflow.AwaitWithTimeout(ctx, in.Timing.sweepPeriod(), hasPending)
				if err != nil {
					return st, err
				}
				if woke {
					applyPending()
					continue
				}
				if err := workflow.ExecuteActivity(ctx, a.RecordCommissions, in.OrganizationID).Get(ctx, nil); err != nil {
					log.Error("recording commissions failed", "error", err)
				}
				continue
			}
			fallthrough
		default:
			if err := workflow.Await(ctx, hasPending); err != nil {
				return st, err
			}
			applyPending()
		}
	}
}

// nextTrialEvent is the next message of the trial: a reminder not yet sent, or the end. A reminder
// whose successor is already due (the worker was down, or a trial shorter than the reminder) is
// skipped rather than sent late.
func nextTrialEvent(st State, t Timing, now time.Time) (time.Time, string, string) {
	end := *st.TrialEndsAt
	type event struct {
		at        time.Time
		kind, key string
	}
	var events []event
	for _, before := range t.reminders() {
		key := fmt.Sprintf("%s/%s/%d", EmailTrialEnding, end.UTC().Format(time.RFC3339), int64(before/time.Minute))
		events = append(events, event{end.Add(-before), EmailTrialEnding, key})
	}
	events = append(events, event{end, EmailTrialEnded, EmailTrialEnded + "/" + end.UTC().Format(time.RFC3339)})
	for i, e := range events {
		if st.sent(e.key) {
			continue
		}
		if i+1 < len(events) && !events[i+1].at.After(now) {
			continue
		}
		return e.at, e.kind, e.key
	}
	last := events[len(events)-1]
	return last.at, last.kind, last.key
}

// sendEmail queues a message once; a failure is logged (the subscription goes on) and the key is
// still marked sent so a broken mailbox does not stall the trial.
func sendEmail(ctx workflow.Context, st *State, orgID string, e Email) {
	var a *Activities
	if err := workflow.ExecuteActivity(ctx, a.EmailAdministrators, orgID, e).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("subscription e-mail failed", "key", e.Key, "error", err)
	}
	st.Sent = append(st.Sent, e.Key)
}
