package billing

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
)

// fake is the subscription's row as the mocked activities keep it, and what they saw.
type fake struct {
	env      *testsuite.TestWorkflowEnvironment
	start    time.Time
	st       State
	init     func(now time.Time) State // the row at the start
	outcomes []string                  // ChargePeriod's answers in turn; then paid
	charged  []time.Duration           // when each attempt ran, after the start
	periods  []time.Time               // the period each attempt was for
	numbers  []int                     // the attempt number of each call
	failed   int                       // payment-failed e-mails
	ended    []bool                    // End's lapsed argument
	active   int                       // Activate calls
	changes  []Change                  // ChangePlan's arguments
	plans    []string                  // the plan each attempt charged
}

func run(t *testing.T, f *fake, in Input, callbacks map[time.Duration]func()) *fake {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	// The test's mocks run on the workflow goroutine: on a loaded machine they may take longer than the
	// 1-second deadlock detection, which is no deadlock.
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
	f.env, f.start = env, env.Now()
	f.st = f.init(f.start)
	var a *Activities
	env.RegisterActivity(a)
	env.OnActivity(a.Load, mock.Anything, in.OrganizationID, in.SubscriptionID).Return(func(context.Context, string, string) (State, error) {
		return f.st, nil
	})
	env.OnActivity(a.ChargePeriod, mock.Anything, mock.Anything).Return(func(_ context.Context, at Attempt) (string, error) {
		f.charged = append(f.charged, env.Now().Sub(f.start))
		f.periods = append(f.periods, at.PeriodStart)
		f.numbers = append(f.numbers, at.Number)
		if f.st.NextPlanCode != "" { // the waiting plan takes over with the period (RenewWithNextPlan)
			f.st.PlanCode, f.st.NextPlanCode = f.st.NextPlanCode, ""
		}
		f.plans = append(f.plans, f.st.PlanCode)
		out := OutcomePaid
		if len(f.outcomes) > 0 {
			out, f.outcomes = f.outcomes[0], f.outcomes[1:]
		}
		if out == OutcomePaid {
			end := PeriodEnd(at.PeriodStart, "monthly")
			f.st.PaidUntil, f.st.Status = &end, StatusActive
		}
		return out, nil
	})
	env.OnActivity(a.ChangePlan, mock.Anything, mock.Anything).Return(func(_ context.Context, c Change) (ChangeResult, error) {
		f.changes = append(f.changes, c)
		if c.PlanCode == "essential_monthly" { // cheaper: from the next period
			f.st.NextPlanCode = c.PlanCode
			return ChangeResult{Kind: ChangeScheduled}, nil
		}
		f.st.PlanCode = c.PlanCode
		return ChangeResult{Kind: ChangeUpgrade, Outcome: OutcomePaid, AmountMinor: 100, Currency: "ARS"}, nil
	})
	env.OnActivity(a.PaymentFailed, mock.Anything, mock.Anything).Return(func(context.Context, Attempt) error { f.failed++; return nil })
	env.OnActivity(a.Activate, mock.Anything, in.OrganizationID, in.SubscriptionID).Return(func(context.Context, string, string) error { f.active++; return nil })
	env.OnActivity(a.End, mock.Anything, in.OrganizationID, in.SubscriptionID, mock.Anything).Return(func(_ context.Context, _, _ string, lapsed bool) error {
		f.ended = append(f.ended, lapsed)
		f.st.Status = StatusEnded
		return nil
	})
	for after, fn := range callbacks {
		env.RegisterDelayedCallback(fn, after)
	}
	env.ExecuteWorkflow(Workflow, in)
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	return f
}

var in = Input{OrganizationID: "org", SubscriptionID: "sub"}

const day = 24 * time.Hour

// A paid subscription sleeps to the end of its period, charges the next one once, and after a
// cancellation ends at the end of the paid period without charging again.
func TestChargesEachPeriodThenEndsWhenCancelled(t *testing.T) {
	f := &fake{}
	var paid time.Time
	f.init = func(now time.Time) State {
		paid = now.Add(10 * day)
		return State{Status: StatusActive, PaymentMode: "card", PlanCode: "essential_monthly", CreatedAt: now.Add(-20 * day), PaidUntil: &paid}
	}
	run(t, f, in, map[time.Duration]func(){
		15 * day: func() { f.st.Status = StatusCancelled; f.env.SignalWorkflow(SignalChanged, nil) },
	})
	require.Len(t, f.charged, 1, "one charge: the renewal at the end of the first period")
	require.Equal(t, 10*day, f.charged[0])
	require.True(t, f.periods[0].Equal(paid), "the next period starts where the paid one ends")
	require.Equal(t, []bool{false}, f.ended, "cancelled: ends at the end of the paid period, not lapsed")
	require.Equal(t, 1, f.active, "the plan is ensured once when the run starts, not again at the renewal")
}

// A renewal the card refuses is retried after 1, 3 and 5 days, with an e-mail each time; after
// the last the subscription lapses.
func TestUnpaidRenewalRetriesThenLapses(t *testing.T) {
	f := &fake{outcomes: []string{OutcomeFailed, OutcomeFailed, OutcomeFailed, OutcomeFailed}}
	var paid time.Time
	f.init = func(now time.Time) State {
		paid = now.Add(day)
		return State{Status: StatusActive, PaymentMode: "card", PlanCode: "essential_monthly", CreatedAt: now.Add(-29 * day), PaidUntil: &paid}
	}
	run(t, f, in, nil)
	require.Equal(t, []time.Duration{day, 2 * day, 5 * day, 10 * day}, f.charged)
	for _, p := range f.periods {
		require.True(t, p.Equal(paid), "every attempt is for the same period")
	}
	require.Equal(t, 4, f.failed)
	require.Equal(t, []bool{true}, f.ended)
}

// A new payment method during the retries is tried at once; once paid, billing goes on.
func TestNewMethodIsTriedAtOnce(t *testing.T) {
	f := &fake{outcomes: []string{OutcomeFailed, OutcomePaid}}
	var paid time.Time
	f.init = func(now time.Time) State {
		paid = now.Add(day)
		return State{Status: StatusActive, PaymentMode: "card", PlanCode: "essential_monthly", CreatedAt: now.Add(-29 * day), PaidUntil: &paid}
	}
	run(t, f, in, map[time.Duration]func(){
		day + 2*time.Hour: func() { f.env.SignalWorkflow(SignalChanged, nil) },
		day + 3*time.Hour: func() { f.st.Status = StatusCancelled; f.env.SignalWorkflow(SignalChanged, nil) },
	})
	require.Equal(t, []time.Duration{day, day + 2*time.Hour}, f.charged)
	require.Equal(t, 1, f.failed)
	require.Equal(t, []bool{false}, f.ended)
}

// A first period whose charge was not decided by the API (pending, no paid window) is charged by
// the workflow, which then applies the plan once.
func TestUnpaidFirstPeriodIsChargedAndActivates(t *testing.T) {
	f := &fake{}
	var now time.Time
	f.init = func(t time.Time) State {
		now = t
		return State{Status: StatusPending, PaymentMode: "card", PlanCode: "essential_monthly", CreatedAt: now}
	}
	run(t, f, in, map[time.Duration]func(){
		time.Hour: func() { f.st.Status = StatusCancelled; f.env.SignalWorkflow(SignalChanged, nil) },
	})
	require.Equal(t, []time.Duration{0}, f.charged)
	require.True(t, f.periods[0].Equal(now))
	require.Equal(t, 1, f.active)
}

// A bank transfer nobody records lapses after the retry window without any e-mail of a failure.
func TestTransferNeverRecordedLapses(t *testing.T) {
	f := &fake{outcomes: []string{OutcomePending, OutcomePending, OutcomePending, OutcomePending}}
	f.init = func(now time.Time) State {
		return State{Status: StatusPending, PaymentMode: "bank_transfer", PlanCode: "essential_yearly", CreatedAt: now}
	}
	run(t, f, in, nil)
	require.Len(t, f.charged, 4)
	require.Zero(t, f.failed)
	require.Zero(t, f.active)
	require.Equal(t, []bool{true}, f.ended)
}

// Plan changes go through the workflow's update: an upgrade at once (the activity charges it), a
// downgrade waits and the renewal charges it and applies it; the change's time is the workflow's.
func TestPlanChangesThroughTheWorkflow(t *testing.T) {
	f := &fake{}
	var paid time.Time
	f.init = func(now time.Time) State {
		paid = now.Add(10 * day)
		return State{Status: StatusActive, PaymentMode: "card", PlanCode: "professional_monthly", CreatedAt: now.Add(-20 * day), PaidUntil: &paid}
	}
	var results []ChangeResult
	change := func(id, plan string) func() {
		return func() {
			f.env.UpdateWorkflow(UpdateChangePlan, id, &testsuite.TestUpdateCallback{
				OnAccept: func() {}, OnReject: func(err error) { t.Errorf("rejected: %v", err) },
				OnComplete: func(r interface{}, err error) {
					require.NoError(t, err)
					results = append(results, r.(ChangeResult))
				},
			}, Change{ChangeID: id, PlanCode: plan})
		}
	}
	run(t, f, in, map[time.Duration]func(){
		2 * day:  change("c1", "partner_monthly"),
		3 * day:  change("c2", "essential_monthly"),
		15 * day: func() { f.st.Status = StatusCancelled; f.env.SignalWorkflow(SignalChanged, nil) },
	})
	require.Equal(t, []ChangeResult{{Kind: ChangeUpgrade, Outcome: OutcomePaid, AmountMinor: 100, Currency: "ARS"}, {Kind: ChangeScheduled}}, results)
	require.Len(t, f.changes, 2)
	require.Equal(t, in.OrganizationID, f.changes[0].OrganizationID)
	require.True(t, f.changes[0].At.Equal(f.start.Add(2*day)), "the change's time is the workflow's")
	require.Equal(t, []string{"essential_monthly"}, f.plans, "the renewal charged the waiting plan")
	require.Equal(t, 10*day, f.charged[0])
	require.Equal(t, 2, f.active, "the plan is applied at the start and again when the waiting plan took over")
}

// The pro-rata rule: the difference times the share of the paid period left, rounded up to the
// minor unit; nothing for a cheaper plan or outside the period.
func TestProrata(t *testing.T) {
	from := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	until := from.AddDate(0, 0, 30)
	require.Equal(t, int64(5000), Prorata(10000, 20000, from, until, from.AddDate(0, 0, 15)), "half the period left: half the difference")
	require.Equal(t, int64(10000), Prorata(10000, 20000, from, until, from), "at the start: the whole difference")
	require.Equal(t, int64(10000), Prorata(10000, 20000, from, until, from.Add(-time.Hour)), "before the start counts from it")
	require.Equal(t, int64(334), Prorata(0, 1000, from, until, from.AddDate(0, 0, 20)), "a third of 1000 rounds up")
	require.Equal(t, int64(1), Prorata(100, 101, from, until, until.Add(-time.Second)), "a second left still costs the smallest unit")
	require.Zero(t, Prorata(20000, 10000, from, until, from), "a cheaper plan")
	require.Zero(t, Prorata(10000, 20000, from, until, until), "the period is over")
}

// A renewal by CBU debit: the debit is submitted at the period's start and read back after the
// poll delay; the bank rejects it (an e-mail), the retry a day later submits attempt 2, which the
// bank confirms at the next read. Every call is for the same period; a read-back keeps its attempt.
func TestCBUDebitRejectedThenRetriedAndConfirmed(t *testing.T) {
	f := &fake{outcomes: []string{OutcomeSubmitted, OutcomeFailed, OutcomeSubmitted, OutcomeSubmitted, OutcomePaid}}
	var paid time.Time
	f.init = func(now time.Time) State {
		paid = now.Add(day)
		return State{Status: StatusActive, PaymentMode: "cbu", PlanCode: "essential_monthly", CreatedAt: now.Add(-29 * day), PaidUntil: &paid}
	}
	poll := 6 * time.Hour
	withPoll := in
	withPoll.DebitPoll = poll
	run(t, f, withPoll, map[time.Duration]func(){
		10 * day: func() { f.st.Status = StatusCancelled; f.env.SignalWorkflow(SignalChanged, nil) },
	})
	require.Equal(t, []time.Duration{day, day + poll, 2*day + poll, 2*day + 2*poll, 2*day + 3*poll}, f.charged)
	require.Equal(t, []int{1, 1, 2, 2, 2}, f.numbers, "reading a debit back is the same attempt")
	for _, p := range f.periods {
		require.True(t, p.Equal(paid), "every call is for the same period")
	}
	require.Equal(t, 1, f.failed, "one e-mail, for the rejected debit")
	require.Equal(t, []bool{false}, f.ended, "paid, then cancelled: not lapsed")
}

// A debit the bank never decides is read back MaxDebitPolls times, then the attempt counts as
// undecided and the retry schedule goes on (reading the same debit back, never failing it).
func TestCBUDebitUndecidedFollowsTheSchedule(t *testing.T) {
	outcomes := make([]string, 4*(MaxDebitPolls+1))
	for i := range outcomes {
		outcomes[i] = OutcomeSubmitted
	}
	f := &fake{outcomes: outcomes}
	f.init = func(now time.Time) State {
		paid := now.Add(day)
		return State{Status: StatusActive, PaymentMode: "cbu", PlanCode: "essential_monthly", CreatedAt: now.Add(-29 * day), PaidUntil: &paid}
	}
	withPoll := in
	withPoll.DebitPoll = time.Hour
	run(t, f, withPoll, nil)
	require.Len(t, f.charged, 4*(MaxDebitPolls+1))
	require.Zero(t, f.failed, "undecided is no failure: no e-mail")
	require.Equal(t, []bool{true}, f.ended, "after the last retry the plan lapses")
}
