package collection

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const donorActor = ActorDonorPrefix + "5d1c2b3a-0000-4000-8000-000000000001"

// A donor's pause of two months ends on its own: the donation is charged again from the period
// after the pause ends, and the version history says who paused and who resumed.
func TestPauseForMonthsResumesOnItsOwn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 3, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	var paused State
	h.at(date(2027, 3, 15), func() {
		h.update(UpdatePause, false, PauseRequest{Actor: donorActor, Reason: PausedDonorStopDebit, Months: 2})
	})
	h.at(date(2027, 3, 16), func() {
		paused = h.state()
		h.update(UpdatePause, true, PauseRequest{Actor: donorActor, Reason: PausedDonorStopDebit, Months: 4})
	})
	h.at(date(2027, 8, 20), func() { h.update(UpdateDiscard, false, DiscardRequest{Reason: "end"}) })
	h.run(Input{})

	require.Equal(t, StatusPaused, paused.Status)
	require.True(t, paused.ResumeAt.Equal(date(2027, 5, 15)), "resumes two months later: %s", paused.ResumeAt)
	// March charged before the pause; April and May skipped; resumed on 15 May, so June is next.
	require.Equal(t, []string{"2027-03-10 2027-03", "2027-06-10 2027-06", "2027-07-10 2027-07", "2027-08-10 2027-08"}, h.dates())
	var byDonor, bySystem bool
	for _, v := range h.versions {
		if v.Field != "status" {
			continue
		}
		if v.Actor == donorActor && afterField(v, "status") == StatusPaused {
			byDonor = true
			require.Equal(t, "2027-05-15", afterField(v, "resume_on"))
		}
		if v.Actor == ActorSystem && afterField(v, "status") == StatusActive {
			bySystem = true
			require.True(t, v.At.Equal(date(2027, 5, 15)), "resumed at %s", v.At)
		}
	}
	require.True(t, byDonor, "the donor's pause is in the history")
	require.True(t, bySystem, "the automatic resume is in the history")
}

// A soft decline the donor can fix e-mails them at the first decline; their new card retries the
// period at once with the next attempt (its own key), and the period is settled once.
func TestDonorCardRetriesThePeriodAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 3, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	h.decide = func(r ChargeRequest, _ int) ChargeResult {
		if r.PaymentMethod.CardID == "card-a" {
			return ChargeResult{Status: "rejected", StatusDetail: "cc_rejected_insufficient_amount"}
		}
		return ChargeResult{Status: "approved", PaymentID: "p"}
	}
	h.at(date(2027, 3, 10).Add(6*time.Hour), func() {
		h.update(UpdateChangeMethod, false, ChangePaymentMethodRequest{Actor: donorActor, PaymentMethod: card("b", 1, 2031), RetryDue: true})
	})
	h.at(date(2027, 4, 20), func() { h.update(UpdateDiscard, false, DiscardRequest{Reason: "end"}) })
	h.run(Input{})

	require.Len(t, h.charges, 3)
	require.Equal(t, 1, h.charges[0].Req.Attempt)
	require.Equal(t, "card-b", h.charges[1].Req.PaymentMethod.CardID)
	require.Equal(t, 2, h.charges[1].Req.Attempt, "the next attempt, under its own key")
	require.Equal(t, date(2027, 3, 10).Add(6*time.Hour), h.charges[1].At, "at once, not on the +1 day schedule")
	require.Equal(t, "2027-04", h.charges[2].Req.Period)
	require.Equal(t, 1, h.charges[2].Req.Attempt)
	require.Len(t, h.notices, 1, "one e-mail: at the first decline")
	require.Equal(t, DeclineNotice{OrganizationID: testOrg, DonationID: testDonation, Period: "2027-03", Attempt: 1,
		Decline: "insufficient_funds"}, h.notices[0])
	st := h.state()
	require.True(t, st.Recent[0].Approved)
	require.Equal(t, 0, st.ConsecutiveFailed)
}

// A decline that pauses the donation for its card (cancelled card) e-mails the donor; their new
// card makes the donation active again and retries the same period at once from its next attempt.
func TestDonorCardResumesACardDeclinePause(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 3, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	h.decide = func(r ChargeRequest, _ int) ChargeResult {
		if r.PaymentMethod.CardID == "card-a" {
			return ChargeResult{Status: "rejected", StatusDetail: "cc_rejected_card_disabled", PausedReason: "last_transaction_card_cancelled"}
		}
		return ChargeResult{Status: "approved", PaymentID: "p"}
	}
	var pausedSt State
	h.at(date(2027, 3, 12), func() {
		pausedSt = h.state()
		h.update(UpdateChangeMethod, false, ChangePaymentMethodRequest{Actor: donorActor, PaymentMethod: card("b", 1, 2031), RetryDue: true})
	})
	h.at(date(2027, 4, 20), func() { h.update(UpdateDiscard, false, DiscardRequest{Reason: "end"}) })
	h.run(Input{})

	require.Equal(t, StatusPaused, pausedSt.Status)
	require.Equal(t, []string{"2027-03-10 2027-03", "2027-03-12 2027-03", "2027-04-10 2027-04"}, h.dates())
	require.Equal(t, 2, h.charges[1].Req.Attempt)
	require.Len(t, h.notices, 1)
	require.Equal(t, "last_transaction_card_cancelled", h.notices[0].PausedReason)
	require.True(t, h.notices[0].Final)
	// March settled twice (declined, then retried and approved) is one period; April the second.
	st := h.state()
	require.Equal(t, 2, st.ChargedPeriods)
	require.Len(t, st.Recent, 2)
	require.True(t, st.Recent[0].Approved, "March's result is the retry's")
	require.Equal(t, 2, st.Recent[0].Attempts)
}

// Declines a new card does not fix send no e-mail; the manage area's card change (no RetryDue)
// waits for the schedule.
func TestNoNoticeForDeclinesTheDonorCannotFix(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 3, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	h.decide = func(r ChargeRequest, _ int) ChargeResult {
		if r.Attempt < 4 {
			return ChargeResult{Status: "rejected", StatusDetail: "cc_rejected_call_for_authorize"}
		}
		return ChargeResult{Status: "approved", PaymentID: "p"}
	}
	h.at(date(2027, 3, 10).Add(time.Hour), func() {
		h.update(UpdateChangeMethod, false, ChangePaymentMethodRequest{Actor: "u1", PaymentMethod: card("b", 1, 2031)})
	})
	h.at(date(2027, 3, 25), func() { h.update(UpdateDiscard, false, DiscardRequest{Reason: "end"}) })
	h.run(Input{})
	require.Equal(t, []string{"2027-03-10 2027-03", "2027-03-11 2027-03", "2027-03-13 2027-03", "2027-03-17 2027-03"}, h.dates())
	require.Empty(t, h.notices)
}

// The second e-mail goes before the last retry.
func TestNoticeBeforeTheLastRetry(t *testing.T) {
	t.Parallel()
	h := newHarness(t, date(2027, 3, 1), Snapshot{Amount: 1000, CollectDay: 10, PaymentMethod: card("a", 1, 2030)})
	h.decide = func(ChargeRequest, int) ChargeResult {
		return ChargeResult{Status: "rejected", StatusDetail: "cc_rejected_insufficient_amount"}
	}
	h.at(date(2027, 3, 25), func() { h.update(UpdateDiscard, false, DiscardRequest{Reason: "end"}) })
	h.run(Input{})
	require.Len(t, h.notices, 2)
	require.Equal(t, []int{1, 3}, []int{h.notices[0].Attempt, h.notices[1].Attempt})
	require.False(t, h.notices[0].Final)
	require.True(t, h.notices[1].Final)
}
