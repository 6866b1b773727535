package donation_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// Anyone can type a donor's e-mail into a public form: a second, anonymous submission with it
// leaves the donor's stored name, document and phone as they were, while its own donation keeps the
// data it was sent with, shown in the donation's detail, its receipt and the export.
func TestAnonymousSubmissionWithSameEmailLeavesTheDonorUnchanged(t *testing.T) {
	s := apitest.Start(t)
	ctx := context.Background()
	admin := s.NewOrgAdmin(t, "AR")
	scope := tenantstest.SetStatus(t, s.Tenants, admin.OrgID, "enabled", "essential_monthly")
	cp := apitest.PublishedCampaign(t, s.Tenants, admin.OrgID, campaign.Input{Title: "Campaña datos", Type: "fundraise", Channel: "public",
		AllowOneTime: true, Amounts: []campaign.Amount{{Amount: "500"}}, Thanks: campaign.Thanks{Instant: "¡Gracias {nombre}!"},
		FormFields: []campaign.FormField{{Type: "cellphone", Title: "Celular", Width: "half", ValueRelatedTo: "donor.cellphone"}}})
	url := s.Server.URL + "/d/" + cp.Slug
	mail := email()

	p := payload(token(t, s.Config, "APRO"), 0, 500, mail, uuid.NewString())
	p["form_fields"] = []map[string]any{{"order": 0, "value": "+54 9 11 5555-1234"}}
	first := post(t, url, p)
	require.Equal(t, http.StatusCreated, first.Status, first.Body)

	p = payload(token(t, s.Config, "APRO"), 0, 500, mail, uuid.NewString())
	p["donor"] = map[string]any{"first_name": "Mallory", "last_name": "Intrusa", "email": mail, "uid_type": "DNI", "uid_number": "87654321"}
	p["payment_method"].(map[string]any)["cardholder_id_number"] = "87654321"
	p["form_fields"] = []map[string]any{{"order": 0, "value": "+54 9 11 6666-0000"}}
	second := post(t, url, p)
	require.Equal(t, http.StatusCreated, second.Status, second.Body)
	require.Equal(t, "¡Gracias Mallory!", second.Message)

	var firstName, last, uid, cellphone string
	require.NoError(t, scope.QueryRow(ctx, "SELECT first_name, last_name, uid_number, cellphone FROM donors WHERE organization_id = $1 AND email = $2",
		admin.OrgID, mail).Scan(&firstName, &last, &uid, &cellphone))
	require.Equal(t, []string{"Ana", "Pérez", "12345678", "+54 9 11 5555-1234"}, []string{firstName, last, uid, cellphone})

	// Each donation keeps what it was sent with; the detail shows it beside the donor's record.
	var d struct {
		Donation struct {
			SubmittedDonor map[string]string `json:"submitted_donor"`
		} `json:"donation"`
		Donor struct {
			FirstName string `json:"first_name"`
			UIDNumber string `json:"uid_number"`
		} `json:"donor"`
	}
	res := admin.JSON(http.MethodGet, "/manage/api/donations/"+second.Donation, nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &d)
	require.Equal(t, "Ana", d.Donor.FirstName)
	require.Equal(t, "12345678", d.Donor.UIDNumber)
	require.Equal(t, map[string]string{"first_name": "Mallory", "last_name": "Intrusa", "email": mail, "uid_type": "DNI",
		"uid_number": "87654321", "cellphone": "+54 9 11 6666-0000"}, d.Donation.SubmittedDonor)
	admin.JSON(http.MethodGet, "/manage/api/donations/"+first.Donation, nil).Decode(t, &d)
	require.Equal(t, "Ana", d.Donation.SubmittedDonor["first_name"])
	require.Equal(t, "+54 9 11 5555-1234", d.Donation.SubmittedDonor["cellphone"])

	// The receipt of the second donation greets its own donor, not the stored one.
	r := get(t, s.Server.URL+"/api/public/campaigns/"+cp.Slug+"/receipts/"+second.Body["receipt"].(string), "es")
	require.Equal(t, http.StatusOK, r.Status, r.Body)
	require.Equal(t, "¡Gracias Mallory!", r.Body["message"])

	// The export has the submitted data in columns of its own.
	res = admin.Do(http.MethodGet, "/manage/api/donations.csv", nil, "")
	require.Equal(t, http.StatusOK, res.Status)
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(res.Body, []byte("\xEF\xBB\xBF")))).ReadAll()
	require.NoError(t, err)
	col := slices.Index(recs[0], "submitted_first_name")
	require.Positive(t, col)
	require.Equal(t, []string{"submitted_first_name", "submitted_last_name", "submitted_email", "submitted_document_type",
		"submitted_document_number"}, recs[0][col:col+5])
	byUUID := map[string][]string{}
	for _, rec := range recs[1:] {
		byUUID[rec[0]] = rec
	}
	require.Equal(t, []string{"Mallory", "Intrusa", mail, "DNI", "87654321"}, byUUID[second.Donation][col:col+5])
	require.Equal(t, []string{"Ana", "Pérez"}, byUUID[second.Donation][3:5], "the donor's own columns")
	require.Equal(t, []string{"Ana", "Pérez", mail, "DNI", "12345678"}, byUUID[first.Donation][col:col+5])
}
