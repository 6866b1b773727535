// Package collection charges monthly donations: one entity workflow per donation ("donation/<uuid>")
// charges each period on the collect day in the organisation's timezone, retries a failed period on
// a fixed schedule, pauses the donation with the spec's reason when it must, and applies the
// changes the API sends as Temporal updates. Activities are idempotent per donation and period.
package collection

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/aporta/aporta/internal/collectday"
)

// Queries and updates.
const (
	QueryState          = "state"
	UpdatePause         = "pause"
	UpdateRestore       = "restore"
	UpdateDiscard       = "discard"
	UpdateCollectNow    = "collect-now"
	UpdateChangeAmount  = "change-amount"
	UpdateChangeMethod  = "change-payment-method"
	UpdateSetUpgrade    = "set-upgrade"
	UpdateRemoveUpgrade = "remove-upgrade"
	UpdateCollectDay    = "change-collect-day"
)

// ActorSystem signs the changes the workflow makes itself (automatic pauses, upgrades).
const ActorSystem = "system"

// ActorDonorPrefix starts the actor of a change the donor made in the donor portal:
// "donor:<donor uuid>".
const ActorDonorPrefix = "donor:"

// MaxPauseMonths is the longest pause that ends on its own.
const MaxPauseMonths = 3

// CardReasons are the paused reasons another card fixes: a donor who changes the card in the
// portal retries the period at once (see retryDue), and the decline e-mail asks them to.
var CardReasons = []string{
	PausedCardExpired, "cc_invalid_number", "cc_missing_security_code", "last_transaction_card_cancelled",
	"payment_method_invalid", PausedPaymentMethodMissing, "payment_method_not_supported",
}

// RetrySchedule is when a period's charge is attempted, counted from its charge date (or from a
// collect-now): day 0, +1, +3, +7. Four attempts, and then the period is recorded as not approved.
//
// Why: most soft declines (insufficient funds, issuer unavailable, "call for authorise") clear
// within days, often after the donor's pay day, so spacing the attempts over a week recovers more
// than retrying in a burst. Card networks cap re-attempts of a declined card (Visa: at most 15 in
// 30 days per card and merchant, and fees for excess; Mastercard flags excessive retries through
// its merchant-advice codes); four attempts a month stays far below both, and all of them end
// before the next period's charge date (+7 days < 28 days). Hard declines (a gateway PausedReason:
// stolen, charge back, card cancelled, high risk, invalid number, missing code, method invalid or
// not supported) are never retried: the donation pauses at once.
var RetrySchedule = []time.Duration{0, 24 * time.Hour, 3 * 24 * time.Hour, 7 * 24 * time.Hour}

// While the organisation's gateway connection is missing or needs reconnecting, a due attempt
// waits: it is tried again every GatewayPoll (nothing is charged meanwhile, so no period is lost or
// doubled) and the period's schedule starts when the connection is back. After GatewayGrace the
// donation pauses with gateway_disconnected.
const (
	GatewayPoll  = time.Hour
	GatewayGrace = 7 * 24 * time.Hour
)

// Change requests. Actor is the user id (or "api") the version history records.
type (
	PauseRequest struct {
		Actor  string `json:"actor"`
		Reason string `json:"reason"`
		// Months, 1 to MaxPauseMonths, ends the pause on its own after that many months; 0 pauses
		// until restored.
		Months int `json:"months,omitempty"`
	}
	RestoreRequest struct {
		Actor string `json:"actor"`
	}
	DiscardRequest struct {
		Actor  string `json:"actor"`
		Reason string `json:"reason"`
	}
	CollectNowRequest struct {
		Actor string `json:"actor"`
	}
	ChangeAmountRequest struct {
		Actor  string `json:"actor"`
		Amount int64  `json:"amount"` // minor units of the donation's currency
	}
	ChangePaymentMethodRequest struct {
		Actor         string        `json:"actor"`
		PaymentMethod PaymentMethod `json:"payment_method"`
		// RetryDue retries the due period with the new card at once: the next attempt of a period
		// whose retries run, or the period a card decline paused the donation in (see retryDue).
		RetryDue bool `json:"retry_due,omitempty"`
	}
	// SetUpgradeRequest adds the periodic increase, or edits it when ID matches the current one.
	SetUpgradeRequest struct {
		Actor        string `json:"actor"`
		ID           string `json:"id"`
		BasisPoints  int64  `json:"basis_points"`
		PeriodMonths int    `json:"period_months"`
		Auto         bool   `json:"auto"`
		// NextPeriod is the first period charged with the increase; zero means PeriodMonths after
		// the next period to charge.
		NextPeriod collectday.Period `json:"next_period,omitzero"`
		// MaxAmount caps the increased amount: the campaign's and gateway's largest donation.
		MaxAmount int64 `json:"max_amount,omitempty"`
	}
	RemoveUpgradeRequest struct {
		Actor string `json:"actor"`
		ID    string `json:"id"`
	}
	ChangeCollectDayRequest struct {
		Actor      string         `json:"actor"`
		CollectDay collectday.Day `json:"collect_day"` // 1–31, or collectday.Last (0)
	}
)

// Errors the validators answer with, so the API can map them.
var (
	ErrDiscarded     = errors.New("collection: the donation is discarded")
	ErrNotPaused     = errors.New("collection: the donation is not paused")
	ErrNotActive     = errors.New("collection: the donation is not active")
	ErrInvalidReason = errors.New("collection: unknown paused reason")
	ErrInvalidInput  = errors.New("collection: invalid input")
	// ErrChargeInProgress refuses collect-now while a charge is running or already requested.
	ErrChargeInProgress = errors.New("collection: a charge is in progress")
	// ErrNotDue refuses collect-now when the next unpaid period is a future month: collect-now
	// charges the period that is due (or overdue) early or again, never the ones ahead of it.
	ErrNotDue = errors.New("collection: the next period is not due yet")
)

const (
	versionRetrySchedule = "retry-schedule"
	// chargesPerRun bounds the history: after a year of periods the workflow continues as new.
	chargesPerRun = 12
)

// donation is one run of the workflow.
type donation struct {
	ctx  workflow.Context
	st   *State
	loc  *time.Location
	acts *Activities
	// collectNow is set by the collect-now update and consumed by the charge loop.
	collectNow bool
	// changes counts state changes so waits wake up on any of them.
	changes int
	// charging is true while a charge activity runs; collect-now is refused then.
	charging bool
	// loaded is set once st and loc hold the donation; update handlers registered before wait for it.
	loaded bool
	// syncing is true while a SyncDonation runs (see sync).
	syncing bool
	// retrying is true while a period's attempts run (chargePeriod); retryNow, set by a new card
	// then, makes the next attempt happen at once (consumed by chargePeriod only, unlike collectNow).
	retrying, retryNow bool
	notices            *Notices
}

// withActivityOptions sets the options of the bookkeeping activities (loads, row syncs, versions):
// short, and retried while the database is down for up to BookkeepingRetryLimit (a sync or version
// that gives up is logged, and the next sync writes the whole row again; a load that gives up
// fails the run, visibly). From versionHeartbeat 1 on they also carry a
// heartbeat timeout (the activities heartbeat while they run, see keepAlive), so an attempt lost
// with its worker (killed, OOM, host gone) is retried within seconds instead of after the
// start-to-close timeout. From version 2 on they run as local activities (see bookkeeping), and
// from version 3 on a charged period needs none of its own (see versionFoldedBookkeeping).
func withActivityOptions(ctx workflow.Context) workflow.Context {
	retry := &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute}
	opts := workflow.ActivityOptions{StartToCloseTimeout: time.Minute, ScheduleToCloseTimeout: BookkeepingRetryLimit, RetryPolicy: retry}
	if heartbeats(ctx) {
		opts.HeartbeatTimeout = ActivityHeartbeatTimeout
	}
	ctx = workflow.WithActivityOptions(ctx, opts)
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: time.Minute, ScheduleToCloseTimeout: BookkeepingRetryLimit, RetryPolicy: retry})
}

// BookkeepingRetryLimit caps a bookkeeping activity's retries. (A charge has its own cap, a day of
// read-backs with the same idempotency key: see collect.)
const BookkeepingRetryLimit = 24 * time.Hour

// ActivityHeartbeatTimeout is how long the server waits without a heartbeat before it retries an
// activity on another worker. The activities heartbeat every ActivityHeartbeatTimeout/5.
const ActivityHeartbeatTimeout = 5 * time.Second

// versionHeartbeat versions how activities run. Version 1 adds HeartbeatTimeout to every
// activity; version 2 runs the bookkeeping ones as local activities; version 3 folds a donation's
// first load and sync into one (OpenDonation) and lets the charge activity write the row of an
// approved period (ChargeRequest.SyncOnApproval), so a run's first charge costs the charge and one
// local activity instead of three (deploy/benchcollect). Runs recorded before keep what they were
// scheduled with. The version is recorded once per run (a marker), the first time any code path asks.
// Version 4 records no marker of its own for the retry schedule (see scheduleVersion). Version 5
// tries each charge attempt first as a local activity (see charge).
const (
	versionHeartbeat         = "activity-heartbeat"
	versionLocalBookkeeping  = 2
	versionFoldedBookkeeping = 3
	versionOneMarker         = 4
	versionLocalCharge       = 5
)

func activitiesVersion(ctx workflow.Context) workflow.Version {
	return workflow.GetVersion(ctx, versionHeartbeat, workflow.DefaultVersion, versionLocalCharge)
}

// foldsBookkeeping says whether this run's first load syncs the row itself and its charges write the
// row of an approved period.
func foldsBookkeeping(ctx workflow.Context) bool {
	return activitiesVersion(ctx) >= versionFoldedBookkeeping
}

// heartbeats says whether this run's activities are scheduled with a heartbeat timeout.
func heartbeats(ctx workflow.Context) bool { return activitiesVersion(ctx) >= 1 }

// bookkeeping runs a short database activity (load, sync, version, upgrade removal). From
// versionLocalBookkeeping on it is a local activity: the worker runs it within the workflow task
// that asked for it and records a marker, instead of a round trip through the server's task
// queues and a new workflow task per activity, which was most of what a charged period cost the
// server (deploy/benchcollect). They are idempotent, so a worker lost mid-task reruns them
// harmlessly. (A charge attempt has its long retries as a regular activity: see charge.)
func (d *donation) bookkeeping(ctx workflow.Context, activity any, args ...any) workflow.Future {
	if activitiesVersion(ctx) >= versionLocalBookkeeping {
		return workflow.ExecuteLocalActivity(ctx, activity, args...)
	}
	return workflow.ExecuteActivity(ctx, activity, args...)
}

// Workflow is the donation's entity workflow.
func Workflow(ctx workflow.Context, in Input) (State, error) {
	ctx = withActivityOptions(ctx)
	d := &donation{ctx: ctx}
	// The state query and the updates are registered before anything else, so the API can send a
	// change right after the start: the query answers the ids until the donation is loaded, and
	// the update handlers wait for it (see handle).
	if err := workflow.SetQueryHandler(ctx, QueryState, func() (State, error) {
		if d.st == nil {
			return State{OrganizationID: in.OrganizationID, DonationID: in.DonationID}, nil
		}
		return *d.st, nil
	}); err != nil {
		return State{}, err
	}
	if err := d.register(); err != nil {
		return State{}, err
	}
	opened := in.State == nil && foldsBookkeeping(ctx)
	switch {
	case in.State != nil:
		st := *in.State
		d.st = &st
	case opened:
		// Loaded, its next charge date set and written in one local activity.
		var st State
		open := OpenRequest{OrganizationID: in.OrganizationID, DonationID: in.DonationID, Now: workflow.Now(ctx)}
		if err := d.bookkeeping(ctx, d.acts.OpenDonation, open).Get(ctx, &st); err != nil {
			return State{}, err
		}
		d.st = &st
	default:
		var snap Snapshot
		if err := d.bookkeeping(ctx, d.acts.LoadDonation, in.OrganizationID, in.DonationID).Get(ctx, &snap); err != nil {
			return State{}, err
		}
		d.st = snap.state()
	}
	if in.State == nil {
		if d.st.MaxFailedPeriods = in.MaxFailedPeriods; d.st.MaxFailedPeriods <= 0 {
			d.st.MaxFailedPeriods = DefaultMaxFailedPeriods
		}
	}
	loc, err := location(d.st.Timezone)
	if err != nil {
		return *d.st, temporal.NewNonRetryableApplicationError("timezone "+d.st.Timezone, "invalid_timezone", err)
	}
	d.loc = loc
	if d.st.NextPeriod.IsZero() {
		d.st.NextPeriod = d.st.CollectDay.First(workflow.Now(ctx), loc)
	}
	d.st.NextChargeDate = d.st.CollectDay.Date(d.st.NextPeriod, loc)
	d.loaded = true
	if in.State == nil && !opened {
		d.sync(ctx)
	}
	return d.run()
}

func (d *donation) run() (State, error) {
	ctx, st := d.ctx, d.st
	charged := 0
	for {
		switch st.Status {
		case StatusDiscarded:
			return d.finish(nil)
		case StatusPaused:
			if err := d.awaitResume(); err != nil {
				return *st, err
			}
			continue
		}

		due := st.CollectDay.Date(st.NextPeriod, d.loc)
		seen := d.changes
		fired, err := workflow.AwaitWithTimeout(ctx, due.Sub(workflow.Now(ctx)), func() bool {
			return d.collectNow || d.changes != seen
		})
		if err != nil {
			return *st, err
		}
		if !fired || d.collectNow {
			if st.Status != StatusActive {
				continue
			}
			d.collectNow = false
			d.chargePeriod(st.NextPeriod)
			charged++
		}
		if charged >= chargesPerRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			return d.finish(workflow.NewContinueAsNewError(ctx, Workflow, Input{
				OrganizationID: st.OrganizationID, DonationID: st.DonationID, State: st,
			}))
		}
	}
}

// awaitResume waits while the donation is paused: until a restore, or, for a pause of some months,
// until it ends on its own. (Only pauses with months set a timer, so the runs recorded before them
// replay unchanged.)
func (d *donation) awaitResume() error {
	ctx, st := d.ctx, d.st
	if st.ResumeAt.IsZero() {
		return workflow.Await(ctx, func() bool { return st.Status != StatusPaused })
	}
	changed, err := workflow.AwaitWithTimeout(ctx, st.ResumeAt.Sub(workflow.Now(ctx)), func() bool { return st.Status != StatusPaused })
	if err != nil || changed || st.Status != StatusPaused {
		return err
	}
	d.restore(ctx, ActorSystem)
	return nil
}

// finish lets running update handlers complete before the run ends or continues as new.
func (d *donation) finish(next error) (State, error) {
	if err := workflow.Await(d.ctx, func() bool { return workflow.AllHandlersFinished(d.ctx) }); err != nil {
		return *d.st, err
	}
	return *d.st, next
}

// chargePeriod runs the retry schedule for one period and settles it.
func (d *donation) chargePeriod(p collectday.Period) {
	ctx, st := d.ctx, d.st
	logger := workflow.GetLogger(ctx)
	d.scheduleVersion()
	schedule := RetrySchedule

	start := workflow.Now(ctx)
	if st.PaymentMethod.CardID == "" {
		d.autoPause(ctx, PausedPaymentMethodMissing)
		return
	}
	if CardExpired(st.PaymentMethod.ExpiryMonth, st.PaymentMethod.ExpiryYear, start.In(d.loc)) {
		d.autoPause(ctx, PausedCardExpired)
		return
	}
	d.applyUpgrade(ctx, p)

	result := PeriodResult{Period: p, Amount: st.Amount}
	var waiting time.Time // since when the attempt waits for the gateway connection
	var synced *State     // what the approving charge activity wrote to the row (SyncOnApproval)
	// A period the donor's new card retries goes on from its last attempt (see retryDue); every
	// other period starts at attempt 1.
	first := max(st.RetryAttempt, 1)
	st.RetryAttempt = 0
	last := first + len(schedule) - 1
	d.retrying = true
	defer func() { d.retrying, d.retryNow = false, false }()
	for attempt := first; attempt <= last; attempt++ {
		if attempt > first {
			seen := d.changes
			at := start.Add(schedule[attempt-first])
			if _, err := workflow.AwaitWithTimeout(ctx, at.Sub(workflow.Now(ctx)), func() bool {
				return d.collectNow || d.retryNow || (d.changes != seen && st.Status != StatusActive)
			}); err != nil {
				return
			}
			d.collectNow, d.retryNow = false, false
			if st.Status != StatusActive {
				// Paused or discarded between attempts: the period ends here, unpaid.
				break
			}
			if CardExpired(st.PaymentMethod.ExpiryMonth, st.PaymentMethod.ExpiryYear, workflow.Now(ctx).In(d.loc)) {
				d.autoPause(ctx, PausedCardExpired)
				break
			}
		}
		req := ChargeRequest{
			OrganizationID: st.OrganizationID, DonationID: st.DonationID, Period: p.String(), Attempt: attempt,
			Amount: st.Amount, Currency: st.Currency, Email: st.Email, PaymentMethod: st.PaymentMethod,
		}
		if foldsBookkeeping(ctx) && workflow.AllHandlersFinished(ctx) && !d.syncing {
			// Only while nothing else may write the row: an update's sync in flight could land
			// after the charge's, with the state from before the approval. (An update that comes
			// in while it charges is seen below, and the workflow then writes the row itself.)
			req.SyncOnApproval = d.approvedState(p)
		}
		d.charging = true
		changes := d.changes
		res, err := d.charge(ctx, req)
		d.charging = false
		if err == nil && res.GatewayMissing {
			if waiting.IsZero() {
				waiting = workflow.Now(ctx)
			}
			if workflow.Now(ctx).Sub(waiting) >= GatewayGrace {
				d.autoPause(ctx, PausedGatewayDisconnected)
				return
			}
			seen := d.changes
			if _, err := workflow.AwaitWithTimeout(ctx, GatewayPoll, func() bool {
				return d.changes != seen && st.Status != StatusActive
			}); err != nil {
				return
			}
			if st.Status != StatusActive {
				break
			}
			attempt-- // the same attempt again, its schedule counted from when the gateway is back
			start = workflow.Now(ctx)
			continue
		}
		waiting = time.Time{}
		if err != nil {
			// Not even the read-back could tell what happened; the next attempt reads every earlier
			// attempt back before charging, so a late approval is found, never doubled.
			logger.Error("charge failed", "period", p.String(), "attempt", attempt, "error", err)
			res = ChargeResult{Status: "non_existant", Attempt: attempt}
		}
		result.Attempts, result.Status, result.PaymentID = res.Attempt, res.Status, res.PaymentID
		if res.Approved() {
			result.Approved = true
			if res.Synced && d.changes == changes {
				// No change came in while it charged: the row it wrote is the state below, unless the
				// month turned meanwhile (compared at the end).
				synced = req.SyncOnApproval
			}
			break
		}
		if res.PausedReason != "" {
			st.addResult(result)
			d.autoPause(ctx, res.PausedReason)
			d.noticeDecline(p, res, true, true)
			return
		}
		if attempt == first || attempt == last-1 {
			// The first decline, and the one before the last retry: the donor may fix it.
			d.noticeDecline(p, res, false, attempt == last-1)
		}
	}
	st.addResult(result)
	if result.Approved {
		st.ConsecutiveFailed = 0
	} else if result.Attempts > 0 {
		st.ConsecutiveFailed++
	}
	st.NextPeriod = d.periodAfter(p)
	st.NextChargeDate = st.CollectDay.Date(st.NextPeriod, d.loc)
	if st.Status == StatusActive && st.ConsecutiveFailed >= st.MaxFailedPeriods {
		d.autoPause(ctx, PausedLastXMonths)
		return
	}
	if synced != nil && synced.row() == st.row() {
		return
	}
	d.sync(ctx)
}

// LocalChargeTimeout bounds a charge attempt's local try (see charge): longer than a charge takes
// with a gateway that answers (its requests, the read-backs and the record), short enough that a hung
// gateway holds the workflow task (heartbeated by the SDK every 8 s of the 10 s task timeout) for a
// few heartbeats only before the attempt goes on as a regular activity.
const LocalChargeTimeout = 30 * time.Second

// charge runs one charge attempt. From versionLocalCharge on it is tried first as a local
// activity, once: the worker charges within the workflow task that decided to (the one that opened
// the donation, or the one its timer woke) and records a marker, with no activity task and no second
// workflow task, so a charged period costs the server less than a workflow of one no-op activity
// (deploy/benchcollect). Whatever that try cannot settle (an error, an outcome the read-back cannot
// find yet, a timeout) goes on as the regular activity with a day of retries, as before version 5.
// Either way the attempt charges once: the activity reads the attempt back by its key before
// charging and charges under the same idempotency key (see Activities.Charge), so a worker that dies
// mid-charge (the workflow task is then retried and the local try runs again elsewhere), a local try
// that timed out while its request was in flight, and the activity after it all find or repeat the
// same payment. While it runs, updates wait for the workflow task to end (or for the SDK's
// heartbeat of the task, when the charge is slow), and then find d.charging set as before.
func (d *donation) charge(ctx workflow.Context, req ChargeRequest) (ChargeResult, error) {
	var res ChargeResult
	if activitiesVersion(ctx) >= versionLocalCharge {
		lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout: LocalChargeTimeout, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
		err := workflow.ExecuteLocalActivity(lctx, d.acts.Charge, req).Get(ctx, &res)
		if err == nil {
			return res, nil
		}
		workflow.GetLogger(ctx).Warn("local charge not settled, charging as an activity",
			"period", req.Period, "attempt", req.Attempt, "error", err)
		res = ChargeResult{}
	}
	opts := workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Minute,
		// An unknown outcome that the read-back cannot settle is retried with the same
		// idempotency key for up to a day; the gateway answers the first payment if there was one.
		ScheduleToCloseTimeout: 24 * time.Hour,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: 5 * time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Minute,
		},
	}
	if heartbeats(ctx) {
		// A charge whose worker died mid-flight is retried after seconds, not two minutes;
		// the retry reads the attempt back by its key before charging, so it never doubles.
		opts.HeartbeatTimeout = ActivityHeartbeatTimeout
		opts.RetryPolicy.InitialInterval = time.Second
	}
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), d.acts.Charge, req).Get(ctx, &res)
	return res, err
}

// scheduleVersion records the retry schedule's version in runs before versionOneMarker. The schedule
// is the part most likely to change: runs from versionOneMarker on record no marker for it (each
// marker is an event and an update of the workflow's search attributes, which the server indexes),
// so there its version reads as workflow.DefaultVersion, which means RetrySchedule as 1 does. A new
// schedule asks GetVersion(ctx, versionRetrySchedule, workflow.DefaultVersion, 2) in every run and
// keeps RetrySchedule below 2.
func (d *donation) scheduleVersion() {
	if activitiesVersion(d.ctx) < versionOneMarker {
		_ = workflow.GetVersion(d.ctx, versionRetrySchedule, workflow.DefaultVersion, 1)
	}
}

// periodAfter is the period to charge after p is settled. A period left far behind (a worker down
// for months) is not charged late: it resumes at the current month, or the next one if this month's
// day has passed.
func (d *donation) periodAfter(p collectday.Period) collectday.Period {
	now := workflow.Now(d.ctx)
	if next := p.Next(); !next.Before(collectday.PeriodOf(now.In(d.loc))) {
		return next
	}
	return d.st.CollectDay.First(now, d.loc)
}

// approvedState is the donation's state once period p is approved, for the charge activity to write
// to the row (ChargeRequest.SyncOnApproval); nil with an upgrade, whose rows the workflow writes.
func (d *donation) approvedState(p collectday.Period) *State {
	if d.st.Upgrade != nil {
		return nil
	}
	s := *d.st
	s.Recent = nil
	s.ConsecutiveFailed = 0
	s.NextPeriod = d.periodAfter(p)
	s.NextChargeDate = s.CollectDay.Date(s.NextPeriod, d.loc)
	return &s
}

// applyUpgrade raises the amount when the upgrade is due for period p.
func (d *donation) applyUpgrade(ctx workflow.Context, p collectday.Period) {
	st := d.st
	u := st.Upgrade
	if u == nil || !u.Auto || p.Before(u.NextPeriod) {
		return
	}
	before := st.Amount
	for !p.Before(u.NextPeriod) {
		old := st.Amount
		st.Amount = IncreaseAmount(old, u.BasisPoints, u.MaxAmount)
		u.OldAmount, u.NewAmount = old, st.Amount
		u.History = append(u.History, UpgradeApplied{Period: u.NextPeriod, OldAmount: old, NewAmount: st.Amount})
		if len(u.History) > 12 {
			u.History = slices.Clone(u.History[len(u.History)-12:])
		}
		u.NextPeriod = u.NextPeriod.AddMonths(u.PeriodMonths)
	}
	d.record(ctx, ActorSystem, "amount", before, st.Amount)
	d.record(ctx, ActorSystem, "upgrade", nil, u)
	d.sync(ctx)
}

func (d *donation) autoPause(ctx workflow.Context, reason string) {
	d.pause(ctx, ActorSystem, reason)
}

func (d *donation) pause(ctx workflow.Context, actor, reason string) {
	d.pauseFor(ctx, actor, reason, 0)
}

// pauseFor pauses the donation; months > 0 ends the pause on its own that many months from now.
func (d *donation) pauseFor(ctx workflow.Context, actor, reason string, months int) {
	st := d.st
	before := st.Status
	st.Status, st.PausedReason, st.PausedSince = StatusPaused, reason, workflow.Now(ctx)
	st.ResumeAt = time.Time{}
	after := map[string]string{"status": StatusPaused, "paused_reason": reason}
	if months > 0 {
		st.ResumeAt = workflow.Now(ctx).AddDate(0, months, 0)
		after["resume_on"] = st.ResumeAt.In(d.loc).Format(time.DateOnly)
	}
	d.changes++
	d.record(ctx, actor, "status", map[string]string{"status": before}, after)
	d.sync(ctx)
}

// restore makes a paused donation active again; it is charged from the next period, never the
// current one.
func (d *donation) restore(ctx workflow.Context, actor string) {
	st := d.st
	reason := st.PausedReason
	st.Status, st.PausedReason, st.PausedSince, st.ResumeAt = StatusActive, "", time.Time{}, time.Time{}
	st.ConsecutiveFailed = 0
	now := workflow.Now(ctx).In(d.loc)
	if next := collectday.PeriodOf(now).Next(); st.NextPeriod.Before(next) {
		st.NextPeriod = next
	}
	st.NextChargeDate = st.CollectDay.Date(st.NextPeriod, d.loc)
	d.changes++
	d.record(ctx, actor, "status", map[string]string{"status": StatusPaused, "paused_reason": reason},
		map[string]string{"status": StatusActive})
	d.sync(ctx)
}

// retryDue charges the due period again with the card the donor just gave, at once and under new
// attempt keys (each attempt reads the earlier ones back, so a period is never charged twice):
//   - while the period's retries run, the next attempt happens now instead of on its schedule;
//   - when a card decline paused the donation in the current period (CardReasons), the donation
//     is active again and the period's charge goes on from its next attempt.
//
// A pause for any other reason, or from an earlier month, stays as it is: restoring is the
// organisation's call, or the donor's by the portal's restore.
func (d *donation) retryDue(ctx workflow.Context, actor string) {
	st := d.st
	switch {
	case st.Status == StatusActive && d.retrying:
		d.retryNow = true
	case st.Status == StatusPaused && slices.Contains(CardReasons, st.PausedReason) &&
		!st.NextPeriod.Before(collectday.PeriodOf(workflow.Now(ctx).In(d.loc))):
		reason := st.PausedReason
		st.Status, st.PausedReason, st.PausedSince, st.ResumeAt = StatusActive, "", time.Time{}, time.Time{}
		st.RetryAttempt = 1
		if n := len(st.Recent); n > 0 && st.Recent[n-1].Period == st.NextPeriod {
			st.RetryAttempt = st.Recent[n-1].Attempts + 1
		}
		d.collectNow = true
		d.record(ctx, actor, "status", map[string]string{"status": StatusPaused, "paused_reason": reason},
			map[string]string{"status": StatusActive})
	default:
		return
	}
	d.changes++
}

// record writes a version-history row; the id comes from a side effect so a replay reuses it and
// the insert is a no-op on activity retries.
func (d *donation) record(ctx workflow.Context, actor, field string, before, after any) {
	var id string
	_ = workflow.SideEffect(ctx, func(workflow.Context) any { return uuid.NewString() }).Get(&id)
	v := Version{
		ID: id, OrganizationID: d.st.OrganizationID, DonationID: d.st.DonationID,
		Actor: actor, Field: field, Before: before, After: after, At: workflow.Now(ctx),
	}
	if err := d.bookkeeping(ctx, d.acts.RecordVersion, v).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("version history", "field", field, "error", err)
	}
}

// sync writes the workflow's view of the donation to its row (status, amount, next charge date…).
func (d *donation) sync(ctx workflow.Context) {
	if activitiesVersion(ctx) >= versionLocalBookkeeping {
		// One sync at a time, its snapshot taken once it may run: two in flight (the main loop's
		// and an update's) could land out of order and leave the row with the older state.
		// (Runs recorded before version 2 keep their order of commands.)
		if err := workflow.Await(ctx, func() bool { return !d.syncing }); err != nil {
			return
		}
		d.syncing = true
		defer func() { d.syncing = false }()
	}
	snap := *d.st
	snap.Recent = nil
	if err := d.bookkeeping(ctx, d.acts.SyncDonation, snap).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("sync donation", "error", err)
	}
}

// handle registers update name. check validates a request: it is the update's validator, and it
// runs again in the handler when the update was accepted before the donation was loaded (the
// validator then could only check the input, see notDiscarded). apply makes the change.
func handle[R any](d *donation, name string, check func(R) error, apply func(workflow.Context, R)) error {
	return workflow.SetUpdateHandlerWithOptions(d.ctx, name, func(hctx workflow.Context, r R) (State, error) {
		if !d.loaded {
			if err := workflow.Await(hctx, func() bool { return d.loaded }); err != nil {
				return State{}, err
			}
			if err := check(r); err != nil {
				return *d.st, err
			}
		}
		apply(withActivityOptions(hctx), r)
		return *d.st, nil
	}, workflow.UpdateHandlerOptions{Validator: check})
}

// stateIs wraps the checks that need the donation: before it is loaded they pass, and the
// handler runs them once it is.
func (d *donation) stateIs(check func(st *State) error) error {
	if !d.loaded {
		return nil
	}
	return check(d.st)
}

func (d *donation) notDiscarded() error {
	return d.stateIs(func(st *State) error {
		if st.Status == StatusDiscarded {
			return ErrDiscarded
		}
		return nil
	})
}

// register installs the update handlers with their validators.
func (d *donation) register() error {
	return errors.Join(
		handle(d, UpdatePause, func(r PauseRequest) error {
			if !slices.Contains(PausedReasons, r.Reason) {
				return fmt.Errorf("%w: %q", ErrInvalidReason, r.Reason)
			}
			if r.Months < 0 || r.Months > MaxPauseMonths {
				return fmt.Errorf("%w: a pause lasts 1 to %d months", ErrInvalidInput, MaxPauseMonths)
			}
			return d.stateIs(func(st *State) error {
				if st.Status != StatusActive {
					return ErrNotActive
				}
				return nil
			})
		}, func(ctx workflow.Context, r PauseRequest) {
			d.pauseFor(ctx, actorOr(r.Actor), r.Reason, r.Months)
		}),
		handle(d, UpdateRestore, func(RestoreRequest) error {
			return d.stateIs(func(st *State) error {
				if st.Status != StatusPaused {
					return ErrNotPaused
				}
				return nil
			})
		}, func(ctx workflow.Context, r RestoreRequest) {
			d.restore(ctx, actorOr(r.Actor))
		}),
		handle(d, UpdateDiscard, func(DiscardRequest) error { return d.notDiscarded() },
			func(ctx workflow.Context, r DiscardRequest) {
				st := d.st
				before := st.Status
				st.Status, st.DiscardReason, st.DiscardedAt = StatusDiscarded, r.Reason, workflow.Now(ctx)
				d.changes++
				d.record(ctx, actorOr(r.Actor), "status", map[string]string{"status": before},
					map[string]string{"status": StatusDiscarded, "discard_reason": r.Reason})
				d.sync(ctx)
			}),
		handle(d, UpdateCollectNow, func(CollectNowRequest) error {
			return d.stateIs(func(st *State) error {
				if st.Status != StatusActive {
					return ErrNotActive
				}
				if d.charging || d.collectNow {
					return ErrChargeInProgress
				}
				// Every period before NextPeriod is settled; NextPeriod itself is due from the first
				// day of its month in the organisation's timezone.
				if collectday.PeriodOf(workflow.Now(d.ctx).In(d.loc)).Before(st.NextPeriod) {
					return ErrNotDue
				}
				return nil
			})
		}, func(ctx workflow.Context, r CollectNowRequest) {
			d.collectNow = true
			d.changes++
			d.record(ctx, actorOr(r.Actor), "collect_now", nil, map[string]string{"period": d.st.NextPeriod.String()})
		}),
		handle(d, UpdateChangeAmount, func(r ChangeAmountRequest) error {
			if r.Amount <= 0 {
				return fmt.Errorf("%w: amount must be positive", ErrInvalidInput)
			}
			return d.notDiscarded()
		}, func(ctx workflow.Context, r ChangeAmountRequest) {
			st := d.st
			before := st.Amount
			st.Amount = r.Amount
			if st.Upgrade != nil {
				st.Upgrade.OldAmount = r.Amount
			}
			d.changes++
			d.record(ctx, actorOr(r.Actor), "amount", before, r.Amount)
			d.sync(ctx)
		}),
		handle(d, UpdateChangeMethod, func(r ChangePaymentMethodRequest) error {
			if err := r.PaymentMethod.validate(); err != nil {
				return fmt.Errorf("%w: %v", ErrInvalidInput, err)
			}
			return d.notDiscarded()
		}, func(ctx workflow.Context, r ChangePaymentMethodRequest) {
			before := d.st.PaymentMethod
			d.st.PaymentMethod = r.PaymentMethod
			d.changes++
			d.record(ctx, actorOr(r.Actor), "payment_method", before, r.PaymentMethod)
			if r.RetryDue {
				d.retryDue(ctx, actorOr(r.Actor))
			}
			d.sync(ctx)
		}),
		handle(d, UpdateSetUpgrade, func(r SetUpgradeRequest) error {
			switch {
			case r.ID == "":
				return fmt.Errorf("%w: upgrade id is required", ErrInvalidInput)
			case r.BasisPoints <= 0 || r.BasisPoints > 100_000:
				return fmt.Errorf("%w: percentage must be above 0 and at most 1000", ErrInvalidInput)
			case !slices.Contains(UpgradePeriods, r.PeriodMonths):
				return fmt.Errorf("%w: period must be 1, 2, 3, 4, 6 or 12 months", ErrInvalidInput)
			}
			return d.notDiscarded()
		}, func(ctx workflow.Context, r SetUpgradeRequest) {
			st := d.st
			var before any
			u := &Upgrade{ID: r.ID}
			if st.Upgrade != nil && st.Upgrade.ID == r.ID {
				prev := *st.Upgrade
				before = prev
				u.History = prev.History
			}
			u.BasisPoints, u.PeriodMonths, u.Auto, u.MaxAmount = r.BasisPoints, r.PeriodMonths, r.Auto, r.MaxAmount
			u.NextPeriod = r.NextPeriod
			if u.NextPeriod.IsZero() {
				u.NextPeriod = st.NextPeriod.AddMonths(r.PeriodMonths)
			}
			u.OldAmount, u.NewAmount = st.Amount, IncreaseAmount(st.Amount, r.BasisPoints, r.MaxAmount)
			st.Upgrade = u
			d.changes++
			d.record(ctx, actorOr(r.Actor), "upgrade", before, u)
			d.sync(ctx)
		}),
		handle(d, UpdateRemoveUpgrade, func(r RemoveUpgradeRequest) error {
			return d.stateIs(func(st *State) error {
				if st.Upgrade == nil || st.Upgrade.ID != r.ID {
					return fmt.Errorf("%w: no upgrade %q", ErrInvalidInput, r.ID)
				}
				return d.notDiscarded()
			})
		}, func(ctx workflow.Context, r RemoveUpgradeRequest) {
			before := *d.st.Upgrade
			d.st.Upgrade = nil
			d.changes++
			d.record(ctx, actorOr(r.Actor), "upgrade", before, nil)
			d.syncRemovedUpgrade(ctx, before.ID)
		}),
		handle(d, UpdateCollectDay, func(r ChangeCollectDayRequest) error {
			if !r.CollectDay.Valid() {
				return fmt.Errorf("%w: collect day must be 1 to 31, or 0 for the last day of the month", ErrInvalidInput)
			}
			return d.notDiscarded()
		}, d.changeCollectDay),
	)
}

// changeCollectDay moves the charge day. The next period to charge stays the same: every period
// before it is settled, so the change can never charge a period twice, only move the unsettled
// one within its month. When the new day of that month has already passed (the 10th, moving from
// the 25th to the 5th, this month not charged yet) the period is charged at once rather than
// skipped: the donation keeps one charge a month. A period being charged (retry schedule running)
// is not moved; the new day applies from the next one.
func (d *donation) changeCollectDay(ctx workflow.Context, r ChangeCollectDayRequest) {
	st := d.st
	before := st.CollectDay
	st.CollectDay = r.CollectDay
	st.NextChargeDate = st.CollectDay.Date(st.NextPeriod, d.loc)
	d.changes++
	d.record(ctx, actorOr(r.Actor), "collect_day", collectDayValue(before), collectDayValue(r.CollectDay))
	d.sync(ctx)
}

// collectDayValue is how the version history shows a collect day: its number, or "last".
func collectDayValue(day collectday.Day) any {
	if day == collectday.Last {
		return "last"
	}
	return int(day)
}

func (d *donation) syncRemovedUpgrade(ctx workflow.Context, id string) {
	if err := d.bookkeeping(ctx, d.acts.RemoveUpgrade, d.st.OrganizationID, id).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("remove upgrade", "error", err)
	}
	d.sync(ctx)
}

func actorOr(a string) string {
	if a == "" {
		return "api"
	}
	return a
}
