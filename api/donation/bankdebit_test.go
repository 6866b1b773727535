package donation_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/donation"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// setupColombia creates an enabled CO organisation (COP; the processor offers PSE there) whose
// campaign a local processor's rule routes, with no card gateway connected.
func setupColombia(t *testing.T) (fixture, string) {
	t.Helper()
	cfg, tt := tenantstest.Config(t), tenantstest.Open(t)
	id := uuid.New()
	tenantstest.Organization(t, tt, tenants.Organization{ID: id, Name: "Fundación PSE " + id.String()[:6], Country: "CO"}, "")
	tenantstest.SetStatus(t, tt, id, "enabled", "essential_monthly")
	c := apitest.PublishedCampaign(t, tt, id, campaign.Input{Title: "Campaña PSE", Type: "fundraise", Channel: "public",
		AllowOneTime: true, AllowOtherAmount: true, Amounts: []campaign.Amount{{Amount: "20000"}}})
	f := fixture{srv: apitest.Router(t, cfg, tt), cfg: cfg, tt: tt, org: id, slug: c.Slug, camp: c.ID, tc: workflowtest.Client(t)}
	return f, f.localProcessor(t, "FUNDACION PSE")
}

// bankDebit is a one-time donation of 20.000 COP paid by bank debit.
func bankDebit(bank, personType, idType, idNumber string) map[string]any {
	return map[string]any{
		"donation":       map[string]any{"recurrency": 0, "items": []any{map[string]any{"uuid": "", "amount": "20000", "item_name": "Donación", "quantity": 1}}},
		"payment_method": map[string]any{"bank_debit": map[string]any{"bank": bank, "person_type": personType, "id_type": idType, "id_number": idNumber}},
		"donor": map[string]any{"first_name": "Camila", "last_name": "Rojas", "email": email(), "uid_type": "CC",
			"uid_number": "1020304050"},
		"idempotency_key": uuid.NewString(),
	}
}

// decide approves or rejects a bank debit at the sandbox's bank page, as the donor does, and answers
// where the bank sends the donor back.
func decide(t *testing.T, redirectURL, decision string) string {
	t.Helper()
	page, err := http.Get(redirectURL)
	require.NoError(t, err)
	page.Body.Close()
	require.Equal(t, http.StatusOK, page.StatusCode)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.PostForm(redirectURL, url.Values{"decision": {decision}})
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	return res.Header.Get("Location")
}

// notice is a notification the sandbox sent, as it sent it.
type notice struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

func notices(t *testing.T, f fixture, paymentID string) []notice {
	t.Helper()
	res, err := http.Get(f.cfg.GatewayURL + "/__sandbox/dlocal/notifications?payment_id=" + paymentID)
	require.NoError(t, err)
	defer res.Body.Close()
	var out []notice
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	return out
}

// replay posts a notification to the organisation's notification address of the in-process API.
func replay(t *testing.T, f fixture, org uuid.UUID, n notice) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.srv.URL+donation.BankDebitNotificationPath+org.String(), strings.NewReader(n.Body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range n.Headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	return res.StatusCode
}

// firstStatus is the donation's status and its first transaction's.
func (f fixture) firstStatus(t *testing.T, id uuid.UUID) (donation, tx string) {
	t.Helper()
	scope, err := f.tt.ForOrganization(context.Background(), f.org)
	require.NoError(t, err)
	require.NoError(t, scope.QueryRow(context.Background(), `SELECT d.status, t.status FROM donations d
		JOIN transactions t ON t.organization_id = d.organization_id AND t.id = $3
		WHERE d.organization_id = $1 AND d.id = $2`, f.org, id, charge.FirstTransactionID(id)).Scan(&donation, &tx))
	return donation, tx
}

// receiptOf reads the thank-you page's summary at the address the bank sent the donor back to.
func receiptOf(t *testing.T, f fixture, back string) map[string]any {
	t.Helper()
	u, err := url.Parse(back)
	require.NoError(t, err)
	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug + "/receipts/" + url.PathEscape(u.Query().Get("ref")))
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var out map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	return out
}

// The off-site bank debit end to end on the real stack: the form offers it (the processor's PSE,
// Colombia's banks, its document types), the server checks every field, the donation waits pending
// for the bank, the donor approves at the sandbox's bank page, and the processor's signed
// notification (to the stack's API) settles it through the one charge path: approved with the
// processor's fee, a receipt and the thank-you page's state. A replayed notification changes nothing,
// a forged one or one posted to another organisation's address is refused, and a debit the bank
// rejects leaves the donation rejected, nothing charged.
func TestBankDebitApprovedAndRejectedAtTheBank(t *testing.T) {
	t.Parallel()
	f, login := setupColombia(t)

	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug)
	require.NoError(t, err)
	var form struct {
		BankDebit *campaign.PublicBankDebit `json:"bank_debit"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&form))
	res.Body.Close()
	require.NotNil(t, form.BankDebit, "the processor offers PSE in Colombia")
	require.Equal(t, "PSE", form.BankDebit.Method)
	require.Contains(t, form.BankDebit.Banks, reference.Bank{Code: "1007", Label: "Bancolombia"})
	require.Equal(t, []string{"CC", "CE", "NIT"}, form.BankDebit.IDTypes)
	require.Equal(t, []string{"natural", "legal"}, form.BankDebit.PersonTypes)

	// Validation: each wrong field named, in the donor's language; nothing written.
	monthly := bankDebit("1007", "natural", "CC", "1020304050")
	monthly["donation"].(map[string]any)["recurrency"] = 1
	a := post(t, f.srv.URL+"/d/"+f.slug, monthly)
	require.Equal(t, http.StatusUnprocessableEntity, a.Status, a.Body)
	require.Contains(t, fieldsOf(a)["donation.recurrency"], "única vez")
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{bankDebit("", "natural", "CC", "1020304050"), "payment_method.bank_debit.bank"},
		{bankDebit("1007", "company", "CC", "1020304050"), "payment_method.bank_debit.person_type"},
		{bankDebit("1007", "natural", "Otro", "1020304050"), "payment_method.bank_debit.id_type"},
		{bankDebit("1007", "natural", "CC", "12"), "payment_method.bank_debit.id_number"},
		{bankDebit("1007", "legal", "CC", "1020304050"), "payment_method.bank_debit.id_type"},
		{bankDebit("1007", "legal", "NIT", "800.197.268-5"), "payment_method.bank_debit.id_number"}, // check digit 4
		{bankDebit("9999", "natural", "CC", "1020304050"), "payment_method.bank_debit.bank"},        // not a Colombian bank
	} {
		a := post(t, f.srv.URL+"/d/"+f.slug, c.body)
		require.Equal(t, http.StatusUnprocessableEntity, a.Status, a.Body)
		require.NotEmpty(t, fieldsOf(a)[c.field], "%s: %v", c.field, a.Body)
	}
	require.Equal(t, 0, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1`))
	require.Empty(t, ledgerOf(t, f, login).Payments)

	// Approved at the bank.
	body := bankDebit("1007", "legal", "NIT", "800.197.268-4")
	a = post(t, f.srv.URL+"/d/"+f.slug, body)
	require.Equal(t, http.StatusAccepted, a.Status, a.Body)
	require.Equal(t, "in_process", a.Body["status"])
	redirect, _ := a.Body["redirect_url"].(string)
	require.True(t, strings.HasPrefix(redirect, "http"), a.Body)
	id := uuid.MustParse(a.Donation)
	d, tx := f.firstStatus(t, id)
	require.Equal(t, []string{"pending", "pending"}, []string{d, tx}, "waiting for the bank")
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM bank_debits WHERE organization_id = $1 AND donation_id = $2
		AND bank_code = '1007' AND person_type = 'legal' AND id_type = 'NIT' AND id_number = '8001972684' AND payment_id LIKE 'D-%'`, id))
	again := post(t, f.srv.URL+"/d/"+f.slug, body)
	require.Equal(t, http.StatusAccepted, again.Status, again.Body)
	require.Equal(t, redirect, again.Body["redirect_url"], "the same submission, the same payment")
	require.Len(t, ledgerOf(t, f, login).Payments, 1)

	back := decide(t, redirect, "approve")
	require.True(t, strings.HasPrefix(back, f.cfg.PublicURL+"/d/"+f.slug+"/thanks?ref="), back)
	require.Eventually(t, func() bool { _, tx := f.firstStatus(t, id); return tx == "approved" }, 30*time.Second, 200*time.Millisecond,
		"the processor's notification settles it")
	d, _ = f.firstStatus(t, id)
	require.Equal(t, "active", d)
	ref := charge.FirstTransactionID(id)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transaction_processor_fees WHERE organization_id = $1 AND transaction_id = $2
		AND amount_minor = 798 AND fee_bps = 399`, ref)) // 3.99% of 20.000 COP (no decimals)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM receipts WHERE organization_id = $1 AND transaction_id = $2`, ref))
	r := receiptOf(t, f, back)
	require.Equal(t, "approved", r["status"])
	require.Equal(t, "Bancolombia", r["bank_debit"].(map[string]any)["bank"])
	l := ledgerOf(t, f, login)
	require.Equal(t, "PAID", l.Payments[0].Status)
	require.Equal(t, ref.String(), l.Payments[0].OrderID)

	// The notification again (a replay), forged ones, and one posted to another organisation's address.
	sent := notices(t, f, strings.TrimPrefix(redirect[strings.LastIndex(redirect, "/"):], "/"))
	require.NotEmpty(t, sent)
	n := sent[0]
	require.Equal(t, http.StatusOK, replay(t, f, f.org, n))
	forged := n
	forged.Headers = map[string]string{"X-Date": n.Headers["X-Date"], "X-Login": login,
		"Authorization": dlocal.Signature(login, n.Headers["X-Date"], "not-the-secret", []byte(n.Body))}
	require.Equal(t, http.StatusUnauthorized, replay(t, f, f.org, forged))
	tampered := n
	tampered.Body = strings.Replace(n.Body, `"PAID"`, `"REJECTED"`, 1)
	require.Equal(t, http.StatusUnauthorized, replay(t, f, f.org, tampered))
	other, _ := setupColombia(t)
	require.Equal(t, http.StatusUnauthorized, replay(t, other, other.org, n), "another organisation's address")
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM receipts WHERE organization_id = $1 AND transaction_id = $2`, ref))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transaction_processor_fees WHERE organization_id = $1`))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2`, id))
	d, tx = f.firstStatus(t, id)
	require.Equal(t, []string{"active", "approved"}, []string{d, tx})

	// Rejected at the bank: the donation is rejected, nothing charged, and the page says so.
	rb := bankDebit("1051", "natural", "CC", "1020304050")
	rejected := post(t, f.srv.URL+"/d/"+f.slug, rb)
	require.Equal(t, http.StatusAccepted, rejected.Status, rejected.Body)
	rid := uuid.MustParse(rejected.Donation)
	back = decide(t, rejected.Body["redirect_url"].(string), "reject")
	require.Eventually(t, func() bool { _, tx := f.firstStatus(t, rid); return tx == "rejected" }, 30*time.Second, 200*time.Millisecond)
	d, _ = f.firstStatus(t, rid)
	require.Equal(t, "rejected", d)
	r = receiptOf(t, f, back)
	require.Equal(t, "rejected", r["status"])
	require.Contains(t, r["message"], "rechazó")
	require.Equal(t, 0, f.count(t, `SELECT count(*) FROM receipts WHERE organization_id = $1 AND transaction_id = $2`, charge.FirstTransactionID(rid)))
	resubmitted := post(t, f.srv.URL+"/d/"+f.slug, rb)
	require.Equal(t, http.StatusPaymentRequired, resubmitted.Status, resubmitted.Body)
	require.Equal(t, "donation.bank_debit_rejected", resubmitted.Code)
}

// A form whose campaign no processor with a bank debit routes does not offer one, and the API refuses
// it: an Argentine processor (dLocal has no bank transfer there) and a campaign of the connected card
// gateway alone.
func TestBankDebitRefusedWhereTheProcessorOffersNone(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	body := bankDebit("011", "natural", "DNI", "12345678")
	body["donation"].(map[string]any)["items"] = []any{map[string]any{"uuid": "", "amount": "500", "item_name": "Donación", "quantity": 1}}
	body["donor"].(map[string]any)["uid_type"], body["donor"].(map[string]any)["uid_number"] = "DNI", "12345678"
	a := post(t, f.srv.URL+"/d/"+f.slug, body)
	require.Equal(t, http.StatusUnprocessableEntity, a.Status, a.Body)
	require.Equal(t, "donation.bank_debit_unavailable", a.Code)

	f.localProcessor(t, "FUNDACION TEST")
	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug)
	require.NoError(t, err)
	var form map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&form))
	res.Body.Close()
	require.Equal(t, "dlocal", form["gateway"].(map[string]any)["name"])
	require.NotContains(t, form, "bank_debit")
	body["idempotency_key"] = uuid.NewString()
	a = post(t, f.srv.URL+"/d/"+f.slug, body)
	require.Equal(t, http.StatusUnprocessableEntity, a.Status, a.Body)
	require.Equal(t, "donation.bank_debit_unavailable", a.Code)
	require.Contains(t, a.Message, "tarjeta")
	require.Equal(t, 0, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1`))
}

func fieldsOf(a answer) map[string]string {
	out := map[string]string{}
	e, _ := a.Body["error"].(map[string]any)
	fs, _ := e["fields"].(map[string]any)
	for k, v := range fs {
		out[k], _ = v.(string)
	}
	return out
}
