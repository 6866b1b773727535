package donation

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
	"go.temporal.io/api/serviceerror"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/newdonation"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/thanks"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/firstcharge"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// TestSettleFirstChargeReadsBackWhatTheRequestLeftPending plays the firstcharge workflow's checks
// (its activity, as the worker runs it) against donations whose form request ended without
// knowing the charge's outcome: one charged at the gateway but never recorded (the API died, say),
// one never charged.
func TestSettleFirstChargeReadsBackWhatTheRequestLeftPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	scope := tenantstest.ArgentineOrganization(t, tt, "Fundación Guardia", "enabled", "essential_monthly")
	org := scope.OrgID
	campaigns := campaign.NewService(tt)
	cp, err := campaigns.CreateFromInput(ctx, org, campaign.Input{Title: "Campaña guardia", Type: "fundraise", Channel: "public",
		AllowOneTime: true, Amounts: []campaign.Amount{{Amount: "1500"}}})
	require.NoError(t, err)
	_, err = campaigns.SetPublished(ctx, org, cp.ID, true)
	require.NoError(t, err)
	form, err := campaigns.FormBySlug(ctx, cp.Slug)
	require.NoError(t, err)

	// A gateway of this test's own, so its faults touch no other test.
	gwSrv := sandboxtest.Serve(t, sandbox.Options{PlatformToken: "TEST-guard"})
	// The organisation's own account at that gateway, connected as an administrator would.
	store, _, err := sandboxauth.ConnectAt(ctx, cfg, gwSrv.URL, scope, "GUARD")
	require.NoError(t, err)
	clients := &connections.Clients{Store: store, Tenants: tt, BaseURL: gwSrv.URL}
	mailer := outbox.NewMailer(cfg, tt.Directory())
	svc := NewService(Deps{Forms: campaigns, Tenants: tt, Gateways: ConnectedGateways{Clients: clients},
		Secret: cfg.Secret, Mail: mailer, PublicURL: "https://aporta.test"})
	guard := &firstcharge.Activities{Tenants: tt, Gateways: charge.Connected(clients, nil),
		Thanks: thanks.Mailer{Outbox: mailer, Receipts: thanks.Receipts{Secret: cfg.Secret}, PublicURL: "https://aporta.test"}}
	adminPost := func(path, body string) {
		res, err := http.Post(gwSrv.URL+path, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		res.Body.Close()
		require.Less(t, res.StatusCode, 300, path)
	}
	// pending submits a one-time donation whose charge fails at the gateway without moving money.
	pending := func(email string) Outcome {
		tok := sandboxtest.CardToken(t, gwSrv.URL, "", sandbox.Visa, "APRO")
		adminPost("/__sandbox/faults", `{"mode": "error500", "count": 1}`)
		out, err := svc.Create(ctx, form, Submission{Recurrency: 0, Amount: 150000, Items: []storedItem{{Amount: 150000, ItemName: "Donación", Quantity: 1}},
			Card:  CardData{Gateway: "mercadopago", Token: tok, MethodID: "visa", BIN: "450995", LastFour: "3704", ExpMonth: 11, ExpYear: time.Now().Year() + 3, HolderName: "APRO", DonorIsCardholder: true},
			Donor: Donor{FirstName: "Ana", LastName: "Pérez", Email: email}, FormValues: []storedValue{}, IdempotencyKey: uuid.NewString()})
		require.NoError(t, err)
		require.Equal(t, "unknown", out.Status)
		return out
	}
	status := func(id uuid.UUID) (donation, tx string) {
		require.NoError(t, scope.QueryRow(ctx, `SELECT d.status, t.status FROM donations d JOIN transactions t ON t.organization_id = d.organization_id
			AND t.donation_id = d.id WHERE d.organization_id = $1 AND d.id = $2`, org, id).Scan(&donation, &tx))
		return donation, tx
	}
	settle := func(id uuid.UUID, final bool) bool {
		done, err := guard.SettleFirstCharge(ctx, firstcharge.SettleRequest{Input: firstcharge.Input{OrganizationID: org.String(), DonationID: id.String()}, Final: final})
		require.NoError(t, err)
		return done
	}

	// Charged, never recorded: the check finds the payment and records it as the request would have.
	mail := "guardia." + uuid.NewString()[:8] + "@example.org"
	charged := pending(mail)
	require.False(t, settle(charged.DonationID, false), "nothing at the gateway yet")
	var customer, card string
	require.NoError(t, scope.QueryRow(ctx, `SELECT pm.customer_id, pm.card_id FROM payment_methods pm JOIN donations d ON d.organization_id = pm.organization_id
		AND d.payment_method_id = pm.id WHERE d.organization_id = $1 AND d.id = $2`, org, charged.DonationID).Scan(&customer, &card))
	gw, _, err := svc.gateways.For(ctx, org, uuid.Nil, "ARS")
	require.NoError(t, err)
	txID := charge.FirstTransactionID(charged.DonationID)
	key := charge.Transaction{ID: txID}.Key()
	_, err = gw.Charge(ctx, gateway.Charge{IdempotencyKey: key.Idempotency, ExternalReference: key.Reference,
		Amount: money.New(150000, "ARS"), CustomerID: customer, CardID: card, PaymentMethodID: "visa"})
	require.NoError(t, err)
	require.True(t, settle(charged.DonationID, false))
	d, tx := status(charged.DonationID)
	require.Equal(t, []string{"active", "approved"}, []string{d, tx})
	var thanked int
	require.NoError(t, tt.Directory().QueryRow(ctx, "SELECT count(*) FROM outbox_messages WHERE recipient = $1 AND template_type = 'donation_thanks'", mail).Scan(&thanked))
	require.Equal(t, 1, thanked, "the donor is thanked once the charge is found")
	require.True(t, settle(charged.DonationID, true), "a settled charge stays settled")
	require.Len(t, payments(t, gw, txID.String()), 1, "reading back never charges")

	// Never charged: pending until the final check, then cancelled and rejected.
	lost := pending("perdida." + uuid.NewString()[:8] + "@example.org")
	require.False(t, settle(lost.DonationID, false))
	d, tx = status(lost.DonationID)
	require.Equal(t, []string{"pending", "pending"}, []string{d, tx})
	require.True(t, settle(lost.DonationID, true))
	d, tx = status(lost.DonationID)
	require.Equal(t, []string{"rejected", "cancelled"}, []string{d, tx})
	require.Empty(t, payments(t, gw, charge.FirstTransactionID(lost.DonationID).String()))

	// A monthly donation written with its first charge planned whose request died before activating it: the check
	// activates it (its first charge due today, on its collect day), starts its collection and thanks the donor.
	planned := uuid.New()
	require.NoError(t, scope.Tx(ctx, func(tx pgx.Tx) error {
		period := collectday.PeriodOf(time.Now()).String()
		_, err := newdonation.Write(ctx, sharddb.Store(tx), newdonation.New{OrgID: org,
			Donor: newdonation.Donor{Email: "plan." + uuid.NewString()[:8] + "@example.org", FirstName: "Eva", LastName: "Plan"},
			Donation: sharddb.InsertFormDonationParams{ID: planned, CampaignID: cp.ID, AmountMinor: 90000, Currency: "ARS", Recurrence: 1,
				IdempotencyKey: ptr(uuid.NewString()), Items: []byte(`[]`), FormValues: []byte(`[]`), DonorSnapshot: []byte(`{}`)},
			Period: &period, CollectDay: collectday.Of(time.Now()), FirstStatus: "planned"})
		return err
	}))
	starts := &recordedStarts{}
	guard.Settler.Recurring = starts
	require.True(t, settle(planned, false))
	var plannedStatus string
	require.NoError(t, scope.QueryRow(ctx, `SELECT status FROM donations WHERE organization_id = $1 AND id = $2`, org, planned).Scan(&plannedStatus))
	require.Equal(t, "active", plannedStatus)
	require.Equal(t, []uuid.UUID{planned}, starts.ids, "its collection is started")
	require.True(t, settle(planned, false), "a second check finds it settled")

	// The first-charge sweep guards what a request left open, and only that: the three donations above (their
	// requests never settled them) get a guard each and are closed; one the request settled and followed up does not.
	followed, err := svc.Create(ctx, form, Submission{Recurrency: 0, Amount: 150000, Items: []storedItem{{Amount: 150000, ItemName: "Donación", Quantity: 1}},
		Card: CardData{Gateway: "mercadopago", Token: sandboxtest.CardToken(t, gwSrv.URL, "", sandbox.Visa, "APRO"), MethodID: "visa", BIN: "450995",
			LastFour: "3704", ExpMonth: 11, ExpYear: time.Now().Year() + 3, HolderName: "APRO", DonorIsCardholder: true},
		Donor: Donor{FirstName: "Ana", LastName: "Pérez", Email: "seguida." + uuid.NewString()[:8] + "@example.org"}, FormValues: []storedValue{},
		IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, "approved", followed.Status)
	open := func(id uuid.UUID) (open bool) {
		require.NoError(t, scope.QueryRow(ctx, `SELECT first_charge_open FROM donations WHERE organization_id = $1 AND id = $2`, org, id).Scan(&open))
		return open
	}
	require.True(t, open(followed.DonationID), "open until its request has followed it up")
	svc.followUp(ctx, i18n.ES, followed, "seguida@example.org")
	require.Eventually(t, func() bool { return !open(followed.DonationID) }, time.Minute, 100*time.Millisecond, "closed after its e-mails")

	temporal := workflowtest.Client(t)
	sweep := &firstcharge.Sweeper{Tenants: tt, Temporal: temporal, Organization: org}
	guarded := []uuid.UUID{charged.DonationID, lost.DonationID, planned}
	t.Cleanup(func() {
		for _, id := range guarded {
			_ = temporal.TerminateWorkflow(context.Background(), firstcharge.WorkflowID(id.String()), "", "test over")
		}
	})
	started, err := sweep.GuardOpen(ctx, time.Now().Add(-time.Hour))
	require.NoError(t, err)
	require.Zero(t, started, "nothing written before the cutoff")
	started, err = sweep.GuardOpen(ctx, time.Now().Add(time.Minute))
	require.NoError(t, err)
	require.Equal(t, len(guarded), started)
	for _, id := range guarded {
		_, err := temporal.DescribeWorkflowExecution(ctx, firstcharge.WorkflowID(id.String()), "")
		require.NoError(t, err, "guard started")
		require.False(t, open(id))
	}
	_, err = temporal.DescribeWorkflowExecution(ctx, firstcharge.WorkflowID(followed.DonationID.String()), "")
	var missing *serviceerror.NotFound
	require.ErrorAs(t, err, &missing, "no guard for a donation its request followed up")
	started, err = sweep.GuardOpen(ctx, time.Now().Add(time.Minute))
	require.NoError(t, err)
	require.Zero(t, started, "each donation is guarded once")
}

// recordedStarts records the monthly donations whose collection was started.
type recordedStarts struct{ ids []uuid.UUID }

func (r *recordedStarts) StartRecurring(_ context.Context, _, donationID uuid.UUID) error {
	r.ids = append(r.ids, donationID)
	return nil
}

func ptr[T any](v T) *T { return &v }

func payments(t *testing.T, gw Gateway, ref string) []gateway.Payment {
	t.Helper()
	ps, err := gw.FindPayments(context.Background(), ref)
	require.NoError(t, err)
	return ps
}
