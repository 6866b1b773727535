package agency_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/agency"
	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"

	"github.com/google/uuid"
)

// TestAgencyChargesThroughTheOrganisationsActiveGateway: an organisation that switched to
// CentralPos gets its street sign-ups tokenised and charged there, as its public form does: the work
// area names CentralPos's tokeniser and the merchant's publishable key, the card is saved at the
// merchant, and the sync's first charge lands in the merchant's ledger once, none at MercadoPago.
func TestAgencyChargesThroughTheOrganisationsActiveGateway(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR") // connected to MercadoPago first
	ctx := context.Background()
	scope, err := s.Tenants.ForOrganization(ctx, admin.OrgID)
	require.NoError(t, err)
	_, cp, err := sandboxauth.ConnectCentralPos(ctx, s.Config, s.Config.GatewayURL, scope, "Agencia CP "+admin.OrgID.String()[:8])
	require.NoError(t, err)

	camp := publishedCampaign(t, s, admin.OrgID, "Calle CP")
	live := newAgency(t, admin, "Calle CP", "live", 0)
	apitest.OK[one](t, admin, http.MethodPost, "/manage/api/agencies/"+live.Agency.UUID+"/campaigns/"+camp.String(),
		map[string]any{"allow_one_time": true, "allow_other_amount": true, "amounts": []string{}})
	op := newAgent(t, s, admin, live.Agency.UUID, "operator", true, false)

	me := apitest.OK[agency.Me](t, op, http.MethodGet, "/agency/api/me", nil)
	require.Equal(t, agency.Tokenizer{Name: "centralpos", TokenizerURL: s.Config.CentralPosPublicURL, PublicKey: cp.PublicKey}, me.Gateway)

	body := signUp(t, s, camp, "1200")
	body["recurrence"] = 0 // one-time: the first transaction's id is its charge's reference
	body["card"].(map[string]any)["token"] = cpToken(t, me.Gateway)
	res := op.JSON(http.MethodPost, "/agency/api/acquisitions", body)
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var got agency.AcquisitionReply
	res.Decode(t, &got)
	id := uuid.MustParse(got.Acquisition.UUID)

	require.Eventually(t, func() bool {
		return count(t, s, admin.OrgID, "SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'", id) == 1
	}, 60*time.Second, 500*time.Millisecond, "the sync charges the first transaction")
	require.Equal(t, 1, count(t, s, admin.OrgID, `SELECT count(*) FROM payment_methods pm JOIN donations d ON d.organization_id = pm.organization_id
		AND d.payment_method_id = pm.id WHERE pm.organization_id = $1 AND d.id = $2 AND pm.gateway = 'centralpos'`, id))
	ref := charge.FirstTransactionID(id).String()
	q := url.Values{"merchant_id": {cp.AccountID}, "reference": {ref}}
	require.Len(t, getJSON(t, s.Config.GatewayURL+"/__sandbox/centralpos/charges?"+q.Encode()), 1, "charged once at the merchant")
	require.Empty(t, getJSON(t, s.Config.GatewayURL+"/__sandbox/payments?external_reference="+ref), "nothing at MercadoPago")
}

// cpToken tokenises a test card at CentralPos with the publishable key the work area gave, as the
// agent's browser does.
func cpToken(t *testing.T, gw agency.Tokenizer) string {
	t.Helper()
	return sandboxtest.CentralPosToken(t, gw.TokenizerURL, gw.PublicKey, "4509953566233704", "APRO")
}

func getJSON(t *testing.T, u string) []map[string]any {
	t.Helper()
	res, err := http.Get(u)
	require.NoError(t, err)
	defer res.Body.Close()
	var out []map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	return out
}
