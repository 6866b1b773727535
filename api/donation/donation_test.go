package donation_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/collection"
	"github.com/aporta/aporta/workflows/workflowtest"
)

type fixture struct {
	srv  *httptest.Server
	cfg  *config.Config
	tt   *tenants.Tenants
	org  uuid.UUID
	slug string
	camp uuid.UUID
	tc   client.Client
	cp   gateway.Credentials // the CentralPos merchant of a setupAt(…, connections.CentralPos, …)
}

// setup creates an enabled AR organisation on a paid plan and a published campaign.
func setup(t *testing.T, edit func(in *campaign.Input)) fixture {
	t.Helper()
	return setupWith(t, tenantstest.Config(t), edit)
}

// setupWith is setup with the caller's configuration (a gateway account of its own, say).
func setupWith(t *testing.T, cfg *config.Config, edit func(in *campaign.Input)) fixture {
	t.Helper()
	return setupAt(t, cfg, connections.MercadoPago, edit)
}

// setupAt is setupWith with the organisation connected to gw only (connections.MercadoPago or
// connections.CentralPos), at the stack's sandbox.
func setupAt(t *testing.T, cfg *config.Config, gw string, edit func(in *campaign.Input)) fixture {
	t.Helper()
	tt := tenantstest.Open(t)
	srv := apitest.Router(t, cfg, tt)

	ctx := context.Background()
	scope := tenantstest.ArgentineOrganization(t, tt, "Fundación Test", "enabled", "essential_monthly")
	org := scope.OrgID
	var cp gateway.Credentials
	var err error
	if gw == connections.CentralPos {
		_, cp, err = sandboxauth.ConnectCentralPos(ctx, cfg, cfg.GatewayURL, scope, "Fundación CP "+org.String()[:8])
	} else {
		_, err = sandboxauth.ConnectWith(ctx, cfg, scope, "DONATIONS"+strings.ToUpper(org.String()[:8]))
	}
	require.NoError(t, err)
	in := campaign.Input{Title: "Campaña de prueba", Type: "fundraise", Channel: "public", AllowOneTime: true, AllowOtherAmount: true,
		Amounts: []campaign.Amount{{Amount: "500", Label: "Básico"}, {Amount: "1000"}}, ImmediateCharge: true,
		Thanks: campaign.Thanks{Instant: "¡Gracias {nombre}! Tu aporte de {monto} a {campaña} ya llegó."}}
	if edit != nil {
		edit(&in)
	}
	c := apitest.PublishedCampaign(t, tt, org, in)
	return fixture{srv: srv, cfg: cfg, tt: tt, org: org, slug: c.Slug, camp: c.ID, tc: workflowtest.Client(t), cp: cp}
}

// token tokenises a test card at the sandbox, as the browser does.
func token(t *testing.T, cfg *config.Config, holder string) string {
	t.Helper()
	return tokenFor(t, cfg, "4509953566233704", holder)
}

// tokenFor tokenises a card number at the sandbox, as the browser does.
func tokenFor(t *testing.T, cfg *config.Config, pan, holder string) string {
	t.Helper()
	return sandboxtest.CardToken(t, cfg.GatewayURL, "", pan, holder)
}

// payload is the form submission every test here posts.
var payload = apitest.FormPayload

type answer struct {
	Status   int
	Body     map[string]any
	Message  string
	Code     string
	Donation string
}

// donor is a donor's browser, from its own IP: the per-IP submission limit is shared by every test
// (and process) through PostgreSQL, and these tests submit more than one donor would in a minute.
func donor() *http.Client { return apitest.HTTPClient(apitest.NewIP()) }

func post(t *testing.T, url string, body any) answer {
	t.Helper()
	var b []byte
	switch v := body.(type) {
	case []byte:
		b = v
	default:
		var err error
		b, err = json.Marshal(v)
		require.NoError(t, err)
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := donor().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	a := answer{Status: res.StatusCode, Body: map[string]any{}}
	raw, _ := io.ReadAll(res.Body)
	_ = json.Unmarshal(raw, &a.Body)
	if e, ok := a.Body["error"].(map[string]any); ok {
		a.Message, _ = e["message"].(string)
		a.Code, _ = e["code"].(string)
	}
	if m, ok := a.Body["message"].(string); ok {
		a.Message = m
	}
	if d, ok := a.Body["donation"].(map[string]any); ok {
		a.Donation, _ = d["uuid"].(string)
	}
	return a
}

func (f fixture) count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	scope, err := f.tt.ForOrganization(context.Background(), f.org)
	require.NoError(t, err)
	var n int
	require.NoError(t, scope.QueryRow(context.Background(), sql, append([]any{f.org}, args...)...).Scan(&n))
	return n
}

func sandboxPayments(t *testing.T, cfg *config.Config, ref string) []map[string]any {
	t.Helper()
	res, err := http.Get(cfg.GatewayURL + "/__sandbox/payments?external_reference=" + ref)
	require.NoError(t, err)
	defer res.Body.Close()
	var out []map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	return out
}

func email() string { return "donor-" + uuid.NewString()[:8] + "@example.org" }

// thanksMail is the one thank-you e-mail the outbox holds for the donor (queued just after the answer).
func thanksMail(t *testing.T, f fixture, to string) (subject, body string) {
	t.Helper()
	type mail struct{ Subject, Body string }
	var mails []mail
	require.Eventually(t, func() bool {
		rows, err := f.tt.Directory().Query(context.Background(),
			"SELECT subject, body FROM outbox_messages WHERE recipient = $1 AND template_type = 'donation_thanks'", to)
		require.NoError(t, err)
		mails, err = pgx.CollectRows(rows, pgx.RowToStructByPos[mail])
		require.NoError(t, err)
		return len(mails) > 0
	}, 10*time.Second, 100*time.Millisecond)
	require.Len(t, mails, 1)
	return mails[0].Subject, mails[0].Body
}

func TestOneTimeApproved(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	mail := email()
	a := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), 0, 1500, mail, uuid.NewString()))
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	require.Equal(t, "approved", a.Body["status"])
	require.Equal(t, "¡Gracias Ana! Tu aporte de $ 1.500,00 a Campaña de prueba ya llegó.", a.Message)
	require.NotEmpty(t, a.Body["convert_token"])
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM donations d JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
		WHERE d.organization_id = $1 AND dn.email = $2 AND d.recurrence = 0 AND d.status = 'active' AND d.amount_minor = 150000 AND d.currency = 'ARS'`, mail))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'
		AND gateway_payment_id IS NOT NULL AND period IS NULL`, uuid.MustParse(a.Donation)))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM payment_methods pm JOIN donors dn ON dn.organization_id = pm.organization_id AND dn.id = pm.donor_id
		WHERE pm.organization_id = $1 AND dn.email = $2 AND pm.last_four = '3704' AND pm.bin = '450995'`, mail))

	// The thank-you e-mail: the campaign's instant message (it has no e-mail text), the summary and
	// the thank-you page's link.
	subject, body := thanksMail(t, f, mail)
	require.Equal(t, "¡Gracias por tu donación a Campaña de prueba!", subject)
	text, mailedRef, ok := strings.Cut(body, "/thanks?ref=")
	require.True(t, ok, body)
	// After the receipt's link, where the donor asks for a link to manage their giving.
	mailedRef, portal, ok := strings.Cut(mailedRef, "\n\n")
	require.True(t, ok, body)
	require.Contains(t, portal, f.cfg.PublicURL+"/donor/"+f.slug)
	require.Equal(t, "¡Gracias Ana! Tu aporte de $ 1.500,00 a Campaña de prueba ya llegó.\n\nTu donación: $ 1.500,00, por única vez.\n"+
		"Tu comprobante: "+f.cfg.PublicURL+"/d/"+f.slug, text)
	// The e-mail's link and the answer's are signed apart (their expiries may differ by a second):
	// both name the same organisation and donation.
	receiptSubject := func(ref string) []byte {
		b, err := base64.RawURLEncoding.DecodeString(ref)
		require.NoError(t, err)
		require.Greater(t, len(b), 32)
		return b[:32]
	}
	require.Equal(t, receiptSubject(a.Body["receipt"].(string)), receiptSubject(mailedRef))
	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug + "/receipts/" + mailedRef)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "the e-mailed link opens the thank-you page")

	// Convert to monthly with the signed link, reusing the stored card.
	tok := a.Body["convert_token"].(string)
	res, err = http.Get(f.srv.URL + "/api/public/donations/" + a.Donation + "/convert?token=" + tok)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	c := post(t, f.srv.URL+"/api/public/donations/"+a.Donation+"/convert?token="+tok, []byte(`{}`))
	require.Equal(t, http.StatusOK, c.Status, c.Body)
	require.EqualValues(t, 1, c.Body["recurrency"])
	bad := post(t, f.srv.URL+"/api/public/donations/"+a.Donation+"/convert?token=x"+tok[1:], []byte(`{}`))
	require.Equal(t, http.StatusNotFound, bad.Status)
}

func TestMonthlyApproved(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	a := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), 1, "500", email(), uuid.NewString()))
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	require.Equal(t, "approved", a.Body["status"])
	id := uuid.MustParse(a.Donation)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND recurrence = 1 AND status = 'active'
		AND payment_method_id IS NOT NULL AND next_charge_date IS NOT NULL`, id))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'
		AND period IS NOT NULL`, id))

	// The collection workflow started, and it reads the first charge back instead of charging the
	// period again: still one payment and one transaction once it has run.
	_, err := f.tc.DescribeWorkflowExecution(context.Background(), collection.WorkflowID(id.String()), "")
	require.NoError(t, err)
	period := time.Now().In(must(time.LoadLocation("America/Argentina/Buenos_Aires"))).Format("2006-01")
	ref := charge.Transaction{DonationID: id, Period: period, Attempt: 1}.Key().Reference
	require.Eventually(t, func() bool { return periodCharged(t, f.tc, collection.WorkflowID(id.String())) }, 15*time.Second, 200*time.Millisecond,
		"the workflow charges the first period (and must find this payment)")
	require.Len(t, sandboxPayments(t, f.cfg, ref), 1)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2`, id))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestMonthlyWithoutImmediateChargeIsPlanned(t *testing.T) {
	t.Parallel()
	f := setup(t, func(in *campaign.Input) { in.ImmediateCharge = false })
	a := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), 1, "500", email(), uuid.NewString()))
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	require.Equal(t, "planned", a.Body["status"])
	// The collection workflow charges the planned first period on its collect day (today) and
	// settles the same transaction row.
	id := uuid.MustParse(a.Donation)
	require.Eventually(t, func() bool {
		return f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'`, id) == 1
	}, 15*time.Second, 200*time.Millisecond)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2`, id))
}

func TestRejectionsShowTheMappedMessage(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	for holder, want := range map[string]string{
		"OTHE": "Tu tarjeta rechazó el pago. Prueba con otra tarjeta o contacta a tu banco.",
		"SECU": "Revisa el código de seguridad de la tarjeta.",
	} {
		a := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, holder), 0, 1500, email(), uuid.NewString()))
		require.Equal(t, http.StatusPaymentRequired, a.Status, a.Body)
		require.Equal(t, want, a.Message, holder)
		require.GreaterOrEqual(t, f.count(t, `SELECT count(*) FROM donations d JOIN transactions tx ON tx.organization_id = d.organization_id
			AND tx.donation_id = d.id WHERE d.organization_id = $1 AND d.status = 'rejected' AND tx.status = 'rejected'`), 1, holder)
	}
}

func TestDoubleSubmitMakesOneDonationAndOneCharge(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	key := uuid.NewString()
	body := payload(token(t, f.cfg, "APRO"), 0, 1500, email(), key)
	var wg sync.WaitGroup
	answers := make([]answer, 8)
	for i := range answers {
		wg.Add(1)
		go func() { defer wg.Done(); answers[i] = post(t, f.srv.URL+"/d/"+f.slug, body) }()
	}
	wg.Wait()
	again := post(t, f.srv.URL+"/d/"+f.slug, body)
	answers = append(answers, again)
	id := answers[0].Donation
	for _, a := range answers {
		require.Contains(t, []int{http.StatusOK, http.StatusCreated}, a.Status, a.Body)
		require.Equal(t, "approved", a.Body["status"])
		require.Equal(t, id, a.Donation)
	}
	require.Equal(t, http.StatusOK, again.Status)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1 AND idempotency_key = $2`, key))
	thanksMail(t, f, body["donor"].(map[string]any)["email"].(string)) // exactly one, however many answers
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2`, uuid.MustParse(id)))
	txID := uuid.NewSHA1(uuid.MustParse(id), []byte("first-transaction"))
	ps := sandboxPayments(t, f.cfg, txID.String())
	require.Len(t, ps, 1)
	require.Equal(t, "approved", ps[0]["status"])
}

func TestCardDataIsRefusedAndNothingStored(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	for name, mutate := range map[string]func(p map[string]any){
		"pan":           func(p map[string]any) { p["payment_method"].(map[string]any)["cc_number"] = "4509 9535 6623 3704" },
		"cvv":           func(p map[string]any) { p["payment_method"].(map[string]any)["cc_verification_number"] = "123" },
		"pan elsewhere": func(p map[string]any) { p["donor"].(map[string]any)["first_name"] = "4509953566233704" },
	} {
		mail := email()
		p := payload(token(t, f.cfg, "APRO"), 0, 1500, mail, uuid.NewString())
		mutate(p)
		a := post(t, f.srv.URL+"/d/"+f.slug, p)
		require.Equal(t, http.StatusUnprocessableEntity, a.Status, name)
		require.Equal(t, "card.data_refused", a.Code, name)
		require.Equal(t, 0, f.count(t, `SELECT count(*) FROM donors WHERE organization_id = $1 AND email = $2`, mail), name)
	}
}

func TestServerValidation(t *testing.T) {
	t.Parallel()
	f := setup(t, func(in *campaign.Input) { in.AllowOneTime = false; s := "200"; in.MinOtherAmount = &s })
	url := f.srv.URL + "/d/" + f.slug
	tok := token(t, f.cfg, "APRO")

	a := post(t, url, payload(tok, 1, 150, email(), uuid.NewString()))
	require.Equal(t, http.StatusUnprocessableEntity, a.Status, a.Body)
	require.Equal(t, "El monto mínimo permitido es $ 200,00", a.Message)

	a = post(t, url, payload(tok, 1, 5, email(), uuid.NewString()))
	require.Equal(t, "El monto mínimo permitido es $ 200,00", a.Message)

	a = post(t, url, payload(tok, 1, 8000.01, email(), uuid.NewString()))
	require.Equal(t, http.StatusUnprocessableEntity, a.Status)
	require.Equal(t, "El monto máximo permitido es $ 8.000,00", a.Message)

	a = post(t, url, payload(tok, 0, 500, email(), uuid.NewString()))
	require.Equal(t, http.StatusUnprocessableEntity, a.Status)
	require.Equal(t, "donation.one_time_not_allowed", a.Code)

	p := payload(tok, 1, 500, "not-an-email", uuid.NewString())
	p["payment_method"].(map[string]any)["cardholder_id_number"] = "12"
	p["payment_method"].(map[string]any)["expiration_year"] = 2001
	a = post(t, url, p)
	require.Equal(t, http.StatusUnprocessableEntity, a.Status)
	require.Equal(t, "Verifica que todos los campos requeridos estén completos y sean válidos", a.Message)
	fields := a.Body["error"].(map[string]any)["fields"].(map[string]any)
	require.Contains(t, fields, "donor.email")
	require.Contains(t, fields, "payment_method.cardholder_id_number")
	require.Contains(t, fields, "payment_method.expiration")

	// English.
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(mustJSON(payload(tok, 1, 150, email(), uuid.NewString()))))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", "en")
	res, err := donor().Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Contains(t, string(b), "The minimum amount allowed is $ 200,00")

	// A brand the gateway does not take.
	p = payload(tok, 1, 500, email(), uuid.NewString())
	p["payment_method"].(map[string]any)["bin"] = "999999"
	a = post(t, url, p)
	require.Equal(t, http.StatusUnprocessableEntity, a.Status, a.Body)
	require.Equal(t, "Tarjeta no permitida", a.Message)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func TestPublicFormAndVisitsAndLeads(t *testing.T) {
	t.Parallel()
	f := setup(t, func(in *campaign.Input) { in.Instalments = 6; in.FormColor = "#ff0066" })
	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug)
	require.NoError(t, err)
	var form map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&form))
	res.Body.Close()
	require.Equal(t, "ARS", form["currency"])
	require.Equal(t, "AR", form["country"])
	require.Equal(t, map[string]any{"min": ars(1000, "10.00", "$ 10,00"), "max": ars(800000, "8000.00", "$ 8.000,00")}, form["limits"])
	require.Equal(t, []any{3.0, 6.0}, form["instalment_options"])
	require.Contains(t, form["document_types"], "DNI")
	require.Equal(t, "#ff0066", form["form_color"])

	// The form's page itself is the web app (the API answers only POST on that path).
	res, err = http.Get(f.srv.URL + "/d/" + f.slug)
	require.NoError(t, err)
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(page), "csrf-token")

	a := post(t, f.srv.URL+"/api/public/campaigns/"+f.slug+"/visits", []byte(`{}`))
	require.Equal(t, http.StatusNoContent, a.Status)
	require.Equal(t, 1, f.count(t, `SELECT visits::int FROM campaign_visits WHERE organization_id = $1 AND campaign_id = $2`, f.camp))

	mail := email()
	a = post(t, f.srv.URL+"/api/public/campaigns/"+f.slug+"/leads", map[string]any{"email": mail})
	require.Equal(t, http.StatusNoContent, a.Status, a.Body)
	a = post(t, f.srv.URL+"/api/public/campaigns/"+f.slug+"/leads", map[string]any{"email": strings.ToUpper(mail), "first_name": "Ana"})
	require.Equal(t, http.StatusNoContent, a.Status, a.Body)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM leads WHERE organization_id = $1 AND email = $2 AND first_name = 'Ana'`, mail))
	a = post(t, f.srv.URL+"/api/public/campaigns/"+f.slug+"/leads", map[string]any{"email": "nope"})
	require.Equal(t, http.StatusUnprocessableEntity, a.Status)
}

// periodCharged reports whether the donation's collection workflow has settled a period as approved: its
// charge ran (as a local activity or an activity) and found or made the payment.
func periodCharged(t *testing.T, tc client.Client, workflowID string) bool {
	v, err := tc.QueryWorkflow(context.Background(), workflowID, "", collection.QueryState)
	if err != nil {
		return false
	}
	var st collection.State
	require.NoError(t, v.Get(&st))
	return len(st.Recent) > 0 && st.Recent[0].Approved
}

// After a trial ends without a plan the organisation takes no new donations (workflows/subscription
// clears accepting_donations); nothing is charged or stored.
func TestOrganizationNotAcceptingDonationsRefusesNewOnes(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	scope, err := f.tt.ForOrganization(context.Background(), f.org)
	require.NoError(t, err)
	require.NoError(t, scope.Exec(context.Background(), "UPDATE organizations SET accepting_donations = false WHERE organization_id = $1", f.org))

	key, mail := uuid.NewString(), email()
	a := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), 0, 1500, mail, key))
	require.Equal(t, http.StatusConflict, a.Status, a.Body)
	require.Equal(t, "donation.not_accepting", a.Code)
	require.Equal(t, "Esta organización no está recibiendo nuevas donaciones en este momento.", a.Message)
	require.Zero(t, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1`))
	require.Zero(t, f.count(t, `SELECT count(*) FROM donors WHERE organization_id = $1`))
}

// A Mastercard: the form names the brand "mastercard" (internal/card), MercadoPago "master"; the adapter
// translates, so the card is allowed and charged.
func TestMastercardIsAllowed(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	f.requireApproved(t, "5031755734530604", "mastercard")
}

// requireApproved donates once with the card pan (holder APRO) named as brand by the form, and
// expects it approved.
func (f fixture) requireApproved(t *testing.T, pan, brand string) {
	t.Helper()
	p := payload(tokenFor(t, f.cfg, pan, "APRO"), 0, 1500, email(), uuid.NewString())
	pm := p["payment_method"].(map[string]any)
	pm["method_id"], pm["bin"], pm["last_four"] = brand, pan[:6], pan[len(pan)-4:]
	a := post(t, f.srv.URL+"/d/"+f.slug, p)
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	require.Equal(t, "approved", a.Body["status"])
}

// Brands are the organisation's gateway account's: the public read carries its card rules, a debit
// card is taken under MercadoPago's debit brand, and the form naming another brand than the
// account's for the BIN, or a brand the account does not take, is "Tarjeta no permitida".
func TestCardBrandsComeFromTheAccount(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	r := get(t, f.srv.URL+"/api/public/campaigns/"+f.slug, "es")
	require.Equal(t, http.StatusOK, r.Status, r.Body)
	brands := map[string]map[string]any{}
	for _, m := range r.Body["payment_methods"].([]any) {
		pm := m.(map[string]any)
		brands[pm["id"].(string)] = pm
	}
	require.Equal(t, "Mastercard Débito", brands["debmaster"]["name"])
	require.Equal(t, "debit_card", brands["debmaster"]["payment_type"])
	require.NotEmpty(t, brands["mastercard"]["bin_pattern"])
	require.Equal(t, []any{float64(15)}, brands["amex"]["lengths"])
	require.Equal(t, float64(4), brands["amex"]["security_code_length"])
	require.NotContains(t, brands, "elo", "an Argentine account does not take Elo")

	f.requireApproved(t, "5287338310253304", "debmaster")

	for _, c := range []struct{ method, bin string }{
		{"maestro", "503175"}, // the account names 5031 Mastercard
		{"elo", "636368"},     // not a brand the account takes
	} {
		p := payload(token(t, f.cfg, "APRO"), 0, 1500, email(), uuid.NewString())
		pm := p["payment_method"].(map[string]any)
		pm["method_id"], pm["bin"] = c.method, c.bin
		a := post(t, f.srv.URL+"/d/"+f.slug, p)
		require.Equal(t, http.StatusUnprocessableEntity, a.Status, c)
		require.Equal(t, "donation.card_not_allowed", a.Code, c)
	}
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1`))
}
