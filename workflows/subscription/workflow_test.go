package subscription

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
)

const day = 24 * time.Hour

type fake struct {
	env    *testsuite.TestWorkflowEnvironment
	start  time.Time
	plan   string
	emails []string        // kinds, in order
	at     []time.Duration // when each e-mail was sent, from the start
	sweeps int
}

func newFake(t *testing.T, plan string) *fake {
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
	f := &fake{env: env, start: env.Now(), plan: plan}
	var a *Activities
	env.RegisterActivity(a)
	env.OnActivity(a.Begin, mock.Anything, "org-1", mock.Anything, mock.Anything).Return(
		func(_ context.Context, _ string, now time.Time, length time.Duration) (State, error) {
			if f.plan != PlanOriginal {
				return State{PlanCode: f.plan, Status: StatusActive, Accepting: true}, nil
			}
			end := now.Add(length)
			return State{PlanCode: PlanOriginal, Status: StatusTrial, TrialStartedAt: &now, TrialEndsAt: &end, Accepting: true}, nil
		})
	env.OnActivity(a.EndTrial, mock.Anything, "org-1").Return(func(context.Context, string) (State, error) {
		return State{PlanCode: PlanOriginal, Status: StatusRestricted, CommissionBps: CommissionBps}, nil
	})
	env.OnActivity(a.ApplyPlan, mock.Anything, "org-1", mock.Anything, mock.Anything).Return(
		func(_ context.Context, _ string, plan string, _ time.Time) (State, error) {
			f.plan = plan
			return State{PlanCode: plan, Status: StatusActive, Accepting: true}, nil
		})
	env.OnActivity(a.RecordCommissions, mock.Anything, "org-1").Return(func(context.Context, string) (int, error) {
		f.sweeps++
		return 0, nil
	})
	env.OnActivity(a.EmailAdministrators, mock.Anything, "org-1", mock.Anything).Return(func(_ context.Context, _ string, e Email) error {
		f.emails = append(f.emails, e.Kind)
		f.at = append(f.at, env.Now().Sub(f.start))
		return nil
	})
	return f
}

func (f *fake) query(t *testing.T) State {
	v, err := f.env.QueryWorkflow(QueryState)
	require.NoError(t, err)
	var st State
	require.NoError(t, v.Get(&st))
	return st
}

// runUntil runs the workflow for org-1 and cancels it after d.
func (f *fake) runUntil(d time.Duration) {
	f.env.RegisterDelayedCallback(f.env.CancelWorkflow, d)
	f.env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org-1"})
}

func (f *fake) purchase(t *testing.T, plan string, check func(State, error)) {
	f.env.UpdateWorkflow(UpdatePlanPurchased, "u-"+plan, &testsuite.TestUpdateCallback{
		OnAccept: func() {},
		OnReject: func(err error) { check(State{}, err) },
		OnComplete: func(v any, err error) {
			st, _ := v.(State)
			check(st, err)
		},
	}, PlanRequest{PlanCode: plan})
}

// The trial: messages 7 days and 1 day before the end and at the end, then the commission and the
// refusal until a plan purchase lifts them. Collection records the commission with each charge, so
// the restriction runs no sweep.
func TestTrialRemindersRestrictionThenPurchase(t *testing.T) {
	t.Parallel()
	f := newFake(t, PlanOriginal)
	f.env.RegisterDelayedCallback(func() {
		st := f.query(t)
		require.Equal(t, StatusTrial, st.Status)
		require.WithinDuration(t, f.start.Add(TrialLength), *st.TrialEndsAt, time.Second)
	}, 10*day)
	f.env.RegisterDelayedCallback(func() {
		st := f.query(t)
		require.Equal(t, StatusRestricted, st.Status)
		require.Equal(t, CommissionBps, st.CommissionBps)
		require.False(t, st.Accepting)
	}, 95*day)
	var bought State
	f.env.RegisterDelayedCallback(func() {
		f.purchase(t, "professional_yearly", func(st State, err error) {
			require.NoError(t, err)
			bought = st
		})
	}, 100*day+time.Hour)
	f.runUntil(120 * day)

	require.True(t, f.env.IsWorkflowCompleted())
	require.Equal(t, []string{EmailTrialStarted, EmailTrialEnding, EmailTrialEnding, EmailTrialEnded, EmailPlanActive}, f.emails)
	require.Equal(t, []time.Duration{0, 83 * day, 89 * day, 90 * day, 100*day + time.Hour}, f.at)
	require.Zero(t, f.sweeps, "no commission sweep: collection records it at charge time")
	require.Equal(t, StatusActive, bought.Status)
	require.Equal(t, "professional_yearly", bought.PlanCode)
	require.Equal(t, 0, bought.CommissionBps)
	require.True(t, bought.Accepting)
}

// A purchase during the trial ends it: no more trial messages, no restriction.
func TestPurchaseDuringTrial(t *testing.T) {
	t.Parallel()
	f := newFake(t, PlanOriginal)
	f.env.RegisterDelayedCallback(func() {
		f.purchase(t, "essential_yearly", func(st State, err error) {
			require.NoError(t, err)
			require.Equal(t, StatusActive, st.Status)
		})
	}, 30*day)
	f.env.RegisterDelayedCallback(func() {
		require.Equal(t, StatusActive, f.query(t).Status)
		f.env.CancelWorkflow()
	}, 200*day)
	f.env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org-1"})
	require.Equal(t, []string{EmailTrialStarted, EmailPlanActive}, f.emails)
	require.Zero(t, f.sweeps)
	require.Equal(t, "essential_yearly", f.plan)
}

// A plan bought in the workflow's first task, before the subscription has begun, is accepted and
// applied once it has.
func TestPurchaseRightAfterStart(t *testing.T) {
	t.Parallel()
	f := newFake(t, PlanOriginal)
	var bought State
	f.env.RegisterDelayedCallback(func() {
		f.purchase(t, "essential_yearly", func(st State, err error) {
			require.NoError(t, err)
			bought = st
		})
	}, 0)
	f.runUntil(day)
	require.Equal(t, StatusActive, bought.Status)
	require.Equal(t, "essential_yearly", f.plan)
}

// An organisation already on a paid plan gets no trial and no messages; a plan change still lands.
func TestPaidPlanGetsNoTrial(t *testing.T) {
	t.Parallel()
	f := newFake(t, "partner_monthly")
	f.env.RegisterDelayedCallback(func() {
		st := f.query(t)
		require.Equal(t, StatusActive, st.Status)
		require.Nil(t, st.TrialEndsAt)
		f.purchase(t, "partner_yearly", func(st State, err error) { require.NoError(t, err) })
	}, 100*day)
	f.runUntil(200 * day)
	require.Empty(t, f.emails)
	require.Equal(t, "partner_yearly", f.plan)
}

// A plan code that is not a buyable plan is rejected by the update's validator.
func TestUnknownPlanRejected(t *testing.T) {
	t.Parallel()
	f := newFake(t, PlanOriginal)
	var rejected error
	f.env.RegisterDelayedCallback(func() {
		f.purchase(t, PlanOriginal, func(_ State, err error) { rejected = err })
	}, day)
	f.runUntil(2 * day)
	require.Error(t, rejected)
	require.Equal(t, StatusTrial, f.query(t).Status)
}

// Short trials skip reminders that would come after a later one is due.
func TestNextTrialEventSkipsStaleReminders(t *testing.T) {
	t.Parallel()
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	end := now.Add(12 * time.Hour)
	_, kind, _ := nextTrialEvent(State{TrialEndsAt: &end}, Timing{}, now)
	require.Equal(t, EmailTrialEnding, kind, "the 1-day reminder is due, the 7-day one is skipped")
	_, kind, _ = nextTrialEvent(State{TrialEndsAt: &end}, Timing{}, end)
	require.Equal(t, EmailTrialEnded, kind)
}

var _ = client.WorkflowUpdateStageCompleted
