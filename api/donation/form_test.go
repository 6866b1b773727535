package donation_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/tenants/tenantstest"
)

func get(t *testing.T, url, lang string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Language", lang)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	a := answer{Status: res.StatusCode, Body: map[string]any{}}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&a.Body))
	if e, ok := a.Body["error"].(map[string]any); ok {
		a.Message, _ = e["message"].(string)
		a.Code, _ = e["code"].(string)
	}
	return a
}

var extraFields = []campaign.FormField{
	{Type: "occupation", Title: "Ocupación", Label: "¿A qué te dedicas?", Width: "full", Required: true},
	{Type: "alt_email", Title: "Otro correo", Width: "half"},
	{Type: "birthday", Title: "Cumpleaños", Width: "half"},
	{Type: "cellphone", Title: "Celular", Width: "half", ValueRelatedTo: "donor.cellphone"},
	{Type: "select_options", Title: "Talle", Width: "half", Options: []string{"S", "M", "L"}, ValueRelatedTo: "donor.gender"},
	{Type: "checkbox", Title: "Acepto las bases", Width: "full", Required: true},
}

func TestFormFieldValuesAreCheckedStoredShownAndExported(t *testing.T) {
	s := apitest.Start(t)
	ctx := context.Background()
	admin := s.NewOrgAdmin(t, "AR")
	scope := tenantstest.SetStatus(t, s.Tenants, admin.OrgID, "enabled", "essential_monthly")
	cp := apitest.PublishedCampaign(t, s.Tenants, admin.OrgID, campaign.Input{Title: "Campaña campos", Type: "fundraise", Channel: "public",
		AllowOneTime: true, Amounts: []campaign.Amount{{Amount: "500"}}, FormFields: extraFields})
	url := s.Server.URL + "/d/" + cp.Slug

	// Wrong answers: each field named with its own message, nothing stored.
	mail := email()
	p := payload(token(t, s.Config, "APRO"), 0, 500, mail, uuid.NewString())
	p["form_fields"] = []map[string]any{{"order": 1, "value": "no-es-correo"}, {"order": 2, "value": "2999-01-01"},
		{"order": 3, "value": "12ab"}, {"order": 4, "value": "XL"}, {"order": 9, "value": "x"}}
	a := post(t, url, p)
	require.Equal(t, http.StatusUnprocessableEntity, a.Status, a.Body)
	fields := a.Body["error"].(map[string]any)["fields"].(map[string]any)
	require.Equal(t, map[string]any{
		"form_fields.0": "Este campo es requerido", "form_fields.1": "Ingresa un correo electrónico válido",
		"form_fields.2": "Ingresa una fecha de nacimiento válida", "form_fields.3": "Ingresa un teléfono válido.",
		"form_fields.4": "Elige una opción válida", "form_fields.5": "Este campo es requerido", "form_fields.9": "Elige una opción válida",
	}, fields)
	var donors int
	require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM donors WHERE organization_id = $1 AND email = $2", admin.OrgID, mail).Scan(&donors))
	require.Zero(t, donors)

	// English and Portuguese say it too.
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(mustJSON(p)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", "pt")
	res, err := donor().Do(req)
	require.NoError(t, err)
	var pt struct {
		Error struct{ Fields map[string]string } `json:"error"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&pt))
	res.Body.Close()
	require.Equal(t, "Informe uma data de nascimento válida", pt.Error.Fields["form_fields.2"])

	// Good answers are stored with the field as the donor saw it; an unchecked box is no answer.
	p = payload(token(t, s.Config, "APRO"), 0, 500, mail, uuid.NewString())
	p["form_fields"] = []map[string]any{{"order": 0, "value": " Docente "}, {"order": 1, "value": "Otra@Example.org"},
		{"order": 2, "value": "1990-05-17"}, {"order": 3, "value": "+54 9 11 5555-1234"}, {"order": 4, "value": "M"},
		{"order": 5, "value": "true"}}
	a = post(t, url, p)
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	var stored []map[string]any
	require.NoError(t, scope.QueryRow(ctx, "SELECT form_values FROM donations WHERE organization_id = $1 AND id = $2", admin.OrgID, a.Donation).Scan(&stored))
	require.Len(t, stored, 6)
	require.Equal(t, map[string]any{"order": float64(0), "type": "occupation", "title": "Ocupación", "label": "¿A qué te dedicas?", "value": "Docente"}, stored[0])
	require.Equal(t, "otra@example.org", stored[1]["value"])
	// The cellphone field is related to the donor's cellphone and fills it; the size field is related
	// to the gender, which "M" is not, so the donor keeps "unknown".
	var cellphone, gender string
	require.NoError(t, scope.QueryRow(ctx, "SELECT cellphone, gender FROM donors WHERE organization_id = $1 AND email = $2",
		admin.OrgID, mail).Scan(&cellphone, &gender))
	require.Equal(t, "+54 9 11 5555-1234", cellphone)
	require.Equal(t, "unknown", gender)

	// The manage detail shows them; the CSV has one column per field title.
	var d struct {
		Donation struct {
			FormValues []struct{ Title, Value string } `json:"form_values"`
		} `json:"donation"`
	}
	r := admin.JSON(http.MethodGet, "/manage/api/donations/"+a.Donation, nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r.Decode(t, &d)
	require.Len(t, d.Donation.FormValues, 6)
	require.Equal(t, "Cumpleaños", d.Donation.FormValues[2].Title)
	require.Equal(t, "1990-05-17", d.Donation.FormValues[2].Value)

	p = payload(token(t, s.Config, "APRO"), 0, 500, email(), uuid.NewString())
	p["form_fields"] = []map[string]any{{"order": 0, "value": "Chef"}, {"order": 5, "value": "true"}}
	second := post(t, url, p)
	require.Equal(t, http.StatusCreated, second.Status, second.Body)
	r = admin.Do(http.MethodGet, "/manage/api/donations.csv", nil, "")
	require.Equal(t, http.StatusOK, r.Status)
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.Body, []byte("\xEF\xBB\xBF")))).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 3)
	head := recs[0]
	require.Equal(t, []string{"Acepto las bases", "Celular", "Cumpleaños", "Ocupación", "Otro correo", "Talle"}, head[len(head)-6:])
	byUUID := map[string][]string{}
	for _, rec := range recs[1:] {
		byUUID[rec[0]] = rec[len(rec)-6:]
	}
	require.Equal(t, []string{"true", "'+54 9 11 5555-1234", "1990-05-17", "Docente", "otra@example.org", "M"}, byUUID[a.Donation])
	require.Equal(t, []string{"true", "", "", "Chef", "", ""}, byUUID[second.Donation])
}

func TestReceiptShowsTheSummaryAndRefusesForgedReferences(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	other := setup(t, nil)
	mail := email()
	a := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), 0, 1500, mail, uuid.NewString()))
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	ref, _ := a.Body["receipt"].(string)
	require.NotEmpty(t, ref)

	r := get(t, f.srv.URL+"/api/public/campaigns/"+f.slug+"/receipts/"+ref, "es")
	require.Equal(t, http.StatusOK, r.Status, r.Body)
	require.Equal(t, "approved", r.Body["status"])
	require.Equal(t, "¡Gracias Ana! Tu aporte de $ 1.500,00 a Campaña de prueba ya llegó.", r.Body["message"])
	don := r.Body["donation"].(map[string]any)
	require.Equal(t, a.Donation, don["uuid"])
	require.Equal(t, float64(0), don["recurrency"])
	require.Equal(t, ars(150000, "1500.00", "$ 1.500,00"), don["amount"])
	require.NotContains(t, r.Body, "convert_token", "a shareable receipt never carries the single-use convert token")
	raw := string(mustJSON(r.Body))
	for _, secret := range []string{mail, "12345678", "450995", "APRO"} {
		require.NotContains(t, raw, secret)
	}

	// Forged, truncated, or another campaign's: the same 404, in the asker's language.
	b := []byte(ref)
	b[len(b)/2] ^= 1
	for _, url := range []string{
		f.srv.URL + "/api/public/campaigns/" + f.slug + "/receipts/" + string(b),
		f.srv.URL + "/api/public/campaigns/" + f.slug + "/receipts/" + ref[:len(ref)-4],
		f.srv.URL + "/api/public/campaigns/" + other.slug + "/receipts/" + ref,
	} {
		r := get(t, url, "en")
		require.Equal(t, http.StatusNotFound, r.Status, url)
		require.Equal(t, "The receipt link is invalid or has expired", r.Message)
	}
}

// TestGatewayLimitsApplyOnTheServer changes the sandbox's limits for the organisation's own
// gateway account only, so tests beside it keep the defaults.
func TestGatewayLimitsApplyOnTheServer(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	scope, err := f.tt.ForOrganization(context.Background(), f.org)
	require.NoError(t, err)
	store, err := connections.Open(context.Background(), f.cfg)
	require.NoError(t, err)
	_, creds, err := store.Active(context.Background(), scope, connections.MercadoPago)
	require.NoError(t, err)
	key := creds.AccessToken
	setLimits := func(body string) {
		res, err := http.Post(f.cfg.GatewayURL+"/__sandbox/limits", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusNoContent, res.StatusCode)
	}
	setLimits(`{"min": 20, "max": 5000, "key": "` + key + `"}`)
	t.Cleanup(func() { setLimits(`{"key": "` + key + `"}`) })

	r := get(t, f.srv.URL+"/api/public/campaigns/"+f.slug, "es")
	require.Equal(t, map[string]any{"min": ars(2000, "20.00", "$ 20,00"), "max": ars(500000, "5000.00", "$ 5.000,00")}, r.Body["limits"])
	a := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), 0, 5000.5, email(), uuid.NewString()))
	require.Equal(t, http.StatusUnprocessableEntity, a.Status)
	require.Equal(t, "El monto máximo permitido es $ 5.000,00", a.Message)
	a = post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), 0, 15, email(), uuid.NewString()))
	require.Equal(t, "El monto mínimo permitido es $ 20,00", a.Message)
	a = post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), 0, 5000, email(), uuid.NewString()))
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
}

func ticketPayload(tok, ticket string, quantity int) map[string]any {
	p := payload(tok, 0, 1000, email(), uuid.NewString())
	p["donation"].(map[string]any)["items"] = []any{map[string]any{"uuid": "", "amount": 1000, "item_name": ticket, "quantity": quantity}}
	return p
}

func TestTicketsAreLimitedAndEndWithTheirSales(t *testing.T) {
	t.Parallel()
	two := 2
	starts := time.Now().Add(30 * 24 * time.Hour)
	event := func(salesEnd time.Time) func(in *campaign.Input) {
		return func(in *campaign.Input) {
			in.Type = "tickets"
			in.Amounts = []campaign.Amount{{Amount: "1000"}}
			in.Event = &campaign.Event{Category: "Concierto", Format: "physical", StartsAt: &starts, TicketSalesEnd: &salesEnd,
				Tickets: []campaign.Ticket{{Name: "Platea", Quantity: &two}, {Name: "Campo"}}}
		}
	}
	f := setup(t, event(time.Now().Add(24*time.Hour)))
	url := f.srv.URL + "/d/" + f.slug

	a := post(t, url, ticketPayload(token(t, f.cfg, "APRO"), "Palco", 1))
	require.Equal(t, http.StatusUnprocessableEntity, a.Status)
	require.Equal(t, "Elige una de las entradas del evento", a.Body["error"].(map[string]any)["fields"].(map[string]any)["donation.items.0.item_name"])

	// A refused card holds no ticket.
	a = post(t, url, ticketPayload(token(t, f.cfg, "OTHE"), "Platea", 2))
	require.Equal(t, http.StatusPaymentRequired, a.Status, a.Body)

	// Three buyers at once for the two seats left: exactly two get one.
	var wg sync.WaitGroup
	statuses := make([]int, 3)
	for i := range statuses {
		tok := token(t, f.cfg, "APRO")
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = post(t, url, ticketPayload(tok, "Platea", 1)).Status
		}()
	}
	wg.Wait()
	require.ElementsMatch(t, []int{http.StatusCreated, http.StatusCreated, http.StatusConflict}, statuses)
	a = post(t, url, ticketPayload(token(t, f.cfg, "APRO"), "Platea", 1))
	require.Equal(t, http.StatusConflict, a.Status)
	require.Equal(t, "No quedan suficientes entradas «Platea»: quedan 0", a.Message)

	// Unlimited tickets keep selling; the receipt names them with the event.
	a = post(t, url, ticketPayload(token(t, f.cfg, "APRO"), "Campo", 5))
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	r := get(t, f.srv.URL+"/api/public/campaigns/"+f.slug+"/receipts/"+a.Body["receipt"].(string), "es")
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, []any{map[string]any{"name": "Campo", "quantity": float64(5)}}, r.Body["tickets"])
	require.Equal(t, "Concierto", r.Body["event"].(map[string]any)["category"])
	require.Equal(t, "$ 5.000,00", r.Body["donation"].(map[string]any)["amount"].(map[string]any)["formatted"])

	// After the sales end nothing sells.
	ended := setup(t, event(time.Now().Add(-time.Minute)))
	a = post(t, ended.srv.URL+"/d/"+ended.slug, ticketPayload(token(t, ended.cfg, "APRO"), "Campo", 1))
	require.Equal(t, http.StatusUnprocessableEntity, a.Status)
	require.Equal(t, "La venta de entradas para este evento terminó", a.Message)
}

// ars is an ARS amount in the API's money shape, as a decoded JSON object.
func ars(minor float64, decimal, formatted string) map[string]any {
	return map[string]any{"minor": minor, "currency": "ARS", "decimal": decimal, "formatted": formatted}
}
