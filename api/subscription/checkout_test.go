package subscription_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/money"
)

// billingAnswer is GET /manage/api/subscription's part these tests read.
type billingAnswer struct {
	Subscription struct {
		PlanCode          string `json:"plan_code"`
		EffectivePlanCode string `json:"effective_plan_code"`
		Status            string `json:"status"`
	} `json:"subscription"`
	Billing *struct {
		ID          string     `json:"id"`
		PlanCode    string     `json:"plan_code"`
		Status      string     `json:"status"`
		PaymentMode string     `json:"payment_mode"`
		LastFour    string     `json:"last_four"`
		CBU         string     `json:"cbu"`
		PaidUntil   *time.Time `json:"paid_until"`
		NextCharge  *time.Time `json:"next_charge"`
	} `json:"billing"`
	Invoices []struct {
		ID          string    `json:"id"`
		PeriodStart time.Time `json:"period_start"`
		PeriodEnd   time.Time `json:"period_end"`
		Status      string    `json:"status"`
		Amount      struct {
			Minor    int64  `json:"minor"`
			Currency string `json:"currency"`
		} `json:"amount"`
		MEP *struct {
			USDPrice struct {
				Minor int64 `json:"minor"`
			} `json:"usd_price"`
			Rate struct {
				Minor     int64  `json:"minor"`
				Formatted string `json:"formatted"`
			} `json:"rate"`
			Source string    `json:"source"`
			AsOf   time.Time `json:"as_of"`
		} `json:"mep"`
	} `json:"invoices"`
	Tokenizer struct {
		URL       string `json:"tokenizer_url"`
		PublicKey string `json:"public_key"`
	} `json:"tokenizer"`
}

func read(t *testing.T, c *apitest.Client) billingAnswer {
	t.Helper()
	var a billingAnswer
	res := c.JSON(http.MethodGet, "/manage/api/subscription", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &a)
	return a
}

func validateCard(t *testing.T, c *apitest.Client, plan, holder string) string {
	t.Helper()
	return validateCardNumber(t, c, plan, "4509953566233704", holder)
}

func validateCardNumber(t *testing.T, c *apitest.Client, plan, pan, holder string) string {
	t.Helper()
	page := read(t, c)
	tok := sandboxtest.CardToken(t, page.Tokenizer.URL, page.Tokenizer.PublicKey, pan, holder)
	res := c.JSON(http.MethodPost, "/manage/api/validations/card", map[string]any{
		"plan_code": plan, "token": tok, "payment_method_id": "visa", "cardholder_name": holder, "cardholder_uid": "30.111.222"})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var a struct {
		Authorization struct {
			ID       string `json:"id"`
			LastFour string `json:"last_four"`
		} `json:"authorization"`
	}
	res.Decode(t, &a)
	require.Equal(t, pan[len(pan)-4:], a.Authorization.LastFour)
	return a.Authorization.ID
}

// fieldMessages are a validation error's fields and their messages.
func fieldMessages(t *testing.T, res apitest.Response) map[string]string {
	t.Helper()
	var e struct {
		Error struct {
			Code   string            `json:"code"`
			Fields map[string]string `json:"fields"`
		} `json:"error"`
	}
	res.Decode(t, &e)
	require.Equal(t, "validation_failed", e.Error.Code)
	return e.Error.Fields
}

func fields(t *testing.T, res apitest.Response) []string {
	t.Helper()
	var out []string
	for k := range fieldMessages(t, res) {
		out = append(out, k)
	}
	return out
}

func subscribe(c *apitest.Client, plan, mode, auth string) apitest.Response {
	return c.JSON(http.MethodPost, "/manage/api/subscription", map[string]any{
		"plan_code": plan, "payment_mode": map[string]any{"type": mode, "authorization": auth}})
}

// platformPayments lists the platform account's payments of a reference (the sandbox's ledger).
func platformPayments(t *testing.T, gatewayURL, ref string) []map[string]any {
	t.Helper()
	res, err := http.Get(fmt.Sprintf("%s/__sandbox/payments?user_id=%d&external_reference=%s", gatewayURL, sandbox.PlatformUserID, url.QueryEscape(ref)))
	require.NoError(t, err)
	defer res.Body.Close()
	var out []map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	return out
}

// Buying Professional yearly by card: the card is tokenised with the PLATFORM's public key and
// charged on the platform's account once; the plan applies only after that. The authorization
// cannot serve another organisation nor be replayed, and the old pay-less endpoint is gone.
func TestBuyPlanByCard(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	other := s.NewOrgAdmin(t, "AR")

	page := read(t, admin)
	require.Equal(t, s.Config.GatewayPublicKey, page.Tokenizer.PublicKey, "the platform's key, never the organisation's")
	require.Nil(t, page.Billing)

	// The pay-less activation is refused.
	res := admin.JSON(http.MethodPost, "/manage/api/subscription/plan", map[string]string{"plan_code": "professional_yearly"})
	require.Equal(t, http.StatusNotFound, res.Status, string(res.Body))
	// A subscription without a validated payment is refused, and changes nothing.
	res = subscribe(admin, "professional_yearly", "card", "00000000-0000-4000-8000-000000000001")
	require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
	require.Equal(t, "subscription.authorization_invalid", res.ErrorCode())

	auth := validateCard(t, admin, "professional_yearly", "APRO")
	// Another organisation cannot pay with it (nor learn it exists).
	res = subscribe(other, "professional_yearly", "card", auth)
	require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
	require.Nil(t, read(t, other).Billing)
	// Nor can it serve another plan than the one validated.
	res = subscribe(admin, "partner_yearly", "card", auth)
	require.Equal(t, http.StatusConflict, res.Status, string(res.Body))

	// Nor used as another kind of payment, nor by an operator of the same organisation (only who
	// manages the organisation buys its plan); an operator still reads the subscription.
	res = subscribe(admin, "professional_yearly", "cbu", auth)
	require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
	op := s.NewUser(t, "operator")
	s.AddMember(t, op, admin.OrgID, "operator")
	res = subscribe(op, "professional_yearly", "card", auth)
	require.Equal(t, http.StatusForbidden, res.Status, string(res.Body))
	require.Nil(t, read(t, op).Billing)

	res = subscribe(admin, "professional_yearly", "card", auth)
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	got := read(t, admin)
	require.Equal(t, "professional_yearly", got.Subscription.PlanCode)
	require.Equal(t, "active", got.Subscription.Status)
	require.NotNil(t, got.Billing)
	require.Equal(t, "active", got.Billing.Status)
	require.Equal(t, "card", got.Billing.PaymentMode)
	require.Len(t, got.Invoices, 1)
	inv := got.Invoices[0]
	require.Equal(t, "paid", inv.Status)
	require.Equal(t, "ARS", inv.Amount.Currency)
	// Charged in pesos at the MEP rate in force (kept on the invoice): the list price times the rate.
	require.NotNil(t, inv.MEP)
	require.EqualValues(t, 1490_00, inv.MEP.USDPrice.Minor)
	ars, err := mep.Convert(money.New(inv.MEP.USDPrice.Minor, "USD"), money.New(inv.MEP.Rate.Minor, "ARS"))
	require.NoError(t, err)
	require.Equal(t, ars.Minor, inv.Amount.Minor)
	require.Equal(t, inv.PeriodStart.AddDate(1, 0, 0), inv.PeriodEnd, "a yearly period")
	require.WithinDuration(t, inv.PeriodEnd, *got.Billing.NextCharge, time.Second)

	// Replaying the purchase is refused: the authorization was used.
	res = subscribe(admin, "professional_yearly", "card", auth)
	require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
	require.Equal(t, "subscription.authorization_invalid", res.ErrorCode())

	// One payment on the platform's account for the period, of the plan's price.
	ps := platformPayments(t, s.Config.GatewayURL, "aporta-plan/"+got.Billing.ID+"/"+inv.PeriodStart.UTC().Format("20060102T150405Z"))
	require.Len(t, ps, 1)
	require.Equal(t, "approved", ps[0]["status"])

	require.InDelta(t, float64(ars.Minor)/100, ps[0]["transaction_amount"], 0.001, "the platform charged the invoice's amount")

	checkInvoicePDF(t, s, admin, other, inv.ID, inv.PeriodStart,
		"Precio de lista: 1490.00 USD, pagado en pesos argentinos al tipo de cambio MEP de "+inv.MEP.Rate.Formatted+" por dólar ("+inv.MEP.Source+", "+inv.MEP.AsOf.Format("02/01/2006")+").")

	// Cancelling keeps the plan to the end of the paid period, with no next charge.
	res = admin.JSON(http.MethodPost, "/manage/api/subscription/cancel", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	got = read(t, admin)
	require.Equal(t, "cancelled", got.Billing.Status)
	require.Nil(t, got.Billing.NextCharge)
	require.Equal(t, "professional_yearly", got.Subscription.PlanCode)
}

// A refused card changes nothing: no plan, and the organisation may try again with another card.
func TestRejectedCardLeavesThePlan(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	res := subscribe(admin, "essential_monthly", "card", validateCard(t, admin, "essential_monthly", "OTHE"))
	require.Equal(t, http.StatusPaymentRequired, res.Status, string(res.Body))
	require.Equal(t, "subscription.payment_rejected", res.ErrorCode())
	got := read(t, admin)
	require.Equal(t, "original", got.Subscription.PlanCode)
	require.Nil(t, got.Billing)

	// Another card (the same number would be the same saved card, holder and all).
	res = subscribe(admin, "essential_monthly", "card", validateCardNumber(t, admin, "essential_monthly", "5031755734530604", "APRO"))
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	require.Equal(t, "essential_monthly", read(t, admin).Subscription.PlanCode)
}

// CBU direct debit: the check digits and the mandate are required; the mandate is recorded and the
// subscription waits for the first debit to be reconciled, without the plan. A card-only country
// cannot use it. Bank transfer validates §5's payer rules.
func TestCBUAndTransferValidations(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")

	res := admin.JSON(http.MethodPost, "/manage/api/validations/cbu", map[string]any{"cbu": "2850590940090418135202", "accept_mandate": true})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	require.Contains(t, fields(t, res), "cbu")
	res = admin.JSON(http.MethodPost, "/manage/api/validations/cbu", map[string]any{"cbu": "2850590940090418135201"})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	require.Contains(t, fields(t, res), "accept_mandate")
	res = admin.JSON(http.MethodPost, "/manage/api/validations/cbu", map[string]any{"cbu": "2850590940090418135202", "accept_mandate": true}, "Accept-Language", "en")
	require.Equal(t, "The CBU is not valid: check its 22 digits.", fieldMessages(t, res)["cbu"], "in the reader's language")
	res = admin.JSON(http.MethodPost, "/manage/api/validations/cbu", map[string]any{"cbu": "285-0590940090418135201", "accept_mandate": true})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var a struct {
		Authorization struct {
			ID  string `json:"id"`
			CBU string `json:"cbu"`
		} `json:"authorization"`
	}
	res.Decode(t, &a)
	require.Equal(t, "•••• 5201", a.Authorization.CBU, "the answer never carries the whole account")

	res = subscribe(admin, "professional_monthly", "cbu", a.Authorization.ID)
	require.Equal(t, http.StatusAccepted, res.Status, string(res.Body))
	got := read(t, admin)
	require.Equal(t, "pending", got.Billing.Status)
	require.Equal(t, "cbu", got.Billing.PaymentMode)
	require.Equal(t, "original", got.Subscription.PlanCode, "no plan before the debit is collected")
	// One live subscription at a time.
	res = admin.JSON(http.MethodPost, "/manage/api/validations/cbu", map[string]any{"cbu": "2850590940090418135201", "accept_mandate": true})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	res.Decode(t, &a)
	res = subscribe(admin, "professional_monthly", "cbu", a.Authorization.ID)
	require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
	require.Equal(t, "subscription.already_subscribed", res.ErrorCode())

	// Brazil takes the subscription by card only.
	br := s.NewOrgAdmin(t, "BR")
	res = br.JSON(http.MethodPost, "/manage/api/validations/cbu", map[string]any{"cbu": "2850590940090418135201", "accept_mandate": true})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	require.Contains(t, fields(t, res), "payment_mode")

	// Bank transfer payer (§5): name, valid e-mail, a document of 3+ digits, a cellphone.
	cl := s.NewOrgAdmin(t, "CL")
	res = cl.JSON(http.MethodPost, "/manage/api/validations/bank_transfer", map[string]any{
		"plan_code": "essential_yearly", "name": "", "email": "no-at", "uid_type": "RUT", "uid_number": "12", "cellphone": map[string]string{"country": "CL", "number": ""}})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	require.ElementsMatch(t, []string{"name", "email", "uid_number", "cellphone"}, fields(t, res))
	res = cl.JSON(http.MethodPost, "/manage/api/validations/bank_transfer", map[string]any{
		"plan_code": "essential_yearly", "name": "Ana Pérez", "email": "ana@example.org", "uid_type": "RUT", "uid_number": "12.345.678-5",
		"cellphone": map[string]string{"country": "CL", "number": "+56 9 1234 5678"}})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	res.Decode(t, &a)
	res = subscribe(cl, "essential_yearly", "bank_transfer", a.Authorization.ID)
	require.Equal(t, http.StatusAccepted, res.Status, string(res.Body))
	require.Equal(t, "pending", read(t, cl).Billing.Status)
	require.Equal(t, "original", read(t, cl).Subscription.PlanCode)

	// Staff record the transfer (granting the plan it pays): the period's invoice is paid, the
	// subscription active, the plan applied.
	require.Eventually(t, func() bool { return len(read(t, cl).Invoices) == 1 }, 20*time.Second, 200*time.Millisecond,
		"the billing workflow opened the first period's invoice")
	res = cl.Do(http.MethodGet, "/manage/api/subscription/invoices/"+read(t, cl).Invoices[0].ID+"/pdf", nil, "")
	require.Equal(t, http.StatusConflict, res.Status, "an unpaid period has no invoice PDF yet")
	require.Equal(t, "subscription.invoice_unpaid", res.ErrorCode())
	st := s.NewStaff(t)
	res = st.JSON(http.MethodPost, "/staff/api/organizations/"+cl.OrgID.String()+"/plan", map[string]string{"plan_code": "essential_yearly", "reason": "Transferencia 4411"})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	got = read(t, cl)
	require.Equal(t, "active", got.Billing.Status)
	require.Equal(t, "paid", got.Invoices[0].Status)
	require.Equal(t, "essential_yearly", got.Subscription.PlanCode)
	require.WithinDuration(t, got.Invoices[0].PeriodStart.AddDate(1, 0, 0), *got.Billing.NextCharge, time.Second)
}
