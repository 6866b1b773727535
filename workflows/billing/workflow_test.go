package billing

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
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
	failed   int                       // payment-failed e-mails
	ended    []bool                    // End's lapsed argument
	active   int                       // Activate calls
}

func run(t *testing.T, f *fake, in Input, callbacks map[time.Duration]func()) *fake {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
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
