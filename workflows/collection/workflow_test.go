package collection

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/aporta/aporta/internal/collectday"
)

const (
	testOrg      = "0b4f6f55-3a56-4f38-9a0c-0d7c5d9e2a11"
	testDonation = "6a1b0c3e-8d1f-4c4e-b7a9-2f3d4e5f6a7b"
	testUpgrade  = "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	testTZ       = "America/Argentina/Buenos_Aires"
)

var ba = func() *time.Location {
	l, err := time.LoadLocation(testTZ)
	if err != nil {
		panic(err)
	}
	return l
}()

func card(id string, month, year int) PaymentMethod {
	return PaymentMethod{ID: id, CustomerID: "cus-1", CardID: "card-" + id, Brand: "visa", BIN: "450995",
		LastFour: "3704", ExpiryMonth: month, ExpiryYear: year, HolderName: "APRO"}
}

// chargeCall is one call of the Charge activity as the fake gateway saw it.
type chargeCall struct {
	At      time.Time // workflow time, in Buenos Aires
	Req     ChargeRequest
	Outcome ChargeResult
	Local   bool // run as a local activity
	Failed  bool // failed (localFails) before the gateway answered
}

// harness runs the workflow with activities mocked at the activity boundary: a scripted gateway
// decides each charge, and the state and version writes are captured.
type harness struct {
	t   *testing.T
	env *testsuite.TestWorkflowEnvironment

	mu       sync.Mutex
	charges  []chargeCall
	versions []Version
	synced   []State
	notices  []DeclineNotice
	// decide answers a charge; approved when nil.
	decide func(r ChargeRequest, n int) ChargeResult
	// localFails fails the local try of the charges it is true for, as an outcome that the read-back
	// cannot find yet does.
	localFails func(r ChargeRequest) bool
}

func newHarness(t *testing.T, start time.Time, snap Snapshot) *harness {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	h := &harness{t: t, env: s.NewTestWorkflowEnvironment()}
	env := h.env
	env.SetStartTime(start)
	env.RegisterWorkflow(Workflow)
	var a *Activities
	env.RegisterActivity(a)
	if snap.DonationID == "" {
		snap.DonationID = testDonation
	}
	snap.OrganizationID, snap.Timezone, snap.Recurrence = testOrg, testTZ, 1
	if snap.Currency == "" {
		snap.Currency = "ARS"
	}
	env.OnActivity(a.LoadDonation, mock.Anything, testOrg, snap.DonationID).Return(snap, nil)
	env.OnActivity(a.OpenDonation, mock.Anything, mock.Anything).Return(func(_ context.Context, r OpenRequest) (State, error) {
		require.Equal(t, testOrg, r.OrganizationID)
		require.True(t, r.Now.Equal(env.Now()), "opened at the workflow's time")
		st, err := snap.opened(r.Now)
		h.mu.Lock()
		defer h.mu.Unlock()
		h.synced = append(h.synced, st)
		return st, err
	})
	env.OnActivity(a.Charge, mock.Anything, mock.Anything).Return(func(ctx context.Context, r ChargeRequest) (ChargeResult, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		local := activity.GetInfo(ctx).IsLocalActivity
		if local && h.localFails != nil && h.localFails(r) {
			h.charges = append(h.charges, chargeCall{At: env.Now().In(ba), Req: r, Local: true, Failed: true})
			return ChargeResult{}, errors.New("charge: outcome unknown and not found yet")
		}
		res := ChargeResult{Attempt: r.Attempt, Status: "approved", PaymentID: "p"}
		if h.decide != nil {
			res = h.decide(r, len(h.charges))
			res.Attempt = r.Attempt
		}
		h.charges = append(h.charges, chargeCall{At: env.Now().In(ba), Req: r, Outcome: res, Local: local})
		if res.Approved() && r.SyncOnApproval != nil {
			h.synced = append(h.synced, *r.SyncOnApproval)
			res.Synced = true
		}
		return res, nil
	})
	env.OnActivity(a.SyncDonation, mock.Anything, mock.Anything).Return(func(_ context.Context, st State) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.synced = append(h.synced, st)
		return nil
	})
	env.OnActivity(a.RecordVersion, mock.Anything, mock.Anything).Return(func(_ context.Context, v Version) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.versions = append(h.versions, v)
		return nil
	})
	env.OnActivity(a.RemoveUpgrade, mock.Anything, mock.Anything, mock.Anything).Return(nil)
	var n *Notices
	env.RegisterActivity(n)
	env.OnActivity(n.NotifyDecline, mock.Anything, mock.Anything).Return(func(_ context.Context, d DeclineNotice) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.notices = append(h.notices, d)
		return nil
	})
	return h
}

// at runs fn when the workflow clock reaches t.
func (h *harness) at(t time.Time, fn func()) {
	h.env.RegisterDelayedCallback(fn, t.Sub(h.env.Now()))
}

// update sends an update and requires it to be accepted (or rejected when wantErr).
func (h *harness) update(name string, wantErr bool, arg any) {
	h.t.Helper()
	var done bool
	h.env.UpdateWorkflow(name, "", &testsuite.TestUpdateCallback{
		OnAccept: func() {
			if wantErr {
				h.t.Errorf("update %s accepted, want rejected", name)
			}
		},
		OnReject: func(err error) {
			if !wantErr {
				h.t.Errorf("update %s rejected: %v", name, err)
			}
			done = true
		},
		OnComplete: func(_ any, err error) {
			if err != nil {
				h.t.Errorf("update %s: %v", name, err)
			}
			done = true
		},
	}, arg)
	_ = done
}

func (h *harness) state() State {
	h.t.Helper()
	v, err := h.env.QueryWorkflow(QueryState)
	require.NoError(h.t, err)
	var st State
	require.NoError(h.t, v.Get(&st))
	return st
}

func (h *harness) run(in Input) {
	if in.OrganizationID == "" {
		in.OrganizationID, in.DonationID = testOrg, testDonation
	}
	h.env.ExecuteWorkflow(Workflow, in)
	require.True(h.t, h.env.IsWorkflowCompleted())
}

// continuedWith returns the input a continue-as-new carried.
func (h *harness) continuedWith() Input {
	h.t.Helper()
	var can *workflow.ContinueAsNewError
	require.True(h.t, errors.As(h.env.GetWorkflowError(), &can), "want continue-as-new, got %v", h.env.GetWorkflowError())
	var in Input
	require.NoError(h.t, converter.GetDefaultDataConverter().FromPayloads(can.Input, &in))
	return in
}

func (h *harness) dates() []string {
	out := make([]string, len(h.charges))
	for i, c := range h.charges {
		out[i] = c.At.Format(time.DateOnly) + " " + c.Req.Period
	}
	return out
}

// afterField reads a field of a version's after value (maps come back from the activity payload as
// map[string]any).
func afterField(v Version, key string) string {
	switch m := v.After.(type) {
	case map[string]string:
		return m[key]
	case map[string]any:
		s, _ := m[key].(string)
		return s
	}
	return ""
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, ba) }

func TestYearOfChargesOnDay31ThenContinueAsNew(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2028, 1, 2).Add(10*time.Hour), Snapshot{
		Amount: 150000, CollectDay: 31, Email: "ana@example.org", PaymentMethod: card("a", 12, 2031)})
	h.run(Input{})

	require.Equal(t, []string{
		"2028-01-31 2028-01", "2028-02-29 2028-02", "2028-03-31 2028-03", "2028-04-30 2028-04",
		"2028-05-31 2028-05", "2028-06-30 2028-06", "2028-07-31 2028-07", "2028-08-31 2028-08",
		"2028-09-30 2028-09", "2028-10-31 2028-10", "2028-11-30 2028-11", "2028-12-31 2028-12",
	}, h.dates())
	for _, c := range h.charges {
		require.Equal(t, 1, c.Req.Attempt)
		require.Equal(t, int64(150000), c.Req.Amount)
		require.Equal(t, "card-a", c.Req.PaymentMethod.CardID)
		require.Zero(t, c.At.Hour(), "charged at local midnight")
	}

	// Twelve charges fill a run: it continues as new, carrying the whole state.
	in := h.continuedWith()
	require.NotNil(t, in.State)
	require.Equal(t, collectday.Period{Year: 2029, Month: time.January}, in.State.NextPeriod)
	require.Equal(t, 12, in.State.ChargedPeriods)
	require.Len(t, in.State.Recent, 12)
	require.Equal(t, int64(150000), in.State.Amount)
	require.Equal(t, StatusActive, in.State.Status)

	// The next run starts from the carried state (no LoadDonation) and charges January 2029 on the
	// 31st; February 2029 is not a leap year.
	next := newHarness(t, h.env.Now(), Snapshot{DonationID: "must-not-load"})
	next.at(date(2029, 3, 5), func() { next.update(UpdateDiscard, false, DiscardRequest{Actor: "u1", Reason: "test"}) })
	next.run(in)
	require.NoError(t, next.env.GetWorkflowError())
	require.Equal(t, []string{"2029-01-31 2029-01", "2029-02-28 2029-02"}, next.dates())
	next.env.AssertNotCalled(t, "LoadDonation", mock.Anything, mock.Anything, mock.Anything)
}

func TestFailedAttemptsFollowTheScheduleThenRecover(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 3, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	h.decide = func(r ChargeRequest, n int) ChargeResult {
		switch {
		case r.Period == "2027-03" && r.Attempt < 3: // fails twice, then approved on the third try
			return ChargeResult{Status: "rejected", StatusDetail: "cc_rejected_insufficient_amount"}
		case r.Period == "2027-04": // a whole period fails
			return ChargeResult{Status: "rejected", StatusDetail: "cc_rejected_insufficient_amount"}
		}
		return ChargeResult{Status: "approved", PaymentID: "p"}
	}
	var afterApril State
	h.at(date(2027, 4, 30), func() { afterApril = h.state() })
	h.at(date(2027, 5, 20), func() { h.update(UpdateDiscard, false, DiscardRequest{Reason: "end"}) })
	h.run(Input{})

	require.Equal(t, []string{
		"2027-03-10 2027-03", "2027-03-11 2027-03", "2027-03-13 2027-03", // day 0, +1, +3
		"2027-04-10 2027-04", "2027-04-11 2027-04", "2027-04-13 2027-04", "2027-04-17 2027-04", // +7: 4 attempts
		"2027-05-10 2027-05",
	}, h.dates())
	require.Equal(t, 1, afterApril.ConsecutiveFailed)
	require.Equal(t, StatusActive, afterApril.Status)
	st := h.state()
	require.Equal(t, 0, st.ConsecutiveFailed, "an approved period resets the count")
	require.Equal(t, StatusDiscarded, st.Status)
	require.Equal(t, []bool{true, false, true}, []bool{st.Recent[0].Approved, st.Recent[1].Approved, st.Recent[2].Approved})
	require.Equal(t, 3, st.Recent[0].Attempts)
}

func TestThreeFailedPeriodsPause(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 1000, CollectDay: 5, PaymentMethod: card("a", 1, 2030)})
	h.decide = func(ChargeRequest, int) ChargeResult {
		return ChargeResult{Status: "rejected", StatusDetail: "cc_rejected_call_for_authorize"}
	}
	h.at(date(2027, 9, 1), func() { h.update(UpdateDiscard, false, DiscardRequest{Reason: "end"}) })
	h.run(Input{})

	require.Len(t, h.charges, 12, "three periods of four attempts, then nothing while paused")
	require.Equal(t, "2027-03", h.charges[11].Req.Period)
	require.Equal(t, 4, h.charges[11].Req.Attempt)
	var pause *Version
	for i := range h.versions {
		if afterField(h.versions[i], "paused_reason") != "" {
			pause = &h.versions[i]
		}
	}
	require.NotNil(t, pause)
	require.Equal(t, ActorSystem, pause.Actor)
	require.Equal(t, PausedLastXMonths, afterField(*pause, "paused_reason"))
	require.True(t, pause.At.Equal(date(2027, 3, 12)), "paused after the last attempt (+7) of March: %s", pause.At)
}

func TestConfiguredFailedPeriods(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 1000, CollectDay: 5, PaymentMethod: card("a", 1, 2030)})
	h.decide = func(ChargeRequest, int) ChargeResult { return ChargeResult{Status: "rejected"} }
	var st State
	h.at(date(2027, 6, 1), func() { st = h.state(); h.update(UpdateDiscard, false, DiscardRequest{}) })
	h.run(Input{MaxFailedPeriods: 1})
	require.Len(t, h.charges, 4)
	require.Equal(t, StatusPaused, st.Status)
	require.Equal(t, PausedLastXMonths, st.PausedReason)
}

func TestExpiredCardPausesWithoutCharging(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2028, 1, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 2, 2028)})
	var st State
	h.at(date(2028, 5, 1), func() { st = h.state(); h.update(UpdateDiscard, false, DiscardRequest{}) })
	h.run(Input{})
	require.Equal(t, []string{"2028-01-10 2028-01", "2028-02-10 2028-02"}, h.dates(), "valid through February")
	require.Equal(t, StatusPaused, st.Status)
	require.Equal(t, PausedCardExpired, st.PausedReason)
	require.True(t, st.PausedSince.Equal(date(2028, 3, 10)))
}

func TestHardDeclinePausesWithTheGatewaysReason(t *testing.T) {
	t.Parallel()
	for _, reason := range []string{
		"last_transaction_stolen_issue", "last_transaction_charge_back", "last_transaction_high_risk",
		"last_transaction_card_cancelled", "cc_invalid_number", "cc_missing_security_code",
		"payment_method_invalid", "payment_method_not_supported",
	} {
		t.Run(reason, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
			h.decide = func(ChargeRequest, int) ChargeResult {
				return ChargeResult{Status: "rejected", PausedReason: reason}
			}
			var st State
			h.at(date(2027, 4, 1), func() { st = h.state(); h.update(UpdateDiscard, false, DiscardRequest{}) })
			h.run(Input{})
			require.Len(t, h.charges, 1, "a hard decline is never retried")
			require.Equal(t, StatusPaused, st.Status)
			require.Equal(t, reason, st.PausedReason)
		})
	}
}

func TestPauseRestoreDiscard(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	var paused, restored State
	h.at(date(2027, 2, 15), func() {
		h.update(UpdatePause, true, PauseRequest{Actor: "u1", Reason: "not-a-reason"})
		h.update(UpdateRestore, true, RestoreRequest{Actor: "u1"}) // not paused yet
		h.update(UpdatePause, false, PauseRequest{Actor: "u1", Reason: PausedByOrg})
	})
	h.at(date(2027, 3, 20), func() {
		paused = h.state()
		h.update(UpdateCollectNow, true, CollectNowRequest{}) // paused: refused
		h.update(UpdateRestore, false, RestoreRequest{Actor: "u2"})
	})
	h.at(date(2027, 3, 21), func() { restored = h.state() })
	h.at(date(2027, 5, 1), func() { h.update(UpdateDiscard, false, DiscardRequest{Actor: "u3", Reason: "donor asked"}) })
	h.run(Input{})
	require.NoError(t, h.env.GetWorkflowError(), "discard ends the workflow")

	require.Equal(t, []string{"2027-01-10 2027-01", "2027-02-10 2027-02", "2027-04-10 2027-04"}, h.dates(),
		"nothing while paused; restoring on March 20 charges in the next period, April")
	require.Equal(t, StatusPaused, paused.Status)
	require.Equal(t, PausedByOrg, paused.PausedReason)
	require.Equal(t, StatusActive, restored.Status)
	require.Equal(t, collectday.Period{Year: 2027, Month: time.April}, restored.NextPeriod)

	actors := map[string]string{}
	for _, v := range h.versions {
		if v.Field == "status" {
			actors[v.Actor] = afterField(v, "status")
		}
	}
	require.Equal(t, map[string]string{"u1": StatusPaused, "u2": StatusActive, "u3": StatusDiscarded}, actors)
	last := h.synced[len(h.synced)-1]
	require.Equal(t, StatusDiscarded, last.Status)
	require.Equal(t, "donor asked", last.DiscardReason)
}

func TestUpgradeAppliedOnSchedule(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 100000, CollectDay: 0, PaymentMethod: card("a", 1, 2030)})
	h.at(date(2027, 1, 15), func() {
		h.update(UpdateSetUpgrade, true, SetUpgradeRequest{ID: testUpgrade, BasisPoints: 1000, PeriodMonths: 5})
		h.update(UpdateSetUpgrade, false, SetUpgradeRequest{Actor: "u1", ID: testUpgrade, BasisPoints: 1000, PeriodMonths: 3, Auto: true})
	})
	var beforeRemove State
	h.at(date(2027, 11, 15), func() {
		beforeRemove = h.state()
		h.update(UpdateRemoveUpgrade, false, RemoveUpgradeRequest{Actor: "u1", ID: testUpgrade})
	})
	h.run(Input{})

	amounts := map[string]int64{}
	for _, c := range h.charges {
		amounts[c.Req.Period] = c.Req.Amount
	}
	// Added on January 15, when the next period to charge is January (the 31st): +10% every
	// 3 months from April (January + 3), rounded to the minor unit.
	require.Equal(t, map[string]int64{
		"2027-01": 100000, "2027-02": 100000, "2027-03": 100000,
		"2027-04": 110000, "2027-05": 110000, "2027-06": 110000,
		"2027-07": 121000, "2027-08": 121000, "2027-09": 121000,
		"2027-10": 133100, "2027-11": 133100, "2027-12": 133100, // removed in November: no more increases
	}, amounts)
	require.Equal(t, "2027-02-28 2027-02", h.dates()[1], "collect day 0 is the last day")
	require.NotNil(t, beforeRemove.Upgrade)
	require.Len(t, beforeRemove.Upgrade.History, 3)
	require.Equal(t, int64(121000), beforeRemove.Upgrade.OldAmount)
	require.Equal(t, int64(133100), beforeRemove.Upgrade.NewAmount)
	require.Equal(t, collectday.Period{Year: 2028, Month: time.January}, beforeRemove.Upgrade.NextPeriod)
	in := h.continuedWith()
	require.Nil(t, in.State.Upgrade)
	require.Equal(t, int64(133100), in.State.Amount)
}

func TestAmountAndCardChangeMidFlight(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	// The old card fails in March; the new card, given during March's retries, is used for the
	// next attempt of the same period.
	h.decide = func(r ChargeRequest, _ int) ChargeResult {
		if r.PaymentMethod.CardID == "card-a" && r.Period == "2027-03" {
			return ChargeResult{Status: "rejected"}
		}
		return ChargeResult{Status: "approved"}
	}
	h.at(date(2027, 2, 1), func() {
		h.update(UpdateChangeAmount, true, ChangeAmountRequest{Amount: 0})
		h.update(UpdateChangeAmount, false, ChangeAmountRequest{Actor: "u1", Amount: 2500})
	})
	h.at(date(2027, 3, 10).Add(12*time.Hour), func() {
		h.update(UpdateChangeMethod, true, ChangePaymentMethodRequest{PaymentMethod: PaymentMethod{ID: "x"}})
		h.update(UpdateChangeMethod, false, ChangePaymentMethodRequest{Actor: "u1", PaymentMethod: card("b", 6, 2031)})
	})
	h.at(date(2027, 4, 20), func() { h.update(UpdateDiscard, false, DiscardRequest{}) })
	h.run(Input{})

	require.Equal(t, []string{"2027-01-10 2027-01", "2027-02-10 2027-02", "2027-03-10 2027-03", "2027-03-11 2027-03", "2027-04-10 2027-04"}, h.dates())
	require.Equal(t, int64(1000), h.charges[0].Req.Amount)
	require.Equal(t, int64(2500), h.charges[1].Req.Amount)
	require.Equal(t, "card-a", h.charges[2].Req.PaymentMethod.CardID)
	require.Equal(t, "card-b", h.charges[3].Req.PaymentMethod.CardID)
	require.Equal(t, "card-b", h.charges[4].Req.PaymentMethod.CardID)
	fields := []string{}
	for _, v := range h.versions {
		fields = append(fields, v.Actor+":"+v.Field)
	}
	require.Contains(t, fields, "u1:amount")
	require.Contains(t, fields, "u1:payment_method")
}

// TestCollectNowOnlyForTheDuePeriod: collect-now charges the unpaid period of the current month
// early, or retries it at once; it used to charge the following months back to back, one per
// call. A period ahead of the current month is refused, and no period is charged twice.
func TestCollectNowOnlyForTheDuePeriod(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	h.decide = func(r ChargeRequest, _ int) ChargeResult {
		if r.Period == "2027-01" && r.Attempt == 1 {
			return ChargeResult{Status: "rejected"}
		}
		return ChargeResult{Status: "approved"}
	}
	var refused []error
	collectNow := func() {
		h.env.UpdateWorkflow(UpdateCollectNow, "", &testsuite.TestUpdateCallback{
			OnAccept: func() {}, OnReject: func(err error) { refused = append(refused, err) }, OnComplete: func(any, error) {},
		}, CollectNowRequest{Actor: "u1"})
	}
	h.at(date(2027, 1, 5), func() {
		collectNow() // January is due (not paid): charged now, declined
		collectNow() // requested already: refused
	})
	h.at(date(2027, 1, 5).Add(time.Hour), collectNow)   // January's retry, at once: approved
	h.at(date(2027, 1, 5).Add(2*time.Hour), collectNow) // February is ahead: refused
	h.at(date(2027, 2, 20), collectNow)                 // February paid on the 10th; March is ahead
	h.at(date(2027, 3, 1), func() { h.update(UpdateDiscard, false, DiscardRequest{}) })
	h.run(Input{})

	require.Equal(t, []string{"2027-01-05 2027-01", "2027-01-05 2027-01", "2027-02-10 2027-02"}, h.dates())
	require.Equal(t, 2, h.charges[1].Req.Attempt, "the second collect-now is January's next attempt")
	require.Len(t, refused, 3)
	require.ErrorContains(t, refused[0], ErrChargeInProgress.Error())
	require.ErrorContains(t, refused[1], ErrNotDue.Error())
	require.ErrorContains(t, refused[2], ErrNotDue.Error())
}

// TestUpgradeStopsAtTheMaximum: periodic increases never pass the campaign's and gateway's
// largest donation.
func TestUpgradeStopsAtTheMaximum(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 100000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	h.at(date(2027, 1, 2), func() {
		h.update(UpdateSetUpgrade, false, SetUpgradeRequest{Actor: "u1", ID: testUpgrade, BasisPoints: 5000, PeriodMonths: 1,
			Auto: true, MaxAmount: 200000})
	})
	h.at(date(2027, 6, 1), func() { h.update(UpdateDiscard, false, DiscardRequest{}) })
	h.run(Input{})
	var amounts []int64
	for _, c := range h.charges {
		amounts = append(amounts, c.Req.Amount)
	}
	require.Equal(t, []int64{100000, 150000, 200000, 200000, 200000}, amounts)
}

func TestUpdateRightAfterStartWaitsForTheDonation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	// Sent in the workflow's first task, before LoadDonation answered: accepted, and applied once
	// the donation is loaded.
	h.at(date(2027, 1, 1), func() {
		h.update(UpdateCollectDay, false, ChangeCollectDayRequest{Actor: "u1", CollectDay: 20})
		// Accepted before the load (the validator cannot see the status yet), then failed by the
		// handler once it can: the donation is not paused.
		h.env.UpdateWorkflow(UpdateRestore, "", &testsuite.TestUpdateCallback{
			OnAccept: func() {},
			OnReject: func(err error) { t.Errorf("restore rejected by the validator: %v", err) },
			OnComplete: func(_ any, err error) {
				if !errors.Is(err, ErrNotPaused) && (err == nil || !strings.Contains(err.Error(), ErrNotPaused.Error())) {
					t.Errorf("restore completed with %v, want %v", err, ErrNotPaused)
				}
			},
		}, RestoreRequest{})
	})
	h.at(date(2027, 2, 25), func() { h.update(UpdateDiscard, false, DiscardRequest{}) })
	h.run(Input{})
	require.Equal(t, []string{"2027-01-20 2027-01", "2027-02-20 2027-02"}, h.dates())
}

func TestCollectDayChange(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 1), Snapshot{Amount: 1000, CollectDay: 25, PaymentMethod: card("a", 1, 2030)})
	var moved State
	h.at(date(2027, 2, 10), func() {
		h.update(UpdateCollectDay, true, ChangeCollectDayRequest{CollectDay: 32})
		h.update(UpdateCollectDay, true, ChangeCollectDayRequest{CollectDay: -1})
		// February is not charged yet and the 5th has passed: charged at once, not skipped.
		h.update(UpdateCollectDay, false, ChangeCollectDayRequest{Actor: "u1", CollectDay: 5})
	})
	h.at(date(2027, 3, 10), func() {
		// March was charged on the 5th: the 20th applies from April, never a second March charge.
		h.update(UpdateCollectDay, false, ChangeCollectDayRequest{Actor: "u2", CollectDay: 20})
	})
	h.at(date(2027, 3, 11), func() { moved = h.state() })
	h.at(date(2027, 4, 25), func() {
		h.update(UpdateCollectDay, false, ChangeCollectDayRequest{Actor: "u3", CollectDay: collectday.Last})
	})
	h.at(date(2027, 6, 10), func() { h.update(UpdateDiscard, false, DiscardRequest{}) })
	h.run(Input{})

	require.Equal(t, []string{"2027-01-25 2027-01", "2027-02-10 2027-02", "2027-03-05 2027-03", "2027-04-20 2027-04",
		"2027-05-31 2027-05"}, h.dates())
	require.Equal(t, collectday.Day(20), moved.CollectDay)
	require.Equal(t, collectday.Period{Year: 2027, Month: time.April}, moved.NextPeriod)
	require.Equal(t, date(2027, 4, 20), moved.NextChargeDate.In(ba))
	var changes []string
	for _, v := range h.versions {
		if v.Field == "collect_day" {
			changes = append(changes, fmt.Sprintf("%s:%v→%v", v.Actor, v.Before, v.After))
		}
	}
	require.Equal(t, []string{"u1:25→5", "u2:5→20", "u3:20→last"}, changes)
}

// TestChargeWaitsForTheGatewayConnection: while the organisation's connection needs reconnecting
// the due attempt waits (nothing charged), and once it is back the period is charged once, its
// retries counted from then; the next period is charged as usual.
func TestChargeWaitsForTheGatewayConnection(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 3, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	back := date(2027, 3, 12).Add(5 * time.Hour) // two days and five hours later
	h.decide = func(r ChargeRequest, _ int) ChargeResult {
		switch {
		case h.env.Now().Before(back):
			return ChargeResult{GatewayMissing: true}
		case r.Period == "2027-03" && r.Attempt == 1:
			return ChargeResult{Status: "rejected", StatusDetail: "cc_rejected_insufficient_amount"}
		}
		return ChargeResult{Status: "approved", PaymentID: "p"}
	}
	h.at(date(2027, 4, 20), func() { h.update(UpdateDiscard, false, DiscardRequest{Reason: "end"}) })
	h.run(Input{})

	var charged []string
	waits := 0
	for _, c := range h.charges {
		if c.Outcome.GatewayMissing {
			waits++
			require.Equal(t, 1, c.Req.Attempt, "waiting does not spend attempts")
			continue
		}
		charged = append(charged, c.At.Format("2006-01-02 15:04")+" "+c.Req.Period+fmt.Sprintf("/%d", c.Req.Attempt))
	}
	require.Equal(t, 53, waits, "hourly from the charge date until the connection is back")
	require.Equal(t, []string{
		"2027-03-12 05:00 2027-03/1", // as soon as the connection is back
		"2027-03-13 05:00 2027-03/2", // +1 day from then, approved
		"2027-04-10 00:00 2027-04/1",
	}, charged)
	st := h.state()
	require.Equal(t, StatusDiscarded, st.Status)
	require.True(t, st.Recent[0].Approved)
	require.Equal(t, 0, st.ConsecutiveFailed)
}

// TestChargePausesAfterAWeekWithoutGateway: a connection not back within GatewayGrace pauses the
// donation with gateway_disconnected, having charged nothing.
func TestChargePausesAfterAWeekWithoutGateway(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 3, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	h.decide = func(ChargeRequest, int) ChargeResult { return ChargeResult{GatewayMissing: true} }
	var paused State
	h.at(date(2027, 3, 18), func() { paused = h.state() })
	h.at(date(2027, 4, 20), func() { h.update(UpdateDiscard, false, DiscardRequest{Reason: "end"}) })
	h.run(Input{})

	require.Equal(t, StatusPaused, paused.Status)
	require.Equal(t, PausedGatewayDisconnected, paused.PausedReason)
	last := h.charges[len(h.charges)-1]
	require.Equal(t, date(2027, 3, 17), last.At, "the last try is a week after the charge date")
	for _, c := range h.charges {
		require.True(t, c.Outcome.GatewayMissing)
	}
	require.Len(t, h.charges, 7*24+1)
}

// TestApprovedPeriodsNeedNoBookkeepingActivity: a new run loads and writes its row in one local
// activity (OpenDonation), and each approved charge writes the row as the workflow then holds it
// (SyncOnApproval), so a year of approved periods runs no SyncDonation; a period left unpaid is
// synced by the workflow.
func TestApprovedPeriodsNeedNoBookkeepingActivity(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2028, 1, 2).Add(10*time.Hour), Snapshot{
		Amount: 150000, CollectDay: 10, Email: "ana@example.org", PaymentMethod: card("a", 12, 2031)})
	h.decide = func(r ChargeRequest, n int) ChargeResult {
		if r.Period == "2028-03" {
			return ChargeResult{Status: "rejected", StatusDetail: "cc_rejected_insufficient_amount"}
		}
		return ChargeResult{Status: "approved", PaymentID: "p"}
	}
	h.run(Input{})
	h.env.AssertNotCalled(t, "LoadDonation", mock.Anything, mock.Anything, mock.Anything)
	h.env.AssertNumberOfCalls(t, "OpenDonation", 1)
	h.env.AssertNumberOfCalls(t, "SyncDonation", 1) // March, unpaid after its four attempts
	require.Len(t, h.charges, 11+4)
	for _, c := range h.charges {
		require.NotNil(t, c.Req.SyncOnApproval)
		require.Equal(t, collectday.PeriodOf(c.At).Next(), c.Req.SyncOnApproval.NextPeriod, c.Req.Period)
		require.Zero(t, c.Req.SyncOnApproval.ConsecutiveFailed)
	}
	require.Len(t, h.synced, 1+11+1, "the open, a row per approved period, March's")
	require.Equal(t, 1, h.synced[3].ConsecutiveFailed, "March")
	require.Equal(t, collectday.Period{Year: 2028, Month: time.April}, h.synced[3].NextPeriod)
	last := h.synced[len(h.synced)-1]
	require.Equal(t, collectday.Period{Year: 2029, Month: time.January}, last.NextPeriod)
	require.Zero(t, last.ConsecutiveFailed)
}

// TestChargeFallsBackToTheActivity: each charge attempt is tried first as a local activity; one that
// try cannot settle (an outcome the read-back cannot find yet) goes on as the regular activity with
// the same request, so the same attempt and gateway key, and its answer settles the period. The
// next period is local again.
func TestChargeFallsBackToTheActivity(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 1, 2), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	h.localFails = func(r ChargeRequest) bool { return r.Period == "2027-01" }
	h.at(date(2027, 2, 20), func() { h.update(UpdateDiscard, false, DiscardRequest{}) })
	h.run(Input{})

	require.Len(t, h.charges, 3)
	try, fallback, february := h.charges[0], h.charges[1], h.charges[2]
	require.True(t, try.Local && try.Failed, "January's local try fails")
	require.False(t, fallback.Local, "January goes on as an activity")
	same := func(r ChargeRequest) ChargeRequest { r.SyncOnApproval = nil; return r }
	require.Equal(t, same(try.Req), same(fallback.Req), "the same attempt, so the same gateway key")
	require.NotNil(t, fallback.Req.SyncOnApproval, "the activity writes the approved period's row as the try would have")
	require.True(t, fallback.Outcome.Approved())
	require.Equal(t, date(2027, 1, 10), fallback.At, "at once")
	require.True(t, february.Local && february.Outcome.Approved(), "February is charged locally")
	st := h.state()
	require.Equal(t, []collectday.Period{{Year: 2027, Month: time.January}, {Year: 2027, Month: time.February}},
		[]collectday.Period{st.Recent[0].Period, st.Recent[1].Period})
	require.True(t, st.Recent[0].Approved && st.Recent[1].Approved)
	require.Equal(t, 1, st.Recent[0].Attempts)
}
