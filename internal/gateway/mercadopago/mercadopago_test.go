package mercadopago_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/money"
)

// MercadoPago's published test cards.
const (
	visa   = "4509953566233704"
	master = "5031755734530604"
	amex   = "371180303257522"
)

// env is one sandbox served over real HTTP with an adapter pointed at it.
type env struct {
	t   *testing.T
	srv *httptest.Server
	mp  *mercadopago.Client
}

func newEnv(t *testing.T, statePath string, timeout time.Duration) *env {
	return newSiteEnv(t, statePath, "ARS", timeout)
}

// newSiteEnv is an env whose account is on the MercadoPago site of currency (ARS: MLA, BRL: MLB…).
func newSiteEnv(t *testing.T, statePath, currency string, timeout time.Duration) *env {
	t.Helper()
	srv := sandboxtest.Serve(t, sandbox.Options{StatePath: statePath, Currency: currency, PlatformToken: "TEST-token"})
	mp, err := mercadopago.New(mercadopago.Config{BaseURL: srv.URL, AccessToken: "TEST-token", Currency: currency, Timeout: timeout})
	require.NoError(t, err)
	return &env{t: t, srv: srv, mp: mp}
}

// post calls the sandbox as the browser or a test harness would, outside the adapter.
func (e *env) post(path string, in, out any) int {
	e.t.Helper()
	body, err := json.Marshal(in)
	require.NoError(e.t, err)
	resp, err := http.Post(e.srv.URL+path, "application/json", bytes.NewReader(body))
	require.NoError(e.t, err)
	defer resp.Body.Close()
	if out != nil {
		require.NoError(e.t, json.NewDecoder(resp.Body).Decode(out))
	}
	return resp.StatusCode
}

// tokenize is the browser's card tokenisation.
func (e *env) tokenize(holder, number, code string) string {
	e.t.Helper()
	var tok struct {
		ID string `json:"id"`
	}
	status := e.post("/v1/card_tokens", map[string]any{
		"card_number":      number,
		"security_code":    code,
		"expiration_month": 11,
		"expiration_year":  time.Now().Year() + 3,
		"cardholder":       map[string]any{"name": holder, "identification": map[string]string{"type": "DNI", "number": "12345678"}},
	}, &tok)
	require.Equal(e.t, http.StatusCreated, status)
	return tok.ID
}

func (e *env) sandboxPayments(ref string) []json.RawMessage {
	e.t.Helper()
	resp, err := http.Get(e.srv.URL + "/__sandbox/payments?external_reference=" + ref)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	var out []json.RawMessage
	require.NoError(e.t, json.NewDecoder(resp.Body).Decode(&out))
	return out
}

func ars(minor int64) money.Amount { return money.Amount{Minor: minor, Currency: "ARS"} }

func charge(ref, token string) gateway.Charge {
	return gateway.Charge{
		IdempotencyKey:    "key-" + ref,
		ExternalReference: ref,
		Amount:            ars(150050),
		Description:       "Donación mensual",
		Email:             "donor@example.org",
		Token:             token,
		Metadata:          map[string]string{"donation": ref},
	}
}

func TestCustomerCardAndRecurringCharge(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "", 0)
	ctx := context.Background()

	// Two first donations from the same donor race to create the customer.
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			c, err := e.mp.EnsureCustomer(ctx, gateway.Customer{Email: "ana@example.org", FirstName: "Ana", LastName: "Paz", IDType: "DNI", IDNumber: "30111222"})
			require.NoError(t, err)
			ids[i] = c.ID
		})
	}
	wg.Wait()
	for _, id := range ids {
		require.Equal(t, ids[0], id)
	}

	token := e.tokenize("APRO", visa, "123")
	card, err := e.mp.SaveCard(ctx, ids[0], token)
	require.NoError(t, err)
	require.Equal(t, gateway.Card{
		ID: card.ID, CustomerID: ids[0], PaymentMethodID: "visa", FirstSix: "450995", LastFour: "3704",
		ExpirationMonth: 11, ExpirationYear: time.Now().Year() + 3, HolderName: "APRO",
	}, card)
	again, err := e.mp.SaveCard(ctx, ids[0], e.tokenize("APRO", visa, "123"))
	require.NoError(t, err)
	require.Equal(t, card.ID, again.ID, "the same card is saved once")

	// A monthly charge uses the saved card, no browser involved.
	p, err := e.mp.Charge(ctx, gateway.Charge{
		IdempotencyKey: "month-1", ExternalReference: "donation-1/2025-01", Amount: ars(50000),
		CustomerID: ids[0], CardID: card.ID, PaymentMethodID: "visa",
	})
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, p.Status)
	require.Equal(t, ars(50000), p.Amount)

	_, err = e.mp.SaveCard(ctx, "no-such-customer", token)
	require.ErrorIs(t, err, gateway.ErrNotFound)
}

func TestOutcomesByCardholderName(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "", 0)
	for _, tc := range []struct {
		holder string
		status gateway.Status
		detail string
		paused gateway.PausedReason
	}{
		{"APRO", gateway.StatusApproved, "accredited", ""},
		{"OTHE", gateway.StatusRejected, "cc_rejected_other_reason", ""},
		{"CONT", gateway.StatusInProcess, "pending_contingency", ""},
		{"CALL", gateway.StatusRejected, "cc_rejected_call_for_authorize", ""},
		{"FUND", gateway.StatusRejected, "cc_rejected_insufficient_amount", ""},
		{"SECU", gateway.StatusRejected, "cc_rejected_bad_filled_security_code", gateway.PausedMissingCode},
		{"EXPI", gateway.StatusRejected, "cc_rejected_bad_filled_date", gateway.PausedCardExpired},
		{"FORM", gateway.StatusRejected, "cc_rejected_bad_filled_other", gateway.PausedMethodInvalid},
		{"DISA", gateway.StatusRejected, "cc_rejected_card_disabled", gateway.PausedCardCancelled},
		{"RISK", gateway.StatusRejected, "cc_rejected_high_risk", gateway.PausedHighRisk},
		{"BLAC", gateway.StatusRejected, "cc_rejected_blacklist", gateway.PausedStolenIssue},
	} {
		t.Run(tc.holder, func(t *testing.T) {
			t.Parallel()
			ref := "outcome-" + tc.holder
			p, err := e.mp.Charge(context.Background(), charge(ref, e.tokenize(tc.holder, master, "123")))
			require.NoError(t, err, "a decline is an outcome, not an error")
			require.Equal(t, tc.status, p.Status)
			require.Equal(t, tc.detail, p.StatusDetail)
			require.Equal(t, tc.paused, p.PausedReason)
			require.Equal(t, ars(150050), p.Amount)
			require.Equal(t, ref, p.ExternalReference)
			require.WithinDuration(t, time.Now(), p.CreatedAt, time.Minute)

			read, err := e.mp.Payment(context.Background(), p.ID)
			require.NoError(t, err)
			require.Equal(t, p, read)
		})
	}
}

func TestRefusalsCarryCauses(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "", 0)
	ctx := context.Background()

	_, err := e.mp.Charge(ctx, charge("bad-token", "not-a-token"))
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusBadRequest, gerr.Status)
	require.Equal(t, []gateway.Cause{{Code: "2006", Description: "Card Token not found"}}, gerr.Causes)
	require.Equal(t, gateway.KeySubmitFailed, gerr.Key)

	// The browser's tokeniser answers with the §8 codes, first cause first.
	var body struct {
		Cause []struct{ Code, Description string }
	}
	status := e.post("/v1/card_tokens", map[string]any{
		"card_number": "4509953566233705", "security_code": "12", "expiration_month": 13,
		"expiration_year": time.Now().Year() + 1, "cardholder": map[string]any{"name": "APRO", "identification": map[string]string{"type": "DNI", "number": "1"}},
	}, &body)
	require.Equal(t, http.StatusBadRequest, status)
	var codes []string
	for _, c := range body.Cause {
		codes = append(codes, c.Code)
	}
	require.Equal(t, []string{"E301", "E302", "325", "324"}, codes)

	_, err = e.mp.Payment(ctx, "424242")
	require.ErrorIs(t, err, gateway.ErrNotFound)

	_, err = e.mp.Charge(ctx, gateway.Charge{IdempotencyKey: "k", ExternalReference: "r", Amount: money.Amount{Minor: 100, Currency: "CLP"}, Token: "t"})
	require.ErrorContains(t, err, "ARS account")
}

func TestIdempotencyKeyChargesOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "", 0)
	ctx := context.Background()
	c := charge("idem-1", e.tokenize("APRO", visa, "123"))

	first, err := e.mp.Charge(ctx, c)
	require.NoError(t, err)
	second, err := e.mp.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, first, second)
	require.Len(t, e.sandboxPayments("idem-1"), 1)

	c = charge("idem-20", e.tokenize("APRO", visa, "123"))
	ids := make([]string, 20)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			p, err := e.mp.Charge(ctx, c)
			require.NoError(t, err)
			ids[i] = p.ID
		})
	}
	wg.Wait()
	for _, id := range ids {
		require.Equal(t, ids[0], id)
	}
	require.Len(t, e.sandboxPayments("idem-20"), 1)
}

func TestUnknownOutcomeIsResolvedByReadingBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fault     sandbox.Fault
		committed bool
	}{
		{sandbox.Fault{Mode: "timeout", Count: 1, DelayMS: 5000, AfterCommit: true}, true},
		{sandbox.Fault{Mode: "error500", Count: 1, AfterCommit: true}, true},
		{sandbox.Fault{Mode: "timeout", Count: 1, DelayMS: 5000}, false},
		{sandbox.Fault{Mode: "error500", Count: 1}, false},
	} {
		t.Run(fmt.Sprintf("%s/after_commit=%v", tc.fault.Mode, tc.fault.AfterCommit), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "", 300*time.Millisecond)
			ctx := context.Background()
			ref := "unknown-" + tc.fault.Mode
			c := charge(ref, e.tokenize("APRO", amex, "1234"))
			require.Equal(t, http.StatusNoContent, e.post("/__sandbox/faults", tc.fault, nil))

			_, err := e.mp.Charge(ctx, c)
			var unknown *gateway.UnknownOutcomeError
			require.ErrorAs(t, err, &unknown)

			found, err := e.mp.FindPayments(ctx, ref)
			require.NoError(t, err)
			if tc.committed {
				require.Len(t, found, 1)
				require.Equal(t, gateway.StatusApproved, found[0].Status)
			} else {
				require.Empty(t, found, "nothing happened, so charging again is safe")
			}

			// Retrying with the same key never makes a second payment.
			p, err := e.mp.Charge(ctx, c)
			require.NoError(t, err)
			if tc.committed {
				require.Equal(t, found[0], p)
			}
			require.Len(t, e.sandboxPayments(ref), 1)
		})
	}
}

func TestRefund(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "", 0)
	ctx := context.Background()
	p, err := e.mp.Charge(ctx, charge("refund-1", e.tokenize("APRO", visa, "123")))
	require.NoError(t, err)

	partial := gateway.RefundRequest{PaymentID: p.ID, Amount: ars(50025), IdempotencyKey: "refund-1-a"}
	r, err := e.mp.Refund(ctx, partial)
	require.NoError(t, err)
	require.Equal(t, ars(50025), r.Amount)
	require.Equal(t, p.ID, r.PaymentID)
	again, err := e.mp.Refund(ctx, partial)
	require.NoError(t, err)
	require.Equal(t, r, again, "a retried refund is not given twice")

	read, err := e.mp.Payment(ctx, p.ID)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, read.Status)
	require.Equal(t, "partially_refunded", read.StatusDetail)

	rest, err := e.mp.Refund(ctx, gateway.RefundRequest{PaymentID: p.ID, IdempotencyKey: "refund-1-b"})
	require.NoError(t, err)
	require.Equal(t, ars(100025), rest.Amount, "a zero amount refunds what is left")
	read, err = e.mp.Payment(ctx, p.ID)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusRefunded, read.Status)

	_, err = e.mp.Refund(ctx, gateway.RefundRequest{PaymentID: p.ID, IdempotencyKey: "refund-1-c"})
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusBadRequest, gerr.Status)
}

// requireMethod asserts the BIN search's answer for bin.
func (e *env) requireMethod(bin string, want gateway.PaymentMethod) {
	e.t.Helper()
	got, err := e.mp.PaymentMethod(context.Background(), bin)
	require.NoError(e.t, err, bin)
	require.Equal(e.t, want, got, bin)
}

func TestPaymentMethodByBIN(t *testing.T) {
	t.Parallel()
	// Brands are the account's site's: Elo and Hipercard are Brazilian, Naranja and Cabal Argentine.
	br := newSiteEnv(t, "", "BRL", 0)
	for bin, want := range map[string]gateway.PaymentMethod{
		"636368": {ID: "elo", Name: "Elo", PaymentType: "credit_card", CardNumberLength: 16, SecurityCodeLength: 3},
		"606282": {ID: "hipercard", Name: "Hipercard", PaymentType: "credit_card", CardNumberLength: 13, SecurityCodeLength: 3},
		"506776": {ID: "debelo", Name: "Elo Débito", PaymentType: "debit_card", CardNumberLength: 16, SecurityCodeLength: 3},
	} {
		br.requireMethod(bin, want)
	}
	_, err := br.mp.PaymentMethod(context.Background(), "627170")
	require.ErrorIs(t, err, gateway.ErrNotFound, "cabal is not a Brazilian brand")

	e := newEnv(t, "", 0)
	for bin, want := range map[string]gateway.PaymentMethod{
		"450995":   {ID: "visa", Name: "Visa", PaymentType: "credit_card", CardNumberLength: 16, SecurityCodeLength: 3},
		"45099535": {ID: "visa", Name: "Visa", PaymentType: "credit_card", CardNumberLength: 16, SecurityCodeLength: 3},
		"222100":   {ID: "mastercard", Name: "Mastercard", PaymentType: "credit_card", CardNumberLength: 16, SecurityCodeLength: 3},
		"550000":   {ID: "mastercard", Name: "Mastercard", PaymentType: "credit_card", CardNumberLength: 16, SecurityCodeLength: 3},
		"371180":   {ID: "amex", Name: "American Express", PaymentType: "credit_card", CardNumberLength: 15, SecurityCodeLength: 4},
		"589562":   {ID: "naranja", Name: "Naranja", PaymentType: "credit_card", CardNumberLength: 16, SecurityCodeLength: 3},
		"604201":   {ID: "cabal", Name: "Cabal", PaymentType: "credit_card", CardNumberLength: 16, SecurityCodeLength: 3},
		"360000":   {ID: "diners", Name: "Diners", PaymentType: "credit_card", CardNumberLength: 14, SecurityCodeLength: 3},
		"503175":   {ID: "mastercard", Name: "Mastercard", PaymentType: "credit_card", CardNumberLength: 16, SecurityCodeLength: 3},
		"528733":   {ID: "debmaster", Name: "Mastercard Débito", PaymentType: "debit_card", CardNumberLength: 16, SecurityCodeLength: 3},
	} {
		e.requireMethod(bin, want)
	}
	_, err = e.mp.PaymentMethod(context.Background(), "999999")
	require.ErrorIs(t, err, gateway.ErrNotFound)
}

func TestStateSurvivesRestartWithoutCardData(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.json")
	ctx := context.Background()

	e := newEnv(t, path, 0)
	cust, err := e.mp.EnsureCustomer(ctx, gateway.Customer{Email: "luz@example.org"})
	require.NoError(t, err)
	card, err := e.mp.SaveCard(ctx, cust.ID, e.tokenize("APRO", master, "987"))
	require.NoError(t, err)
	c := charge("restart-1", e.tokenize("FUND", amex, "4321"))
	p, err := e.mp.Charge(ctx, c)
	require.NoError(t, err)
	e.srv.Close()

	e = newEnv(t, path, 0)
	read, err := e.mp.Payment(ctx, p.ID)
	require.NoError(t, err)
	require.Equal(t, p, read)
	again, err := e.mp.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, p, again, "idempotency keys survive a restart")
	same, err := e.mp.EnsureCustomer(ctx, gateway.Customer{Email: "luz@example.org"})
	require.NoError(t, err)
	require.Equal(t, cust.ID, same.ID)
	_, err = e.mp.Charge(ctx, gateway.Charge{IdempotencyKey: "restart-2", ExternalReference: "restart-2", Amount: ars(1000), CustomerID: cust.ID, CardID: card.ID})
	require.NoError(t, err, "saved cards survive a restart")

	state, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, secret := range []string{master, amex, `"987"`, `"4321"`, `"security_code"`, `"card_number"`} {
		require.NotContains(t, string(state), secret)
	}
	require.Contains(t, string(state), `"last_four_digits": "0604"`)
}

func TestAmountLimitsComeFromPaymentMethods(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, "", 5*time.Second)
	l, err := e.mp.AmountLimits(ctx)
	require.NoError(t, err)
	require.Equal(t, gateway.AmountLimits{Min: money.Amount{Minor: 1000, Currency: "ARS"}, Max: money.Amount{Minor: 800000, Currency: "ARS"}}, l)

	// A change at the gateway shows after the cache; a fresh client sees it at once.
	require.Equal(t, http.StatusNoContent, e.post("/__sandbox/limits", map[string]any{"min": 50.5, "max": 5000}, nil))
	cached, err := e.mp.AmountLimits(ctx)
	require.NoError(t, err)
	require.Equal(t, l, cached)
	fresh, err := mercadopago.New(mercadopago.Config{BaseURL: e.srv.URL, AccessToken: "TEST-token", Currency: "ARS"})
	require.NoError(t, err)
	l, err = fresh.AmountLimits(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(5050), l.Min.Minor)
	require.Equal(t, int64(500000), l.Max.Minor)

	require.Equal(t, http.StatusBadRequest, e.post("/__sandbox/limits", map[string]any{"min": 100, "max": 5}, nil))

	// A gateway that does not answer is an error (the caller falls back to the defaults).
	e.srv.Close()
	down, err := mercadopago.New(mercadopago.Config{BaseURL: e.srv.URL, AccessToken: "TEST-token", Currency: "ARS", Timeout: time.Second})
	require.NoError(t, err)
	_, err = down.AmountLimits(ctx)
	require.Error(t, err)
}

func TestAmountLimitsSetForOneAccountStayWithIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, "", 5*time.Second)
	var acct struct {
		AccessToken string `json:"access_token"`
	}
	require.Equal(t, http.StatusCreated, e.post("/__sandbox/accounts", map[string]any{"nickname": "OTHER", "site_id": "MLA"}, &acct))
	require.Equal(t, http.StatusNoContent, e.post("/__sandbox/limits", map[string]any{"min": 20, "max": 5000, "key": acct.AccessToken}, nil))
	other, err := mercadopago.New(mercadopago.Config{BaseURL: e.srv.URL, AccessToken: acct.AccessToken, Currency: "ARS"})
	require.NoError(t, err)
	l, err := other.AmountLimits(ctx)
	require.NoError(t, err)
	require.Equal(t, gateway.AmountLimits{Min: money.Amount{Minor: 2000, Currency: "ARS"}, Max: money.Amount{Minor: 500000, Currency: "ARS"}}, l)
	l, err = e.mp.AmountLimits(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(1000), l.Min.Minor, "another account's limits leaked")
	require.Equal(t, int64(800000), l.Max.Minor)
}
