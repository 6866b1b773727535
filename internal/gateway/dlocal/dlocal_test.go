package dlocal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/gateway/gatewaytest"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/money"
)

func platform(base string) dlocal.Config {
	return dlocal.Config{BaseURL: base + "/dlocal", Login: sandbox.DefaultDLocalLogin, TransKey: sandbox.DefaultDLocalTransKey,
		Secret: sandbox.DefaultDLocalSecret}
}

// merchant onboards an Argentinian merchant (fee 3.99%) at a sandbox of its own.
func merchant(t *testing.T) (*httptest.Server, *dlocal.Account, dlocal.Merchant) {
	t.Helper()
	srv := sandboxtest.Serve(t, sandbox.Options{})
	m, err := dlocal.Onboard(context.Background(), platform(srv.URL), "Fundación Sur", "AR", 399)
	require.NoError(t, err)
	acct, err := dlocal.NewAccount(platform(srv.URL), m, "AR", "ARS")
	require.NoError(t, err)
	return srv, acct, m
}

// token tokenises the test Visa as the donor's browser does (sandboxtest.DLocalToken).
func token(t *testing.T, base, publicKey, holder string) string {
	t.Helper()
	return sandboxtest.DLocalToken(t, base+"/dlocal", publicKey, "4509953566233704", holder)
}

type ledger struct {
	Payments []struct {
		ID, OrderID, Status, Descriptor, Fee, Amount string
	} `json:"payments"`
	Payouts []struct {
		ExternalID, Amount, Status string
		Beneficiary                map[string]string
	} `json:"payouts"`
}

func readLedger(t *testing.T, base, login string) ledger {
	t.Helper()
	res, err := http.Get(base + "/__sandbox/dlocal/ledger?x_login=" + login)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var l ledger
	require.NoError(t, json.NewDecoder(res.Body).Decode(&l))
	return l
}

func TestChargeWithDescriptorFeeAndIdempotentOrder(t *testing.T) {
	ctx := context.Background()
	srv, acct, m := merchant(t)
	charge := gateway.Charge{ExternalReference: "don-1/2026-11", IdempotencyKey: "don-1/2026-11", Amount: money.New(150000, "ARS"),
		Description: "Donación", Email: "ana@example.org", Document: "20123456789", Token: token(t, srv.URL, m.PublicKey, "APRO"),
		Descriptor: "MP*FUNDACIONSUR"}
	// The same order is answered with its first payment, even with the (now used) token.
	gatewaytest.ChargeOnce(t, acct, charge)
	none, err := acct.FindPayments(ctx, "don-1/2026-12")
	require.NoError(t, err)
	require.Empty(t, none)

	l := readLedger(t, srv.URL, m.Login)
	require.Len(t, l.Payments, 1)
	require.Equal(t, "MP*FUNDACIONSUR", l.Payments[0].Descriptor)
	require.Equal(t, "59.85", l.Payments[0].Fee) // 3.99% of 1500.00
	require.Equal(t, "PAID", l.Payments[0].Status)

	// A browser reads the same ledger as a page.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/__sandbox/dlocal/ledger?x_login="+m.Login, nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	require.Contains(t, string(page), `<tr data-order="don-1/2026-11">`)
	require.Contains(t, string(page), `<td data-field="descriptor">MP*FUNDACIONSUR</td>`)
	require.Contains(t, string(page), `<td class="num" data-field="fee">59.85 ARS</td>`)

	// A refused card is a payment REJECTED with its status code; a refusal that will repeat pauses.
	rej, err := acct.Charge(ctx, gateway.Charge{ExternalReference: "don-2", Amount: money.New(150000, "ARS"), Email: "b@example.org",
		Document: "20123456789", Token: token(t, srv.URL, m.PublicKey, "EXPI")})
	require.NoError(t, err)
	require.Equal(t, gateway.StatusRejected, rej.Status)
	require.Equal(t, "309", rej.StatusDetail)
	require.Equal(t, gateway.PausedCardExpired, rej.PausedReason)
}

func TestSavedCardAndRefund(t *testing.T) {
	ctx := context.Background()
	srv, acct, m := merchant(t)
	cust, err := acct.EnsureCustomer(ctx, gateway.Customer{Email: "ana@example.org", IDType: "DNI", IDNumber: "20123456"})
	require.NoError(t, err)
	c, err := acct.SaveCard(ctx, cust.ID, token(t, srv.URL, m.PublicKey, "APRO"))
	require.NoError(t, err)
	require.Equal(t, "3704", c.LastFour)
	require.Equal(t, "visa", c.PaymentMethodID)
	// A monthly charge of the saved card: the payer comes with the customer.
	p, err := acct.Charge(ctx, gateway.Charge{ExternalReference: "don-3/2026-11", Amount: money.New(200000, "ARS"), Email: cust.Email,
		CustomerID: cust.ID, CardID: c.ID})
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, p.Status)
	r, err := acct.Refund(ctx, gateway.RefundRequest{PaymentID: p.ID, IdempotencyKey: "r1"})
	require.NoError(t, err)
	require.Equal(t, int64(200000), r.Amount.Minor)
	back, err := acct.Payment(ctx, p.ID)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusRefunded, back.Status)
}

func TestOutOfRangeAmountAndBadTokenAreRefusals(t *testing.T) {
	ctx := context.Background()
	srv, acct, m := merchant(t)
	limits, err := acct.AmountLimits(ctx)
	require.NoError(t, err)
	require.Equal(t, gateway.AmountLimits{Min: money.New(1000, "ARS"), Max: money.New(300000000, "ARS")}, limits) // AR: 10 to 3000000
	methods, err := acct.PaymentMethods(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, methods)
	pm, err := acct.PaymentMethod(ctx, "450995")
	require.NoError(t, err)
	require.Equal(t, "visa", pm.ID)

	_, err = acct.Charge(ctx, gateway.Charge{ExternalReference: "x", Amount: money.New(999, "ARS"), Email: "a@example.org", Document: "1",
		Token: token(t, srv.URL, m.PublicKey, "APRO")})
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusBadRequest, gerr.Status)

	_, err = acct.Charge(ctx, gateway.Charge{ExternalReference: "y", Amount: money.New(5000, "ARS"), Email: "a@example.org", Document: "1",
		Token: "CV-not-a-token"})
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, "5008", gerr.Causes[0].Code)

	// The browser's tokeniser names the field a card fails on, for the form's error field.
	status, out := sandboxtest.DLocalTokenize(t, srv.URL+"/dlocal", m.PublicKey, "4509953566233705", "APRO")
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "card.number", out["param"])
}

func TestUnknownOutcomeIsReadBackByOrder(t *testing.T) {
	ctx := context.Background()
	srv, acct, m := merchant(t)
	res, err := http.Post(srv.URL+"/__sandbox/faults", "application/json", strings.NewReader(`{"mode":"error500","count":1,"after_commit":true}`))
	require.NoError(t, err)
	res.Body.Close()
	ch := gateway.Charge{ExternalReference: "don-4/2026-11", Amount: money.New(150000, "ARS"), Email: "a@example.org", Document: "1",
		Token: token(t, srv.URL, m.PublicKey, "APRO")}
	_, err = acct.Charge(ctx, ch)
	var unknown *gateway.UnknownOutcomeError
	require.ErrorAs(t, err, &unknown)
	found, err := acct.FindPayments(ctx, ch.ExternalReference)
	require.NoError(t, err)
	require.Len(t, found, 1)
	require.Equal(t, gateway.StatusApproved, found[0].Status)
	again, err := acct.Charge(ctx, ch)
	require.NoError(t, err)
	require.Equal(t, found[0].ID, again.ID) // never a second payment for the order
	require.Len(t, readLedger(t, srv.URL, m.Login).Payments, 1)
}

func TestSignatureIsRequired(t *testing.T) {
	ctx := context.Background()
	srv, _, m := merchant(t)
	// Another secret: the sandbox refuses the signature with dLocal's 401 code 3001.
	forged, err := dlocal.NewAccount(platform(srv.URL), dlocal.Merchant{Login: m.Login, TransKey: m.TransKey, Secret: "guessed"}, "AR", "ARS")
	require.NoError(t, err)
	_, err = forged.FindPayments(ctx, "anything")
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusUnauthorized, gerr.Status)
	require.Equal(t, "3001", gerr.Causes[0].Code)

	// A correctly signed request replayed long after its X-Date is refused too.
	body := []byte(`{}`)
	date := time.Now().Add(-time.Hour).UTC().Format("2006-01-02T15:04:05.000Z")
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/dlocal/orders/x", bytes.NewReader(body))
	req.Header.Set("X-Date", date)
	req.Header.Set("X-Login", m.Login)
	req.Header.Set("X-Trans-Key", m.TransKey)
	req.Header.Set("Authorization", dlocal.Signature(m.Login, date, m.Secret, body))
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)

	// A merchant cannot onboard merchants: only the platform can.
	_, err = dlocal.Onboard(ctx, dlocal.Config{BaseURL: srv.URL + "/dlocal", Login: m.Login, TransKey: m.TransKey, Secret: m.Secret}, "X", "AR", 0)
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusForbidden, gerr.Status)
	require.False(t, errors.Is(err, gateway.ErrNotFound))
}

// A payout is made once per external id (asking again answers the first), read back by it, and
// refused when it names no bank account; the sandbox keeps only the account's last four digits.
func TestPayoutIsIdempotentAndReadBack(t *testing.T) {
	ctx := context.Background()
	_, acct, _ := merchant(t)
	req := dlocal.PayoutRequest{ExternalID: "payout-1", Amount: money.New(123456, "ARS"),
		Beneficiary: dlocal.Beneficiary{Name: "Fundación Sur", Document: "30-71234567-8", BankCode: "285", Account: "2850590940090418135201"}}
	first, err := acct.Payout(ctx, req)
	require.NoError(t, err)
	require.Equal(t, "PAID", first.Status)
	require.Equal(t, money.New(123456, "ARS"), first.Amount)
	again, err := acct.Payout(ctx, req)
	require.NoError(t, err)
	require.Equal(t, first.ID, again.ID)
	read, err := acct.PayoutByExternalID(ctx, "payout-1")
	require.NoError(t, err)
	require.Equal(t, first, read)
	_, err = acct.PayoutByExternalID(ctx, "payout-2")
	require.ErrorIs(t, err, gateway.ErrNotFound)

	req.ExternalID, req.Beneficiary.Account = "payout-3", ""
	_, err = acct.Payout(ctx, req)
	var refused *gateway.Error
	require.ErrorAs(t, err, &refused)
	require.Equal(t, http.StatusBadRequest, refused.Status)
}
