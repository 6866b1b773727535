package centralpos_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/centralpos"
	"github.com/aporta/aporta/internal/gateway/gatewaytest"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/money"
)

// merchant links a new CentralPos merchant in country at a sandbox of its own and answers its
// account (in currency) and credentials.
func merchant(t *testing.T, country, currency string) (*httptest.Server, *centralpos.Account, gateway.Credentials) {
	t.Helper()
	srv := sandboxtest.Serve(t, sandbox.Options{})
	cfg := centralpos.Config{BaseURL: srv.URL + "/centralpos/v1", PartnerKey: sandbox.DefaultPartnerKey}
	cp, err := centralpos.New(cfg)
	require.NoError(t, err)
	creds, err := cp.Connect(context.Background(), newCode(t, srv.URL, "Fundación Sur", country))
	require.NoError(t, err)
	acct, err := centralpos.NewAccount(cfg, creds.AccessToken, currency)
	require.NoError(t, err)
	return srv, acct, creds
}

// token tokenises a card as the donor's browser does (sandboxtest.CentralPosToken).
func token(t *testing.T, base, publishableKey, number, holder string) string {
	t.Helper()
	return sandboxtest.CentralPosToken(t, base+"/centralpos/v1", publishableKey, number, holder)
}

func TestAccountChargesTokensAndInstruments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, acct, creds := merchant(t, "AR", "ARS")

	// A debit Visa of Argentina is "debvisa", as Aporta names it.
	cust, err := acct.EnsureCustomer(ctx, gateway.Customer{Email: "ana@example.org", FirstName: "Ana", LastName: "Paz", IDType: "DNI", IDNumber: "12345678"})
	require.NoError(t, err)
	again, err := acct.EnsureCustomer(ctx, gateway.Customer{Email: "ANA@example.org"})
	require.NoError(t, err)
	require.Equal(t, cust.ID, again.ID, "one customer per e-mail")
	saved, err := acct.SaveCard(ctx, cust.ID, token(t, srv.URL, creds.PublicKey, "4002768694395619", "APRO"))
	require.NoError(t, err)
	require.Equal(t, "debvisa", saved.PaymentMethodID)
	require.Equal(t, "400276", saved.FirstSix)

	// A first charge with a fresh token, then a monthly one with the saved instrument.
	tok := token(t, srv.URL, creds.PublicKey, "4509953566233704", "APRO")
	first := gateway.Charge{IdempotencyKey: "k-1", ExternalReference: "ref-1", Amount: money.New(150050, "ARS"), Token: tok, CustomerID: cust.ID}
	p := gatewaytest.ChargeOnce(t, acct, first)

	// The same key for another request is refused.
	other := first
	other.Amount = money.New(1000, "ARS")
	_, err = acct.Charge(ctx, other)
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusConflict, gerr.Status)

	monthly, err := acct.Charge(ctx, gateway.Charge{IdempotencyKey: "d/2026-11", ExternalReference: "d/2026-11",
		Amount: money.New(5000, "ARS"), CardID: saved.ID, CustomerID: cust.ID})
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, monthly.Status)

	read, err := acct.Payment(ctx, monthly.ID)
	require.NoError(t, err)
	require.Equal(t, "d/2026-11", read.ExternalReference)

	// Refunds: part, then the rest.
	rf, err := acct.Refund(ctx, gateway.RefundRequest{PaymentID: p.ID, Amount: money.New(50, "ARS"), IdempotencyKey: "r-1"})
	require.NoError(t, err)
	require.Equal(t, money.New(50, "ARS"), rf.Amount)
	_, err = acct.Refund(ctx, gateway.RefundRequest{PaymentID: p.ID, IdempotencyKey: "r-2"})
	require.NoError(t, err)
	read, err = acct.Payment(ctx, p.ID)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusRefunded, read.Status)

	// Another currency is refused before anything is sent.
	_, err = acct.Charge(ctx, gateway.Charge{IdempotencyKey: "x", ExternalReference: "x", Amount: money.New(100, "BRL"), CardID: saved.ID})
	require.Error(t, err)
}

func TestAccountDeclinesAndRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, acct, creds := merchant(t, "AR", "ARS")
	cust, err := acct.EnsureCustomer(ctx, gateway.Customer{Email: "luis@example.org"})
	require.NoError(t, err)

	for holder, want := range map[string]struct {
		detail string
		paused gateway.PausedReason
	}{
		"FUND": {"insufficient_funds", ""},
		"DISA": {"card_disabled", gateway.PausedCardCancelled},
		"BLAC": {"stolen_card", gateway.PausedStolenIssue},
	} {
		p, err := acct.Charge(ctx, gateway.Charge{IdempotencyKey: "k-" + holder, ExternalReference: holder, Amount: money.New(1000, "ARS"),
			Token: token(t, srv.URL, creds.PublicKey, "5031755734530604", holder)})
		require.NoError(t, err)
		require.Equal(t, gateway.StatusRejected, p.Status, holder)
		require.Equal(t, want.detail, p.StatusDetail, holder)
		require.Equal(t, want.paused, p.PausedReason, holder)
	}

	// A token is single use, and never another merchant's.
	tok := token(t, srv.URL, creds.PublicKey, "4509953566233704", "APRO")
	_, err = acct.SaveCard(ctx, cust.ID, tok)
	require.NoError(t, err)
	_, err = acct.SaveCard(ctx, cust.ID, tok)
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusUnprocessableEntity, gerr.Status)

	// An unknown instrument is a 404 (collection pauses the donation: the card is gone).
	_, err = acct.Charge(ctx, gateway.Charge{IdempotencyKey: "k-gone", ExternalReference: "gone", Amount: money.New(1000, "ARS"), CardID: "ins_gone"})
	require.True(t, errors.Is(err, gateway.ErrNotFound), err)

	// The browser's tokeniser refuses a bad number in CentralPos's terms, and an unknown key.
	status, out := sandboxtest.CentralPosTokenize(t, srv.URL+"/centralpos/v1", creds.PublicKey, "4509953566233705", "APRO")
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Equal(t, "invalid_number", out["error"].(map[string]any)["code"])
	status, _ = sandboxtest.CentralPosTokenize(t, srv.URL+"/centralpos/v1", "pk_test_unknown", "4509953566233704", "APRO")
	require.Equal(t, http.StatusUnauthorized, status)
}

func TestAccountBrandsAndLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, acct, _ := merchant(t, "AR", "ARS")
	methods, err := acct.PaymentMethods(ctx)
	require.NoError(t, err)
	rules := card.NewRules(methods)
	for number, brand := range map[string]card.Brand{
		"4509953566233704": card.Visa, "5031755734530604": card.Mastercard, "4002768694395619": card.DebVisa,
		"371180303257522": card.Amex,
	} {
		r, ok := rules.Detect(number)
		require.True(t, ok, number)
		require.Equal(t, brand, r.Brand, number)
	}
	l, err := acct.AmountLimits(ctx)
	require.NoError(t, err)
	require.Equal(t, money.New(1000, "ARS"), l.Min)
	require.Equal(t, money.New(800000, "ARS"), l.Max)
	pm, err := acct.PaymentMethod(ctx, "400276")
	require.NoError(t, err)
	require.Equal(t, "debvisa", pm.ID)
}
