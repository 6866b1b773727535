package payouts_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/workflows/payouts"
	"github.com/aporta/aporta/workflows/payouts/payoutstest"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// TestPayoutCycles runs an organisation's payout cycles on the stack against a dLocal sandbox of the
// test's own: a payout waits for a bank account and says why; it then pays the net of the charges
// (less commission and processor fee) once, recorded in the sandbox's ledger under the payout's id;
// a second cycle pays nothing twice; a charge refunded after it was paid out is deducted from the
// next payout, and a net that is not positive is carried forward.
func TestPayoutCycles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := sandboxtest.Serve(t, sandbox.Options{})
	w := payoutstest.New(t, srv.URL, [16]byte{})
	cycles := w.Worker()
	cycle := func() { t.Helper(); require.NoError(t, cycles.RunCycle(ctx, w.Scope.OrgID)) }

	// Nothing charged: no payout.
	cycle()
	require.Empty(t, w.Payouts())

	a, b := w.Donate(100000), w.Donate(250000)
	cycle()
	ps := w.Payouts()
	require.Len(t, ps, 1)
	first := ps[0]
	require.Equal(t, payouts.StatusWaiting, first.Status)
	require.Equal(t, payouts.CodeNoBankAccount, *first.WaitReason)
	require.Equal(t, a.Net()+b.Net(), first.NetMinor)
	require.Equal(t, int64(350000), first.GrossMinor)
	require.Equal(t, int64(3500+8750), first.CommissionMinor)
	require.Equal(t, int64(3990+9975), first.FeeMinor)
	require.EqualValues(t, 2, first.Charges)
	require.Empty(t, w.Ledger(), "no payout without a bank account")

	w.BankAccount()
	cycle()
	ps = w.Payouts()
	require.Len(t, ps, 1, "the waiting payout is the one paid")
	require.Equal(t, first.ID, ps[0].ID)
	require.Equal(t, payouts.StatusPaid, ps[0].Status)
	require.Equal(t, "5201", *ps[0].BankLast4)
	ledger := w.Ledger()
	require.Len(t, ledger, 1)
	require.Equal(t, first.ID.String(), ledger[0].ExternalID)
	require.Equal(t, payoutstest.Decimal(a.Net()+b.Net()), ledger[0].Amount)
	require.Equal(t, "ARS", ledger[0].Currency)
	require.Equal(t, "****5201", ledger[0].Beneficiary["account"])
	require.Equal(t, "30-71234567-8", ledger[0].Beneficiary["document"])

	// Again: nothing new, nothing paid twice.
	cycle()
	require.Len(t, w.Payouts(), 1)
	require.Len(t, w.Ledger(), 1)

	// A refund of a paid-out charge outweighs a small new charge: nothing paid, carried forward.
	w.Refund(a)
	c := w.Donate(50000)
	require.Less(t, c.Net()-a.Net(), int64(0))
	cycle()
	require.Len(t, w.Payouts(), 1)
	require.Len(t, w.Ledger(), 1)

	// A larger charge later: the next payout pays both new charges less the refunded one.
	d := w.Donate(300000)
	cycle()
	ps = w.Payouts()
	require.Len(t, ps, 2)
	second := ps[0]
	require.Equal(t, payouts.StatusPaid, second.Status)
	require.Equal(t, c.Net()+d.Net()-a.Net(), second.NetMinor)
	require.Equal(t, a.Net(), second.DeductedMinor)
	require.EqualValues(t, 2, second.Charges)
	ledger = w.Ledger()
	require.Len(t, ledger, 2)
	require.Equal(t, second.ID.String(), ledger[1].ExternalID)
	require.Equal(t, payoutstest.Decimal(c.Net()+d.Net()-a.Net()), ledger[1].Amount)

	items, err := w.Scope.Store().PayoutItems(ctx, sharddb.PayoutItemsParams{OrganizationID: w.Scope.OrgID, PayoutID: second.ID})
	require.NoError(t, err)
	kinds := map[string]string{}
	for _, it := range items {
		kinds[it.TransactionID.String()+"/"+it.Kind] = it.TransactionStatus
	}
	require.Equal(t, map[string]string{a.TransactionID.String() + "/reversal": "refunded", c.TransactionID.String() + "/charge": "approved",
		d.TransactionID.String() + "/charge": "approved"}, kinds)

	// The refund is deducted once: another cycle changes nothing.
	cycle()
	require.Len(t, w.Payouts(), 2)
	require.Len(t, w.Ledger(), 2)
}

// TestPayoutWaitsForAnAccountInItsCurrency: an active account in another currency holds the payout
// back with its reason.
func TestPayoutWaitsForAnAccountInItsCurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := sandboxtest.Serve(t, sandbox.Options{})
	w := payoutstest.New(t, srv.URL, [16]byte{})
	acct := w.BankAccount()
	require.NoError(t, w.Scope.Exec(ctx, `UPDATE bank_accounts SET currency = 'USD' WHERE organization_id = $1 AND id = $2`, w.Scope.OrgID, acct.ID))
	w.Donate(100000)
	_, err := w.Activities().Prepare(ctx, payouts.Input{OrganizationID: w.Scope.OrgID.String()})
	require.NoError(t, err)
	ps := w.Payouts()
	require.Len(t, ps, 1)
	require.Equal(t, payouts.StatusWaiting, ps[0].Status)
	require.Equal(t, payouts.CodeBankAccountCurrency, *ps[0].WaitReason)
	require.Nil(t, ps[0].BankLast4)
}

// TestUnknownOutcomeIsReadBack: a payout whose answer is lost is read back by its external id: when
// dLocal made it (the answer failed after the record) it is recorded as paid, when it did not (the
// request failed first) it is asked again; either way it is paid exactly once.
func TestUnknownOutcomeIsReadBack(t *testing.T) {
	t.Parallel()
	for _, afterCommit := range []bool{true, false} {
		ctx := context.Background()
		srv := sandboxtest.Serve(t, sandbox.Options{})
		w := payoutstest.New(t, srv.URL, [16]byte{})
		w.BankAccount()
		c := w.Donate(120000)
		w.SetFault(sandbox.Fault{Mode: "error500", Count: 1, AfterCommit: afterCommit})
		require.NoError(t, w.Worker().RunCycle(ctx, w.Scope.OrgID))
		ps := w.Payouts()
		require.Len(t, ps, 1)
		require.Equal(t, payouts.StatusPaid, ps[0].Status, "after commit %v", afterCommit)
		ledger := w.Ledger()
		require.Len(t, ledger, 1, "after commit %v: paid once", afterCommit)
		require.Equal(t, payoutstest.Decimal(c.Net()), ledger[0].Amount)
		require.Equal(t, ps[0].ID.String(), ledger[0].ExternalID)
		if !afterCommit && os.Getenv("APORTA_SAVE_HISTORY") != "" {
			workflowtest.SaveHistory(t, workflowtest.Client(t), payouts.CycleID(w.Scope.OrgID.String()), "", "testdata/cycle_pay_retried.json")
		}
	}
}
