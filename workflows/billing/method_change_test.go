package billing_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/bankdebit"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/billing"
	"github.com/aporta/aporta/workflows/subscription"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// TestMethodChangedWhileADebitIsWithTheBankPaysOnce: a period's CBU debit is with the bank when the
// organisation switches to a card (the settings page's change of method, which wakes the workflow).
// The workflow's read-back and its next attempts follow the debit instead of charging the card; the
// bank confirms it and the period is paid once, by the debit, at the MEP rate it was priced at.
func TestMethodChangedWhileADebitIsWithTheBankPaysOnce(t *testing.T) {
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	ctx := context.Background()

	// The sandbox's bank clears a debit an hour after it was submitted; the test moves its clock.
	var skew atomic.Int64
	settle := sandbox.DebitSettle
	sandbox.DebitSettle = time.Hour
	t.Cleanup(func() { sandbox.DebitSettle = settle })
	srv, mp := platformGateway(t, func() time.Time { return time.Now().Add(time.Duration(skew.Load())) })

	// A subscription with a saved card, switched to CBU debit before its first period is charged.
	scope, sub := cardSubscription(t, tt, srv.URL, mp, "Billing switch")
	cardAuth := sub.AuthorizationID
	cbu, now := "2850590940090418135201", time.Now()
	cbuAuth, err := scope.Store().InsertSubscriptionAuthorization(ctx, sharddb.InsertSubscriptionAuthorizationParams{
		OrganizationID: scope.OrgID, ID: uuid.New(), Kind: "cbu", IdentityID: uuid.New(), Cbu: &cbu,
		MandateAcceptedAt: &now, ExpiresAt: now.Add(time.Hour)})
	require.NoError(t, err)
	switchTo := func(mode string, auth uuid.UUID) {
		_, err := scope.Store().ChangeSubscriptionPaymentMode(ctx, sharddb.ChangeSubscriptionPaymentModeParams{
			OrganizationID: scope.OrgID, ID: sub.ID, PaymentMode: mode, AuthorizationID: auth})
		require.NoError(t, err)
	}
	switchTo("cbu", cbuAuth.ID)

	debits := &bankdebit.Client{BaseURL: srv.URL + "/bankdebit/v1", Token: "platform-token"}
	a := &billing.Activities{Tenants: tt, Platform: &billing.PlatformAccount{Client: mp, Currency: "ARS"}, Debits: debits, Rates: rates(cfg, tt)}
	start := billing.FirstPeriodStart(sub.CreatedAt)
	ref := billing.Reference(sub.ID, start)
	attempt := func(n int) string {
		out, err := a.ChargePeriod(ctx, billing.Attempt{OrganizationID: scope.OrgID.String(), SubscriptionID: sub.ID.String(), PeriodStart: start, Number: n})
		require.NoError(t, err)
		return out
	}
	cardPayments := func() int {
		ps, err := mp.FindPayments(ctx, ref)
		require.NoError(t, err)
		return len(ps)
	}

	require.Equal(t, billing.OutcomeSubmitted, attempt(1), "the debit is with the bank")
	switchTo("card", cardAuth)
	require.Equal(t, billing.OutcomeSubmitted, attempt(1), "the read-back follows the debit")
	require.Equal(t, billing.OutcomeSubmitted, attempt(2), "so does a retry")
	require.Zero(t, cardPayments(), "the card is not charged while the debit may still pay the period")

	skew.Store(int64(2 * time.Hour)) // the bank clears the debit
	require.Equal(t, billing.OutcomePaid, attempt(2))
	require.Equal(t, billing.OutcomePaid, attempt(3), "a paid period is not charged again")
	require.Zero(t, cardPayments(), "paid once, by the debit")

	found, err := debits.Find(ctx, ref)
	require.NoError(t, err)
	require.Len(t, found, 1)
	require.Equal(t, bankdebit.Confirmed, found[0].Status)
	inv, err := scope.Store().SubscriptionInvoice(ctx, sharddb.SubscriptionInvoiceParams{OrganizationID: scope.OrgID, SubscriptionID: sub.ID, PeriodStart: start})
	require.NoError(t, err)
	require.Equal(t, "paid", inv.Status)
	require.Equal(t, found[0].ID, *inv.GatewayPaymentID)
	require.Equal(t, found[0].AmountMinor, inv.AmountMinor)
	got, err := scope.Store().OrganizationSubscription(ctx, sharddb.OrganizationSubscriptionParams{OrganizationID: scope.OrgID})
	require.NoError(t, err)
	require.True(t, got.PaidUntil.Equal(start.AddDate(0, 1, 0)), "paid through one month")

	// Priced in pesos at the MEP rate in force when the period was first charged, kept on the invoice.
	require.NotNil(t, inv.UsdPriceMinor)
	require.NotNil(t, inv.MepRateMinor)
	require.NotNil(t, inv.MepSource)
	require.NotNil(t, inv.MepAsOf)
	require.EqualValues(t, 149_00, *inv.UsdPriceMinor, "Professional monthly's list price")
	ars, err := mep.Convert(money.New(*inv.UsdPriceMinor, "USD"), money.New(*inv.MepRateMinor, "ARS"))
	require.NoError(t, err)
	require.Equal(t, ars, money.New(inv.AmountMinor, inv.Currency))
}

// TestUpgradeInThePeriodsFirstSecond: an upgrade made in the very second its period started (the
// period's invoice is keyed by that second) still gets a pro-rata invoice of its own and one charge,
// of the whole difference at the MEP rate.
func TestUpgradeInThePeriodsFirstSecond(t *testing.T) {
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	ctx := context.Background()
	srv, mp := platformGateway(t, nil)
	scope, sub := cardSubscription(t, tt, srv.URL, mp, "Billing first second")

	c := workflowtest.Client(t)
	plans := workflowtest.Worker(t, c, "billing-upgrade-plans-", func(r worker.Registry) {
		subscription.Register(r, subscription.NewActivities(cfg, tt))
	})
	t.Cleanup(func() {
		_ = c.TerminateWorkflow(context.Background(), subscription.WorkflowID(scope.OrgID.String()), "", "test over")
	})
	a := &billing.Activities{Tenants: tt, Platform: &billing.PlatformAccount{Client: mp, Currency: "ARS"}, Rates: rates(cfg, tt),
		Plans: subscription.Plans{Temporal: c, Queue: plans}}
	start := billing.FirstPeriodStart(sub.CreatedAt)
	out, err := a.ChargePeriod(ctx, billing.Attempt{OrganizationID: scope.OrgID.String(), SubscriptionID: sub.ID.String(), PeriodStart: start, Number: 1})
	require.NoError(t, err)
	require.Equal(t, billing.OutcomePaid, out)

	changeID := uuid.New()
	res, err := a.ChangePlan(ctx, billing.Change{OrganizationID: scope.OrgID.String(), SubscriptionID: sub.ID.String(),
		ChangeID: changeID.String(), PlanCode: "partner_monthly", At: start})
	require.NoError(t, err)
	require.Equal(t, billing.ChangeUpgrade, res.Kind)
	require.Equal(t, billing.OutcomePaid, res.Outcome)

	invs, err := scope.Store().SubscriptionInvoices(ctx, sharddb.SubscriptionInvoicesParams{OrganizationID: scope.OrgID})
	require.NoError(t, err)
	require.Len(t, invs, 2, "the period's invoice and the upgrade's")
	prorata := invs[0]
	require.Equal(t, "prorata", prorata.Kind)
	require.Equal(t, changeID, *prorata.ChangeID)
	require.Equal(t, res.AmountMinor, prorata.AmountMinor)
	require.NotNil(t, prorata.MepRateMinor)
	// (Nearly) the whole month left: the difference of the two list prices in pesos at the invoice's rate.
	rate := money.New(*prorata.MepRateMinor, "ARS")
	partner, err := mep.Convert(money.New(399_00, "USD"), rate)
	require.NoError(t, err)
	professional, err := mep.Convert(money.New(149_00, "USD"), rate)
	require.NoError(t, err)
	require.InEpsilon(t, partner.Minor-professional.Minor, prorata.AmountMinor, 1e-5)
	ps, err := mp.FindPayments(ctx, billing.ProrataReference(sub.ID, start, changeID))
	require.NoError(t, err)
	require.Len(t, ps, 1, "the difference charged once")
}
