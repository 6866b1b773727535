package donation_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
)

func fieldErrors(a answer) map[string]any {
	e, _ := a.Body["error"].(map[string]any)
	fields, _ := e["fields"].(map[string]any)
	return fields
}

// A card number typed into a document, name or form field answer is refused through the real
// public form, the field is named for the form to mark, and nothing is stored.
func TestCardNumberInAFreeFieldOfThePublicFormIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t, func(in *campaign.Input) {
		in.FormFields = []campaign.FormField{{Type: "textarea", Title: "Comentario", Width: "full"}}
	})
	for name, tc := range map[string]struct {
		mutate func(p map[string]any)
		path   string
	}{
		"donor document, type Otro": {func(p map[string]any) {
			p["donor"].(map[string]any)["uid_type"] = "Otro"
			p["donor"].(map[string]any)["uid_number"] = "4509 9535 6623 3704"
		}, "donor.uid_number"},
		"cardholder document": {func(p map[string]any) {
			p["payment_method"].(map[string]any)["cardholder_id_number"] = "4509-9535-6623-3704"
		}, "payment_method.cardholder_id_number"},
		"donor last name": {func(p map[string]any) { p["donor"].(map[string]any)["last_name"] = "5031 7557 3453 0604" }, "donor.last_name"},
		"form field answer": {func(p map[string]any) {
			p["form_fields"] = []map[string]any{{"order": 0, "value": "Pagué con 4509 9535 6623 3704, vence 11/30"}}
		}, "form_fields.0.value"},
	} {
		mail, key := email(), uuid.NewString()
		p := payload(token(t, f.cfg, "APRO"), 0, 1500, mail, key)
		tc.mutate(p)
		a := post(t, f.srv.URL+"/d/"+f.slug, p)
		require.Equal(t, http.StatusUnprocessableEntity, a.Status, name)
		require.Equal(t, "card.data_refused", a.Code, name)
		require.Equal(t, map[string]any{tc.path: "Parece un número de tarjeta: no lo escribas aquí"}, fieldErrors(a), name)
		require.Equal(t, 0, f.count(t, `SELECT count(*) FROM donors WHERE organization_id = $1 AND email = $2`, mail), name)
		require.Equal(t, 0, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1 AND idempotency_key = $2`, key), name)
	}
}

// A document number longer than its type allows (a DNI has at most 8 digits, a CUIT 11) is refused
// with its own message, in the donor's language, and nothing is stored.
func TestDocumentLongerThanItsTypeIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	mail := email()
	p := payload(token(t, f.cfg, "APRO"), 0, 1500, mail, uuid.NewString())
	p["donor"].(map[string]any)["uid_number"] = "123.456.789"
	p["payment_method"].(map[string]any)["cardholder_id_type"] = "CUIT"
	p["payment_method"].(map[string]any)["cardholder_id_number"] = "20-1234567890"
	a := post(t, f.srv.URL+"/d/"+f.slug, p)
	require.Equal(t, http.StatusUnprocessableEntity, a.Status, a.Body)
	require.Equal(t, "validation_failed", a.Code)
	tooLong := "El número de documento es más largo de lo que permite el tipo elegido"
	require.Equal(t, map[string]any{"donor.uid_number": tooLong, "payment_method.cardholder_id_number": tooLong}, fieldErrors(a))

	p["idempotency_key"] = uuid.NewString()
	p["payment_method"].(map[string]any)["cardholder_id_number"] = "20-17254359-7"
	a = post(t, f.srv.URL+"/d/"+f.slug+"?locale=en", p)
	require.Equal(t, map[string]any{"donor.uid_number": "The document number is longer than the chosen type allows"}, fieldErrors(a))
	a = post(t, f.srv.URL+"/d/"+f.slug+"?locale=pt", p)
	require.Equal(t, map[string]any{"donor.uid_number": "O número do documento é mais longo do que o tipo escolhido permite"}, fieldErrors(a))
	require.Equal(t, 0, f.count(t, `SELECT count(*) FROM donors WHERE organization_id = $1 AND email = $2`, mail))

	p["idempotency_key"] = uuid.NewString()
	p["donor"].(map[string]any)["uid_number"] = "12.345.678"
	a = post(t, f.srv.URL+"/d/"+f.slug, p)
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
}

// The manage area's donor editor refuses a card number in any field and a document too long for
// its type, and leaves the donor as it was.
func TestDonorEditRefusesCardNumbersAndLongDocuments(t *testing.T) {
	s := apitest.Start(t)
	admin, slug, _ := manageFixture(t, s)
	id := donate(t, s, slug, 0, 1000, "ana-"+uuid.NewString()[:8]+"@example.com")
	path := "/manage/api/donations/" + id + "/donor"

	res := admin.JSON(http.MethodPatch, path, map[string]string{"street": "Tarjeta 4509 9535 6623 3704"})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	require.Equal(t, "card.data_refused", res.ErrorCode())
	res = admin.JSON(http.MethodPatch, path, map[string]string{"uid_type": "DNI", "uid_number": "4509953566233704"})
	require.Equal(t, "card.data_refused", res.ErrorCode())
	res = admin.JSON(http.MethodPatch, path, map[string]string{"uid_type": "DNI", "uid_number": "123456789"})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	var e struct {
		Error struct{ Fields map[string]string } `json:"error"`
	}
	res.Decode(t, &e)
	require.Equal(t, map[string]string{"uid_number": "El número de documento es más largo de lo que permite el tipo elegido"}, e.Error.Fields)

	var d mdetail
	admin.JSON(http.MethodGet, "/manage/api/donations/"+id, nil).Decode(t, &d)
	require.Equal(t, "Ana", d.Donor.FirstName)
	var street, uid string
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	require.NoError(t, scope.QueryRow(context.Background(), "SELECT street, coalesce(uid_number, '') FROM donors WHERE organization_id = $1 AND id = $2",
		admin.OrgID, d.Donor.UUID).Scan(&street, &uid))
	require.Equal(t, []string{"", "12345678"}, []string{street, uid})
}

// The guard covers the operators' free text too: a campaign's texts and its form field definitions.
func TestCardNumberInCampaignTextsIsRefused(t *testing.T) {
	s := apitest.Start(t)
	admin, _, campID := manageFixture(t, s)
	path := "/manage/api/campaigns/" + campID
	res := admin.JSON(http.MethodPatch, path, map[string]string{"description": "Doná con la tarjeta 4509 9535 6623 3704"})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	require.Equal(t, "card.data_refused", res.ErrorCode())
	res = admin.JSON(http.MethodPut, path+"/form_fields", map[string]any{"form_fields": []map[string]any{
		{"type": "textfield", "title": "Tarjeta", "label": "Por ejemplo 4509953566233704", "width": "full"}}})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	var e struct {
		Error struct{ Fields map[string]string } `json:"error"`
	}
	res.Decode(t, &e)
	require.Equal(t, map[string]string{"form_fields.0.label": "Parece un número de tarjeta: no lo escribas aquí"}, e.Error.Fields)

	var got struct {
		Title       string `json:"title"`
		Description string `json:"description"`
		FormFields  []any  `json:"form_fields"`
	}
	res = admin.JSON(http.MethodGet, path, nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &got)
	require.Equal(t, "Campaña gestión", got.Title)
	require.NotContains(t, got.Description, "4509")
	require.Empty(t, got.FormFields)
}
