package collection_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/workflows/collection"
)

// An organisation connected only to CentralPos: its monthly donation's periods are charged at its
// merchant (the card's saved instrument, CentralPos's own API), once each, even when the gateway's
// answer is lost after it charged.
func TestCentralPosCollectsAPeriodOnce(t *testing.T) {
	s := newCentralPosStack(t)
	ctx := context.Background()

	plain, _ := s.donation("APRO")
	run := s.start(plain)
	st := s.waitCharged(plain, 1)
	want := map[string]int{st.Recent[0].Period.String(): 1}
	require.Equal(t, want, s.approvedPerPeriod(plain), "one succeeded charge per period in the merchant's ledger")
	require.Equal(t, want, approvedRows(s.transactions(plain)), "one approved transaction per period")
	require.ErrorContains(t, s.refused(plain, collection.UpdateCollectNow, collection.CollectNowRequest{Actor: "it"}),
		collection.ErrNotDue.Error(), "collect-now does not charge a paid period again")

	// CentralPos charges, then the answer times out: the activity reads the charge back by its
	// reference (or repeats it under the same Idempotency-Key) and never charges the period twice.
	lost, _ := s.donation("APRO")
	s.fault(sandbox.Fault{Mode: "timeout", Count: 1, AfterCommit: true, DelayMS: 2000})
	lostRun := s.start(lost)
	st = s.waitCharged(lost, 1)
	s.fault(sandbox.Fault{Mode: "none"})
	want = map[string]int{st.Recent[0].Period.String(): 1}
	require.Equal(t, want, s.approvedPerPeriod(lost))
	require.Equal(t, want, approvedRows(s.transactions(lost)))

	s.update(plain, collection.UpdateDiscard, collection.DiscardRequest{Actor: "it", Reason: "test over"})
	s.update(lost, collection.UpdateDiscard, collection.DiscardRequest{Actor: "it", Reason: "test over"})
	require.NoError(t, run.Get(ctx, nil))
	require.NoError(t, lostRun.Get(ctx, nil))
}

// A card CentralPos declines for good (card_disabled) pauses the donation after one attempt.
func TestCentralPosDeclinePauses(t *testing.T) {
	s := newCentralPosStack(t)
	donation, run, rejected := s.pausedByHardDecline("DISA", "last_transaction_card_cancelled")
	require.Equal(t, map[string]int{rejected.Period: 0}, s.approvedPerPeriod(donation))
	s.update(donation, collection.UpdateDiscard, collection.DiscardRequest{Actor: "it"})
	require.NoError(t, run.Get(context.Background(), nil))
}
