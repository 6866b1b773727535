package agency_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/agency"
	"github.com/aporta/aporta/api/apitest"
)

// TestAgencyManagementRoutesFollowKeto walks the work area's management routes on a synced donation
// for every agency role × grant combination: without the management grant each answers 403 and
// changes nothing; with it each goes through the manage area's change (amount, card, cancel,
// reactivate, discard, the collection workflow's updates); a campaign no longer authorised stops
// them (403); another agency's people do not find the donation (404); the organisation side has no
// work area (403).
func TestAgencyManagementRoutesFollowKeto(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	camp := publishedCampaign(t, s, admin.OrgID, "Calle Oeste")
	live := newAgency(t, admin, "Calle Oeste", "live", 0)
	assoc := "/manage/api/agencies/" + live.Agency.UUID + "/campaigns/" + camp.String()
	terms := map[string]any{"allow_one_time": true, "allow_other_amount": true, "amounts": []string{"500"}}
	apitest.OK[one](t, admin, http.MethodPost, assoc, terms)
	acquirer := newAgent(t, s, admin, live.Agency.UUID, "operator", true, false)
	res := acquirer.JSON(http.MethodPost, "/agency/api/acquisitions", signUp(t, s, camp, "1000"))
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var got agency.AcquisitionReply
	res.Decode(t, &got)
	id := got.Acquisition.UUID
	require.Eventually(t, func() bool {
		return count(t, s, admin.OrgID, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND status = 'active'", id) == 1
	}, 60*time.Second, 500*time.Millisecond, "synced, charged and collecting")

	path := "/agency/api/acquisitions/" + id
	card := func() map[string]any {
		return map[string]any{"gateway": map[string]any{"name": "mercadopago", "token": cardToken(t, s.Config)},
			"method_id": "visa", "bin": "450995", "last_four": "3704", "expiration_month": 12, "expiration_year": time.Now().Year() + 4,
			"cardholder_name": "Dora Calle", "cardholder_id_type": "DNI", "cardholder_id_number": "30111222"}
	}
	type route struct {
		name, method, path string
		body               func() map[string]any
	}
	routes := []route{
		{"amount", http.MethodPatch, path, func() map[string]any { return map[string]any{"amount": "1200"} }},
		{"payment_method", http.MethodPost, path + "/payment_method", card},
		{"pause", http.MethodPost, path + "/pause", func() map[string]any { return map[string]any{"reason": ""} }},
		{"restore", http.MethodPost, path + "/restore", func() map[string]any { return nil }},
		{"discard", http.MethodPost, path + "/discard", func() map[string]any { return map[string]any{"reason": "pedido del donante"} }},
	}
	state := func() string {
		scope, err := s.Tenants.ForOrganization(t.Context(), admin.OrgID)
		require.NoError(t, err)
		var st string
		var amount int64
		var pm string
		require.NoError(t, scope.QueryRow(t.Context(), "SELECT status, amount_minor, payment_method_id::text FROM donations WHERE organization_id = $1 AND id = $2",
			admin.OrgID, id).Scan(&st, &amount, &pm))
		return fmt.Sprint(st, amount, pm)
	}

	var managers []*apitest.Client
	for _, role := range []string{"manager", "operator", "supervisor"} {
		for _, acq := range []bool{false, true} {
			for _, mgmt := range []bool{false, true} {
				c := newAgent(t, s, admin, live.Agency.UUID, role, acq, mgmt)
				if mgmt {
					managers = append(managers, c)
					continue
				}
				before := state()
				for _, r := range routes {
					requireCode(t, c.JSON(r.method, r.path, r.body()), http.StatusForbidden, "forbidden")
				}
				require.Equal(t, before, state(), "%s acquisition=%v: nothing changed", role, acq)
			}
		}
	}
	require.Len(t, managers, 6)

	// Another agency's people with every grant, and the organisation's administrator, reach nothing.
	other := newAgency(t, admin, "Calle Otra", "live", 0)
	outsider := newAgent(t, s, admin, other.Agency.UUID, "manager", true, true)
	before := state()
	for _, r := range routes {
		requireCode(t, outsider.JSON(r.method, r.path, r.body()), http.StatusNotFound, "not_found")
		requireCode(t, admin.JSON(r.method, r.path, r.body()), http.StatusForbidden, "forbidden")
	}
	// A campaign no longer authorised to the agency: management stops there.
	apitest.OK[one](t, admin, http.MethodDelete, assoc, nil)
	for _, r := range routes {
		requireCode(t, managers[0].JSON(r.method, r.path, r.body()), http.StatusForbidden, "forbidden")
	}
	require.Equal(t, before, state())
	apitest.OK[one](t, admin, http.MethodPost, assoc, terms)

	// With the grant, each change is the manage area's, one person after another.
	for i, r := range routes {
		res := managers[i].JSON(r.method, r.path, r.body())
		require.Equal(t, http.StatusOK, res.Status, "%s: %s", r.name, res.Body)
		switch r.name {
		case "amount":
			require.Equal(t, 1, count(t, s, admin.OrgID, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND amount_minor = 120000", id))
		case "pause":
			require.Equal(t, 1, count(t, s, admin.OrgID, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND status = 'paused'", id))
		case "restore":
			require.Equal(t, 1, count(t, s, admin.OrgID, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND status = 'active'", id))
		case "discard":
			require.Equal(t, 1, count(t, s, admin.OrgID, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND status = 'discarded'", id))
		}
	}
	// The list shows the donation as the changes left it: its amount now and its status.
	var list agency.Acquisitions
	res = managers[0].JSON(http.MethodGet, "/agency/api/acquisitions", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &list)
	require.Len(t, list.Acquisitions, 1)
	require.Equal(t, "discarded", list.Acquisitions[0].DonationStatus)
	require.EqualValues(t, 120000, list.Acquisitions[0].Amount.Minor)
	// The dialogs' reasons, in the agent's language, to anyone of the agency.
	var reasons struct {
		Pause []struct{ Code, Label string } `json:"pause_reasons"`
	}
	res = acquirer.JSON(http.MethodGet, "/agency/api/donation_reasons?locale=en", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &reasons)
	require.NotEmpty(t, reasons.Pause)
	require.NotEqual(t, reasons.Pause[0].Code, reasons.Pause[0].Label)
	requireCode(t, admin.JSON(http.MethodGet, "/agency/api/donation_reasons", nil), http.StatusForbidden, "forbidden")

	// Every change is in the donation's history under the agent who made it.
	require.GreaterOrEqual(t, count(t, s, admin.OrgID, "SELECT count(*) FROM donation_versions WHERE organization_id = $1 AND donation_id = $2 AND actor = ANY($3)",
		id, []string{managers[0].UserID.String(), managers[1].UserID.String(), managers[2].UserID.String(), managers[3].UserID.String(), managers[4].UserID.String()}), 5)
}
