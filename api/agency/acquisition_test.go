package agency_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/agency"
	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
)

// cardToken tokenises a test card at the sandbox, as the agent's browser does.
func cardToken(t *testing.T, cfg *config.Config) string {
	t.Helper()
	return sandboxtest.CardToken(t, cfg.GatewayURL, "", "4509953566233704", "APRO")
}

func signUp(t *testing.T, s *apitest.Stack, campaign uuid.UUID, amount string) map[string]any {
	t.Helper()
	// A key without digits: a random one's digit runs can pass for a card number, which the card guard refuses.
	key := "k-" + strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return 'g' + (r - '0')
		}
		return r
	}, uuid.NewString())
	return map[string]any{"campaign": campaign.String(), "amount": amount, "recurrence": 1, "idempotency_key": key,
		"donor": map[string]any{"email": "donante-" + uuid.NewString()[:8] + "@example.org", "first_name": "Dora", "last_name": "Calle",
			"uid_type": "DNI", "uid_number": "30111222"},
		"card": map[string]any{"token": cardToken(t, s.Config), "method_id": "visa", "bin": "450995", "last_four": "3704",
			"expiration_month": 11, "expiration_year": time.Now().Year() + 3, "cardholder_name": "APRO"}}
}

func count(t *testing.T, s *apitest.Stack, orgID uuid.UUID, sql string, args ...any) int {
	t.Helper()
	scope, err := s.Tenants.ForOrganization(context.Background(), orgID)
	require.NoError(t, err)
	var n int
	require.NoError(t, scope.QueryRow(context.Background(), sql, append([]any{orgID}, args...)...).Scan(&n))
	return n
}

// TestAgentSignsDonorsUpWithinWhatTheOrganisationAllowed: a live agency with no delay syncs at once
// through the worker (one donation, acquired by the agency, charged once); a practice agency's
// sign-ups never reach the gateway or the organisation; another agency reaches nothing of it; the
// amount of a synced donation changes only once the organisation grants management.
func TestAgentSignsDonorsUpWithinWhatTheOrganisationAllowed(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	camp := publishedCampaign(t, s, admin.OrgID, "Calle Norte")
	live := newAgency(t, admin, "Calle Norte", "live", 0)
	apitest.OK[one](t, admin, http.MethodPost, "/manage/api/agencies/"+live.Agency.UUID+"/campaigns/"+camp.String(),
		map[string]any{"allow_one_time": false, "allow_other_amount": false, "amounts": []string{"500", "1000"}})
	op := newAgent(t, s, admin, live.Agency.UUID, "operator", true, false)
	watcher := newAgent(t, s, admin, live.Agency.UUID, "supervisor", false, false)

	// What the association does not offer is refused and stores nothing.
	bad := signUp(t, s, camp, "700")
	requireCode(t, op.JSON(http.MethodPost, "/agency/api/acquisitions", bad), http.StatusUnprocessableEntity, "validation_failed")
	bad = signUp(t, s, camp, "500")
	bad["recurrence"] = 0
	requireCode(t, op.JSON(http.MethodPost, "/agency/api/acquisitions", bad), http.StatusUnprocessableEntity, "validation_failed")
	// A supervisor without the acquisition grant signs nobody up.
	requireCode(t, watcher.JSON(http.MethodPost, "/agency/api/acquisitions", signUp(t, s, camp, "500")), http.StatusForbidden, "forbidden")
	require.Zero(t, count(t, s, admin.OrgID, "SELECT count(*) FROM agency_acquisitions WHERE organization_id = $1"))

	body := signUp(t, s, camp, "1000")
	res := op.JSON(http.MethodPost, "/agency/api/acquisitions", body)
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var got agency.AcquisitionReply
	res.Decode(t, &got)
	id := got.Acquisition.UUID
	// The same submission again is the same acquisition.
	again := op.JSON(http.MethodPost, "/agency/api/acquisitions", body)
	require.Equal(t, http.StatusCreated, again.Status, string(again.Body))
	var twin agency.AcquisitionReply
	again.Decode(t, &twin)
	require.Equal(t, id, twin.Acquisition.UUID)

	require.Eventually(t, func() bool {
		return count(t, s, admin.OrgID, "SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'", id) == 1
	}, 60*time.Second, 500*time.Millisecond, "the sync makes the donation and charges it")
	require.Equal(t, 1, count(t, s, admin.OrgID, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND agency_id = $3 AND acquired_by = $4 AND amount_minor = 100000",
		id, live.Agency.UUID, op.UserID))
	// The organisation's list filters by the agency and names it; so does the CSV.
	var donations struct {
		Donations []struct {
			UUID       string `json:"uuid"`
			AcquiredBy *struct {
				UUID string `json:"uuid"`
				Name string `json:"name"`
			} `json:"acquired_by"`
		} `json:"donations"`
	}
	admin.JSON(http.MethodGet, "/manage/api/donations?agency="+live.Agency.UUID, nil).Decode(t, &donations)
	require.Len(t, donations.Donations, 1)
	require.Equal(t, id, donations.Donations[0].UUID)
	require.Equal(t, "Calle Norte", donations.Donations[0].AcquiredBy.Name)
	admin.JSON(http.MethodGet, "/manage/api/donations?agency="+uuid.NewString(), nil).Decode(t, &donations)
	require.Empty(t, donations.Donations)
	requireCode(t, admin.JSON(http.MethodGet, "/manage/api/donations?agency=x", nil), http.StatusUnprocessableEntity, "validation_failed")
	csv := admin.JSON(http.MethodGet, "/manage/api/donations.csv?agency="+live.Agency.UUID, nil)
	require.Equal(t, http.StatusOK, csv.Status, string(csv.Body))
	require.Contains(t, string(csv.Body), ",acquired_by")
	require.Contains(t, string(csv.Body), ",Calle Norte")

	list := apitest.OK[agency.Acquisitions](t, op, http.MethodGet, "/agency/api/acquisitions", nil)
	require.Len(t, list.Acquisitions, 1)
	require.Equal(t, "synced", list.Acquisitions[0].Status)

	// Changing the synced donation's amount needs the management grant.
	path := "/agency/api/acquisitions/" + id
	requireCode(t, op.JSON(http.MethodPatch, path, map[string]any{"amount": "1500"}), http.StatusForbidden, "forbidden")
	apitest.OK[agency.UserReply](t, admin, http.MethodPatch, "/manage/api/agencies/"+live.Agency.UUID+"/users/"+op.UserID.String(),
		map[string]any{"role": "operator", "acquisition": true, "management": true})
	apitest.OK[agency.AcquisitionReply](t, op, http.MethodPatch, path, map[string]any{"amount": "1500"})
	require.Equal(t, 1, count(t, s, admin.OrgID, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND amount_minor = 150000", id))

	// A second agency of the organisation, and another organisation, reach none of it.
	other := newAgency(t, admin, "Calle Sur", "sandbox", 0)
	opB := newAgent(t, s, admin, other.Agency.UUID, "manager", true, true)
	requireCode(t, opB.JSON(http.MethodPost, "/agency/api/acquisitions", signUp(t, s, camp, "500")), http.StatusForbidden, "forbidden")
	requireCode(t, opB.JSON(http.MethodPatch, path, map[string]any{"amount": "500"}), http.StatusNotFound, "not_found")
	requireCode(t, opB.JSON(http.MethodPost, path+"/void", nil), http.StatusNotFound, "not_found")
	require.Empty(t, apitest.OK[agency.Acquisitions](t, opB, http.MethodGet, "/agency/api/acquisitions", nil).Acquisitions)
	stranger := s.NewOrgAdmin(t, "AR")
	requireCode(t, stranger.JSON(http.MethodGet, "/agency/api/acquisitions", nil), http.StatusForbidden, "forbidden")

	// Practice: the sandbox agency's sign-up is stored apart, never charged, never synced.
	apitest.OK[one](t, admin, http.MethodPost, "/manage/api/agencies/"+other.Agency.UUID+"/campaigns/"+camp.String(),
		map[string]any{"allow_one_time": true, "allow_other_amount": true, "amounts": []string{}})
	practice := opB.JSON(http.MethodPost, "/agency/api/acquisitions", signUp(t, s, camp, "777"))
	require.Equal(t, http.StatusCreated, practice.Status, string(practice.Body))
	var p agency.AcquisitionReply
	practice.Decode(t, &p)
	require.Equal(t, "practice", p.Acquisition.Status)
	require.Zero(t, count(t, s, admin.OrgID, "SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2", p.Acquisition.UUID))
	require.Equal(t, 1, count(t, s, admin.OrgID, "SELECT count(*) FROM agency_acquisitions WHERE organization_id = $1 AND id = $2 AND customer_id IS NULL AND card_id IS NULL", p.Acquisition.UUID))
}

// TestPendingAcquisitionIsCorrectedVoidedAndHiddenUntilItsDelay: with a delay, the organisation
// sees nothing; the agent corrects the amount, a supervisor voids another; the operator cannot void
// a colleague's; discarding the agency leaves the pending one to be voided by its sync.
func TestPendingAcquisitionIsCorrectedVoidedAndHiddenUntilItsDelay(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	camp := publishedCampaign(t, s, admin.OrgID, "Calle Este")
	a := newAgency(t, admin, "Calle Este", "live", 3600)
	apitest.OK[one](t, admin, http.MethodPost, "/manage/api/agencies/"+a.Agency.UUID+"/campaigns/"+camp.String(),
		map[string]any{"allow_one_time": true, "allow_other_amount": true, "amounts": []string{"500"}})
	op := newAgent(t, s, admin, a.Agency.UUID, "operator", true, false)
	colleague := newAgent(t, s, admin, a.Agency.UUID, "operator", true, false)
	sup := newAgent(t, s, admin, a.Agency.UUID, "supervisor", false, false)

	var first, second agency.AcquisitionReply
	r := op.JSON(http.MethodPost, "/agency/api/acquisitions", signUp(t, s, camp, "500"))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	r.Decode(t, &first)
	r = op.JSON(http.MethodPost, "/agency/api/acquisitions", signUp(t, s, camp, "500"))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	r.Decode(t, &second)
	require.Equal(t, "pending", first.Acquisition.Status)
	require.NotNil(t, first.Acquisition.SyncAt)
	require.Zero(t, count(t, s, admin.OrgID, "SELECT count(*) FROM donations WHERE organization_id = $1"), "nothing is the organisation's during the delay")

	fixed := apitest.OK[agency.AcquisitionReply](t, op, http.MethodPatch, "/agency/api/acquisitions/"+first.Acquisition.UUID, map[string]any{"amount": "650"})
	require.Equal(t, int64(65000), fixed.Acquisition.Amount.Minor)
	requireCode(t, colleague.JSON(http.MethodPost, "/agency/api/acquisitions/"+second.Acquisition.UUID+"/void", nil), http.StatusForbidden, "forbidden")
	voided := apitest.OK[agency.AcquisitionReply](t, sup, http.MethodPost, "/agency/api/acquisitions/"+second.Acquisition.UUID+"/void", nil)
	require.Equal(t, "voided", voided.Acquisition.Status)
	requireCode(t, sup.JSON(http.MethodPost, "/agency/api/acquisitions/"+second.Acquisition.UUID+"/void", nil), http.StatusConflict, "agency.not_pending")
}
