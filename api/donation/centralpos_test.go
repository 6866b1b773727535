package donation_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/collection"
)

// cpToken tokenises a card at the organisation's CentralPos merchant as the donor's browser does:
// with the publishable key the public read gives, straight to CentralPos.
func (f fixture) cpToken(t *testing.T, pan, holder string) string {
	t.Helper()
	return sandboxtest.CentralPosToken(t, f.cfg.CentralPosPublicURL, f.cp.PublicKey, pan, holder)
}

// cpCharges are the charges with a reference in the ledger of the organisation's merchant.
func (f fixture) cpCharges(t *testing.T, reference string) []map[string]any {
	t.Helper()
	q := url.Values{"merchant_id": {f.cp.AccountID}, "reference": {reference}}
	res, err := http.Get(f.cfg.GatewayURL + "/__sandbox/centralpos/charges?" + q.Encode())
	require.NoError(t, err)
	defer res.Body.Close()
	var out []map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	return out
}

// cpPayload is a submission whose card was tokenised at CentralPos.
func cpPayload(tok string, recurrency int, amount any, key string) map[string]any {
	p := payload(tok, recurrency, amount, email(), key)
	p["payment_method"].(map[string]any)["gateway"].(map[string]any)["name"] = "centralpos"
	return p
}

// An organisation whose only gateway is CentralPos takes one-time and monthly donations on its public
// form: the read names CentralPos with the merchant's publishable key, brands and limits, every charge
// lands in that merchant's ledger (none at MercadoPago), a repeated submission charges once, and a
// decline answers the donor's message.
func TestCentralPosOrganizationTakesDonations(t *testing.T) {
	t.Parallel()
	f := setupAt(t, tenantstest.Config(t), connections.CentralPos, nil)

	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug)
	require.NoError(t, err)
	var read struct {
		Accepting bool              `json:"accepting_donations"`
		Gateway   map[string]string `json:"gateway"`
		Methods   []struct {
			ID string `json:"id"`
		} `json:"payment_methods"`
		Limits struct {
			Min struct{ Decimal string } `json:"min"`
		} `json:"limits"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&read))
	res.Body.Close()
	require.True(t, read.Accepting)
	require.Equal(t, map[string]string{"name": "centralpos", "public_key": f.cp.PublicKey, "tokenizer_url": f.cfg.CentralPosPublicURL}, read.Gateway)
	require.Contains(t, read.Methods, struct {
		ID string `json:"id"`
	}{"debvisa"}, "brands from the merchant")
	require.Equal(t, "10.00", read.Limits.Min.Decimal, "limits from the merchant")

	// One-time, submitted twice with the same key: one donation, one charge.
	key := uuid.NewString()
	body := cpPayload(f.cpToken(t, "4509953566233704", "APRO"), 0, 1500, key)
	a := post(t, f.srv.URL+"/d/"+f.slug, body)
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	require.Equal(t, "approved", a.Body["status"])
	again := post(t, f.srv.URL+"/d/"+f.slug, body)
	require.Equal(t, http.StatusOK, again.Status, again.Body)
	require.Equal(t, a.Donation, again.Donation)
	ref := charge.FirstTransactionID(uuid.MustParse(a.Donation)).String()
	charges := f.cpCharges(t, ref)
	require.Len(t, charges, 1)
	require.Equal(t, "succeeded", charges[0]["state"])
	require.EqualValues(t, 150000, charges[0]["amount"])
	require.Empty(t, sandboxPayments(t, f.cfg, ref), "nothing at MercadoPago")
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM payment_methods pm JOIN donations d ON d.organization_id = pm.organization_id
		AND d.payment_method_id = pm.id WHERE pm.organization_id = $1 AND d.id = $2 AND pm.gateway = 'centralpos' AND pm.card_id LIKE 'ins_%'`,
		uuid.MustParse(a.Donation)))

	// Monthly: the first period is charged by the form, and the collection workflow reads it back
	// at CentralPos instead of charging it again.
	m := post(t, f.srv.URL+"/d/"+f.slug, cpPayload(f.cpToken(t, "5031755734530604", "APRO"), 1, "500", uuid.NewString()))
	require.Equal(t, http.StatusCreated, m.Status, m.Body)
	require.Equal(t, "approved", m.Body["status"])
	id := uuid.MustParse(m.Donation)
	period := time.Now().In(must(time.LoadLocation("America/Argentina/Buenos_Aires"))).Format("2006-01")
	periodRef := charge.Transaction{DonationID: id, Period: period, Attempt: 1}.Key().Reference
	require.Eventually(t, func() bool { return periodCharged(t, f.tc, collection.WorkflowID(id.String())) }, 15*time.Second, 200*time.Millisecond)
	require.Len(t, f.cpCharges(t, periodRef), 1)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2`, id))
	_, err = f.tc.DescribeWorkflowExecution(context.Background(), collection.WorkflowID(id.String()), "")
	require.NoError(t, err)

	// A decline, in CentralPos's terms, is the donor's message.
	d := post(t, f.srv.URL+"/d/"+f.slug, cpPayload(f.cpToken(t, "4509953566233704", "FUND"), 0, 1500, uuid.NewString()))
	require.Equal(t, http.StatusPaymentRequired, d.Status, d.Body)
	require.Equal(t, "donation.rejected_insufficient_funds", d.Code)
}
