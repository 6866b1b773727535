package donation_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway/cvault"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/processing"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/workflows/collection"
)

// localProcessor adds a local processor (its dLocal merchant opened at the stack's sandbox) whose rule
// routes the fixture's campaign, as the gateways page does, and answers its merchant's login.
func (f fixture) localProcessor(t *testing.T, descriptor string) string {
	t.Helper()
	return f.processor(t, processing.Local, descriptor, 399, false, f.camp)
}

// processor adds a processor of the family whose rules retry declines or route campaigns, and
// answers its merchant's login.
func (f fixture) processor(t *testing.T, family, descriptor string, feeBps int32, retry bool, campaigns ...uuid.UUID) string {
	t.Helper()
	ctx := context.Background()
	scope, err := f.tt.ForOrganization(ctx, f.org)
	require.NoError(t, err)
	conns, err := connections.Open(ctx, f.cfg)
	require.NoError(t, err)
	id := uuid.New()
	m, err := processing.New(f.cfg, conns.Box).Onboard(ctx, scope, id, "Fundación Test", feeBps)
	require.NoError(t, err)
	q := scope.Store()
	_, err = q.InsertPaymentProcessor(ctx, sharddb.InsertPaymentProcessorParams{OrganizationID: f.org, ID: id, Family: family,
		GatewayName: "dlocal", SoftDescriptor: descriptor, Position: 1, GatewayAccountName: "Fundación Test", RuleRetry: retry,
		MerchantLogin: &m.Login, PublicKey: &m.PublicKey, Secret: m.Sealed.Blob, KeyID: &m.Sealed.KeyID})
	require.NoError(t, err)
	if len(campaigns) > 0 {
		require.NoError(t, q.AddProcessorCampaigns(ctx, sharddb.AddProcessorCampaignsParams{OrganizationID: f.org, ProcessorID: id,
			CampaignIds: campaigns}))
	}
	return m.Login
}

// vaultToken tokenises a card at the card vault as the donor's browser does, with the key the form read.
func vaultToken(t *testing.T, url, key, pan, holder string) string {
	t.Helper()
	v, err := cvault.New(cvault.Config{BaseURL: url, Key: key})
	require.NoError(t, err)
	tok, err := v.Tokenize(context.Background(), cvault.Card{CountryCode: "AR", HolderName: holder, PAN: pan, ExpirationMonth: 11,
		ExpirationYear: time.Now().Year() + 3, CVV: "123"})
	require.NoError(t, err)
	return tok.Token
}

// dlToken tokenises a card at the processor as the donor's browser does: the public key the form read
// gives, straight to the processor's tokeniser.
func dlToken(t *testing.T, tokenizer, publicKey, holder string) string {
	t.Helper()
	return dlTokenFor(t, tokenizer, publicKey, "4509953566233704", holder)
}

// dlTokenFor is dlToken of another card number.
func dlTokenFor(t *testing.T, tokenizer, publicKey, pan, holder string) string {
	t.Helper()
	return sandboxtest.DLocalToken(t, tokenizer, publicKey, pan, holder)
}

type dlLedger struct {
	Payments []struct {
		OrderID    string `json:"order_id"`
		Status     string `json:"status"`
		Descriptor string `json:"descriptor"`
		Fee        string `json:"fee"`
		Amount     string `json:"amount"`
		Card       struct {
			CardID string `json:"card_id"`
			Last4  string `json:"last4"`
		} `json:"card"`
	} `json:"payments"`
}

func ledgerOf(t *testing.T, f fixture, login string) dlLedger {
	t.Helper()
	res, err := http.Get(f.cfg.GatewayURL + "/__sandbox/dlocal/ledger?x_login=" + login)
	require.NoError(t, err)
	defer res.Body.Close()
	var l dlLedger
	require.NoError(t, json.NewDecoder(res.Body).Decode(&l))
	return l
}

// A campaign a local processor's rule routes: the form tokenises at the processor with its public key
// and takes its §9 amount range (AR: 10 to 3,000,000, above the defaults' 8,000); the charge lands in
// the processor's ledger with the descriptor and fee, is recorded with the fee, and monthly
// collection reads the form's first period back at the processor instead of charging it again.
func TestProcessorRoutedCampaignTakesDonations(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	login := f.localProcessor(t, "FUNDACION TEST")

	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug)
	require.NoError(t, err)
	var read struct {
		Gateway map[string]string `json:"gateway"`
		Limits  struct {
			Max struct{ Decimal string } `json:"max"`
		} `json:"limits"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&read))
	res.Body.Close()
	require.Equal(t, "dlocal", read.Gateway["name"])
	require.Equal(t, f.cfg.DLocalPublicURL, read.Gateway["tokenizer_url"])
	require.NotEmpty(t, read.Gateway["public_key"])
	require.Equal(t, "3000000.00", read.Limits.Max.Decimal, "the processor's range for Argentina")

	body := payload(dlToken(t, read.Gateway["tokenizer_url"], read.Gateway["public_key"], "APRO"), 0, 9000, email(), uuid.NewString())
	body["payment_method"].(map[string]any)["gateway"].(map[string]any)["name"] = "dlocal"
	a := post(t, f.srv.URL+"/d/"+f.slug, body)
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	require.Equal(t, "approved", a.Body["status"])
	ref := charge.FirstTransactionID(uuid.MustParse(a.Donation)).String()
	l := ledgerOf(t, f, login)
	require.Len(t, l.Payments, 1)
	require.Equal(t, ref, l.Payments[0].OrderID)
	require.Equal(t, "MP*FUNDACION TEST", l.Payments[0].Descriptor)
	require.Equal(t, "359.10", l.Payments[0].Fee) // 3.99% of 9000.00
	require.Empty(t, sandboxPayments(t, f.cfg, ref), "nothing at the connected MercadoPago account")
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transaction_processor_fees WHERE organization_id = $1 AND transaction_id = $2
		AND amount_minor = 35910 AND fee_bps = 399 AND statement_descriptor = 'MP*FUNDACION TEST'`, uuid.MustParse(ref)))

	// Monthly: the form charges the first period at the processor; collection reads it back there.
	m := payload(dlToken(t, read.Gateway["tokenizer_url"], read.Gateway["public_key"], "APRO"), 1, "500", email(), uuid.NewString())
	m["payment_method"].(map[string]any)["gateway"].(map[string]any)["name"] = "dlocal"
	ma := post(t, f.srv.URL+"/d/"+f.slug, m)
	require.Equal(t, http.StatusCreated, ma.Status, ma.Body)
	require.Equal(t, "approved", ma.Body["status"])
	id := uuid.MustParse(ma.Donation)
	require.Eventually(t, func() bool { return periodCharged(t, f.tc, collection.WorkflowID(id.String())) }, 15*time.Second, 200*time.Millisecond)
	require.Len(t, ledgerOf(t, f, login).Payments, 2, "the first period charged once")
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2`, id))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM payment_methods pm JOIN donations d ON d.organization_id = pm.organization_id
		AND d.payment_method_id = pm.id WHERE pm.organization_id = $1 AND d.id = $2 AND pm.gateway = 'dlocal' AND pm.card_id LIKE 'CID-%'`, id))

	// Out of the processor's range for Argentina: refused before anything is charged.
	over := payload(dlToken(t, read.Gateway["tokenizer_url"], read.Gateway["public_key"], "APRO"), 0, 3000001, email(), uuid.NewString())
	over["payment_method"].(map[string]any)["gateway"].(map[string]any)["name"] = "dlocal"
	require.Equal(t, http.StatusUnprocessableEntity, post(t, f.srv.URL+"/d/"+f.slug, over).Status)
	require.Len(t, ledgerOf(t, f, login).Payments, 2)
}

// The retry rule on the real stack: the global processor retries what the connected gateway (the
// MercadoPago sandbox) declines. The public form says where to tokenise the card for it (the card
// vault, straight from the browser); a monthly donation whose first charge MercadoPago declines
// (cc_rejected_other_reason: its own refusal, which dLocal does not share) is retried once through
// the global processor with the card saved there from the vault's token and approved, with the
// processor's descriptor and fee. The period has one approved charge: the same submission again, and
// monthly collection reading the period back, charge nothing more. Without the vault's token, or
// with a token of another card, a decline is final.
func TestDeclinedChargeIsRetriedOnceThroughTheGlobalProcessor(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	login := f.processor(t, processing.Global, "Fundación Test", 549, true)

	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug)
	require.NoError(t, err)
	var read struct {
		Gateway map[string]string `json:"gateway"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&read))
	res.Body.Close()
	require.Equal(t, "mercadopago", read.Gateway["name"], "the connected gateway charges first")
	require.Equal(t, f.cfg.CVaultPublicURL, read.Gateway["vault_url"])
	require.Equal(t, f.cfg.CVaultKey, read.Gateway["vault_key"])

	const pan = "4509953566233704"
	body := payload(token(t, f.cfg, "OTHE"), 1, "500", email(), uuid.NewString())
	body["payment_method"].(map[string]any)["gateway"].(map[string]any)["vault_token"] =
		vaultToken(t, read.Gateway["vault_url"], read.Gateway["vault_key"], pan, "OTHE")
	a := post(t, f.srv.URL+"/d/"+f.slug, body)
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	require.Equal(t, "approved", a.Body["status"])
	id := uuid.MustParse(a.Donation)
	l := ledgerOf(t, f, login)
	require.Len(t, l.Payments, 1, "retried once through the global processor")
	ref := l.Payments[0].OrderID
	require.Contains(t, ref, id.String(), "under the period's key")
	require.Equal(t, "PAID", l.Payments[0].Status)
	require.Equal(t, "APORTA*Fundación Test", l.Payments[0].Descriptor)
	require.Equal(t, "27.45", l.Payments[0].Fee) // 5.49% of 500.00
	mp := sandboxPayments(t, f.cfg, ref)
	require.Len(t, mp, 1, "declined once at MercadoPago")
	require.Equal(t, "rejected", mp[0]["status"])
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions t JOIN transaction_processor_fees pf
		ON pf.organization_id = t.organization_id AND pf.transaction_id = t.id
		WHERE t.organization_id = $1 AND t.donation_id = $2 AND t.status = 'approved' AND pf.amount_minor = 2745`, id))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM processor_cards pc JOIN donations d ON d.organization_id = pc.organization_id
		AND d.payment_method_id = pc.payment_method_id WHERE pc.organization_id = $1 AND d.id = $2 AND pc.card_id LIKE 'CID-%'`, id))

	// The same submission again, and collection reading the period back: never a second charge.
	again := post(t, f.srv.URL+"/d/"+f.slug, body)
	require.Equal(t, "approved", again.Body["status"], again.Body)
	require.Eventually(t, func() bool { return periodCharged(t, f.tc, collection.WorkflowID(id.String())) }, 15*time.Second, 200*time.Millisecond)
	require.Len(t, ledgerOf(t, f, login).Payments, 1)
	require.Len(t, sandboxPayments(t, f.cfg, ref), 1)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2`, id))

	// No vault token: the card is not at the processor, and MercadoPago's decline is final.
	plain := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "OTHE"), 0, "500", email(), uuid.NewString()))
	require.Equal(t, http.StatusPaymentRequired, plain.Status, plain.Body)
	// A vault token of another card than the one MercadoPago saved is not kept: the decline is final too.
	other := payload(token(t, f.cfg, "OTHE"), 0, "500", email(), uuid.NewString())
	other["payment_method"].(map[string]any)["gateway"].(map[string]any)["vault_token"] =
		vaultToken(t, read.Gateway["vault_url"], read.Gateway["vault_key"], "4111111111111111", "APRO")
	mismatch := post(t, f.srv.URL+"/d/"+f.slug, other)
	require.Equal(t, http.StatusPaymentRequired, mismatch.Status, mismatch.Body)
	require.Len(t, ledgerOf(t, f, login).Payments, 1, "nothing more at the processor")
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM processor_cards WHERE organization_id = $1`))
}

// cardChange is a manage-area organisation (an administrator, the MercadoPago sandbox connected)
// whose campaign's first period the collection workflow charges (not the form), with a processor
// added as the gateways page does, and what the campaign's public form says of its gateway.
type cardChange struct {
	s     *apitest.Stack
	admin *apitest.Client
	f     fixture
	login string            // the processor's merchant
	form  map[string]string // the public form's gateway
}

func newCardChange(t *testing.T, family string, feeBps int32, retry, routed bool) cardChange {
	t.Helper()
	s := apitest.Start(t)
	admin, slug, campID := manageFixture(t, s)
	camp := uuid.MustParse(campID)
	_, err := campaign.NewService(s.Tenants).Update(context.Background(), admin.OrgID, camp, func(in *campaign.Input) error {
		in.ImmediateCharge = false
		return nil
	})
	require.NoError(t, err)
	f := fixture{srv: s.Server, cfg: s.Config, tt: s.Tenants, org: admin.OrgID, slug: slug, camp: camp, tc: s.Temporal}
	var routes []uuid.UUID
	if routed {
		routes = append(routes, camp)
	}
	c := cardChange{s: s, admin: admin, f: f, login: f.processor(t, family, "Fundación Test", feeBps, retry, routes...)}
	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug)
	require.NoError(t, err)
	defer res.Body.Close()
	var read struct {
		Gateway map[string]string `json:"gateway"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&read))
	c.form = read.Gateway
	return c
}

// declinedAtProcessor posts a monthly donation, waits until the collection workflow charged its first
// period, which the processor must have declined, and answers the donation's manage path and the card
// the processor was asked to charge.
func (c cardChange) declinedAtProcessor(t *testing.T, body map[string]any) (path, card string) {
	t.Helper()
	a := post(t, c.f.srv.URL+"/d/"+c.f.slug, body)
	require.Contains(t, []int{http.StatusCreated, http.StatusOK}, a.Status, a.Body)
	require.Eventually(t, func() bool {
		return c.f.count(t, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'rejected'`,
			uuid.MustParse(a.Donation)) > 0
	}, 30*time.Second, 300*time.Millisecond, "the workflow charges the first period, declined")
	l := ledgerOf(t, c.f, c.login)
	require.Len(t, l.Payments, 1)
	require.Equal(t, "REJECTED", l.Payments[0].Status)
	require.NotEmpty(t, l.Payments[0].Card.CardID)
	return "/manage/api/donations/" + a.Donation, l.Payments[0].Card.CardID
}

// changeCard changes the donation's card in the manage area to a Visa ending in 1111 tokenised at gw,
// collects the declined period at once, and answers the processor card the new charge was made with,
// paid and with its descriptor.
func (c cardChange) changeCard(t *testing.T, path string, gw map[string]any, old string) string {
	t.Helper()
	apitest.OK[cardCheckout](t, c.admin, http.MethodPost, path+"/payment_method", map[string]any{"gateway": gw, "method_id": "visa",
		"bin": "411111", "last_four": "1111", "expiration_month": 11, "expiration_year": time.Now().Year() + 3,
		"cardholder_name": "Ana Pérez", "cardholder_id_type": "DNI", "cardholder_id_number": "12345678"})
	d := apitest.OK[cardCheckout](t, c.admin, http.MethodPost, path+"/collect_payment", nil)
	require.NotNil(t, d.Collect)
	require.Equal(t, "approved", d.Collect.Status)
	l := ledgerOf(t, c.f, c.login)
	require.Len(t, l.Payments, 2)
	p := l.Payments[1]
	require.Equal(t, "PAID", p.Status)
	require.Contains(t, p.Descriptor, "Fundación Test")
	require.Equal(t, "1111", p.Card.Last4)
	require.NotEqual(t, old, p.Card.CardID, "not the old card")
	return p.Card.CardID
}

type cardCheckout struct {
	Gateway struct {
		Name         string `json:"name"`
		TokenizerURL string `json:"tokenizer_url"`
		PublicKey    string `json:"public_key"`
		Vault        *struct {
			URL, Key, Country string
		} `json:"vault"`
	} `json:"gateway"`
	Collect *struct {
		Status string `json:"status"`
	} `json:"collect"`
}

// A card changed in the manage area on a campaign a local processor's rule routes: the detail says to
// tokenise at the processor (its tokeniser and public key, as the public form), the new card is saved
// there, and the next charge is made at the processor with it. (The donor portal's card change is the
// same service call.)
func TestCardChangeOnARoutedCampaignIsChargedAtTheProcessor(t *testing.T) {
	c := newCardChange(t, processing.Local, 399, false, true)
	require.Equal(t, "dlocal", c.form["name"])

	// FUND: the processor declines the first period for want of funds.
	body := payload(dlToken(t, c.form["tokenizer_url"], c.form["public_key"], "FUND"), 1, "500", email(), uuid.NewString())
	body["payment_method"].(map[string]any)["gateway"].(map[string]any)["name"] = "dlocal"
	path, old := c.declinedAtProcessor(t, body)

	d := apitest.OK[cardCheckout](t, c.admin, http.MethodGet, path, nil)
	require.Equal(t, "dlocal", d.Gateway.Name, "the new card is tokenised at the processor the campaign is routed to")
	require.Equal(t, c.form["tokenizer_url"], d.Gateway.TokenizerURL)
	require.Equal(t, c.form["public_key"], d.Gateway.PublicKey)
	require.Nil(t, d.Gateway.Vault, "no retry rule: no card vault")

	tok := dlTokenFor(t, d.Gateway.TokenizerURL, d.Gateway.PublicKey, "4111111111111111", "APRO")
	card := c.changeCard(t, path, map[string]any{"name": "dlocal", "token": tok}, old)
	require.Equal(t, 1, c.f.count(t, `SELECT count(*) FROM payment_methods pm JOIN donations d ON d.organization_id = pm.organization_id
		AND d.payment_method_id = pm.id WHERE pm.organization_id = $1 AND d.id = $2 AND pm.gateway = 'dlocal' AND pm.card_id = $3`,
		uuid.MustParse(path[len("/manage/api/donations/"):]), card), "charged with the donation's new card at the processor")
}

// A card changed in the manage area on a campaign whose declines the global processor retries: the
// detail names the card vault (as the public form), the browser's vault token of the new card is
// saved at the processor and replaces the old card's there for the donation, and the next charge
// MercadoPago declines is retried through the processor with the new card, not the old one.
func TestCardChangeReplacesTheRetryProcessorsCard(t *testing.T) {
	c := newCardChange(t, processing.Global, 549, true, false)
	require.Equal(t, "mercadopago", c.form["name"])

	// FUND: declined at MercadoPago and, retried, at the processor too (the card's own problem).
	body := payload(token(t, c.s.Config, "FUND"), 1, "500", email(), uuid.NewString())
	body["payment_method"].(map[string]any)["gateway"].(map[string]any)["vault_token"] =
		vaultToken(t, c.form["vault_url"], c.form["vault_key"], "4509953566233704", "FUND")
	path, old := c.declinedAtProcessor(t, body)
	id := uuid.MustParse(path[len("/manage/api/donations/"):])

	d := apitest.OK[cardCheckout](t, c.admin, http.MethodGet, path, nil)
	require.Equal(t, "mercadopago", d.Gateway.Name)
	require.NotNil(t, d.Gateway.Vault, "the retry rule: the new card goes to the card vault too")
	require.Equal(t, c.form["vault_url"], d.Gateway.Vault.URL)
	require.Equal(t, c.form["vault_key"], d.Gateway.Vault.Key)
	require.Equal(t, "AR", d.Gateway.Vault.Country)

	// OTHE: MercadoPago's own refusal, which the processor does not share.
	const pan = "4111111111111111"
	card := c.changeCard(t, path, map[string]any{"name": "mercadopago", "token": tokenFor(t, c.s.Config, pan, "OTHE"),
		"vault_token": vaultToken(t, d.Gateway.Vault.URL, d.Gateway.Vault.Key, pan, "OTHE")}, old)
	atProcessor := `SELECT count(*) FROM processor_cards pc JOIN donations d ON d.organization_id = pc.organization_id
		AND d.payment_method_id = pc.payment_method_id WHERE pc.organization_id = $1 AND d.id = $2 AND pc.card_id = $3`
	require.Equal(t, 1, c.f.count(t, atProcessor, id, card), "retried with the new card saved at the processor")
	require.Zero(t, c.f.count(t, atProcessor, id, old), "the old card no longer serves the donation's retries")
}
