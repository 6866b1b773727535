package sandbox_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/centralpos"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/money"
)

// seller is an account the admin shortcut created, with the real adapter on its access token.
type seller struct {
	UserID      int64  `json:"user_id"`
	AccessToken string `json:"access_token"`
	PublicKey   string `json:"public_key"`
	gw          *mercadopago.Client
}

func (e *oauthEnv) seller(nickname, site, currency string) *seller {
	e.t.Helper()
	status, body := e.call(http.MethodPost, "/__sandbox/accounts", "", map[string]string{"nickname": nickname, "site_id": site})
	require.Equal(e.t, http.StatusCreated, status, body)
	data, _ := json.Marshal(body)
	var s seller
	require.NoError(e.t, json.Unmarshal(data, &s))
	var err error
	s.gw, err = mercadopago.New(mercadopago.Config{BaseURL: e.url, AccessToken: s.AccessToken, Currency: currency})
	require.NoError(e.t, err)
	return &s
}

// tokenize is the browser's tokenisation with a public key (none when empty).
func (e *oauthEnv) tokenize(publicKey, holder string) (int, string) {
	e.t.Helper()
	path := "/v1/card_tokens"
	if publicKey != "" {
		path += "?public_key=" + publicKey
	}
	status, body := e.call(http.MethodPost, path, "", card(func(c map[string]any, _ map[string]string) {
		c["cardholder"].(map[string]any)["name"] = holder
	}))
	id, _ := body["id"].(string)
	return status, id
}

// TestAccountsKeepSeparateLedgers: an account's token reads and moves only its own payments,
// customers and cards; idempotency keys and card tokens are the account's own too.
func TestAccountsKeepSeparateLedgers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOAuthEnv(t, "")
	a := e.seller("ALICE", "MLA", "ARS")
	b := e.seller("BRUNO", "MLB", "BRL")

	status, tok := e.tokenize(a.PublicKey, "APRO")
	require.Equal(t, http.StatusCreated, status)
	cust, err := a.gw.EnsureCustomer(ctx, gateway.Customer{Email: "ana@example.org", FirstName: "Ana"})
	require.NoError(t, err)
	crd, err := a.gw.SaveCard(ctx, cust.ID, tok)
	require.NoError(t, err)
	charge := gateway.Charge{IdempotencyKey: "same-key", ExternalReference: "ref-a", Amount: money.Amount{Minor: 5000, Currency: "ARS"},
		CustomerID: cust.ID, CardID: crd.ID, PaymentMethodID: crd.PaymentMethodID, Email: "ana@example.org"}
	paid, err := a.gw.Charge(ctx, charge)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, paid.Status)

	// B sees none of it.
	var gerr *gateway.Error
	_, err = b.gw.Payment(ctx, paid.ID)
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusNotFound, gerr.Status)
	found, err := b.gw.FindPayments(ctx, "ref-a")
	require.NoError(t, err)
	require.Empty(t, found)
	_, err = b.gw.Refund(ctx, gateway.RefundRequest{PaymentID: paid.ID, IdempotencyKey: "r"})
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusNotFound, gerr.Status)
	_, err = b.gw.SaveCard(ctx, cust.ID, tok)
	require.ErrorAs(t, err, &gerr, "another account's customer")
	require.Equal(t, http.StatusNotFound, gerr.Status)
	bCharge := charge
	bCharge.Amount = money.Amount{Minor: 5000, Currency: "BRL"}
	_, err = b.gw.Charge(ctx, bCharge)
	require.Error(t, err, "another account's saved card")

	// B's customer with the same e-mail is B's own; the same idempotency key is B's own request.
	bCust, err := b.gw.EnsureCustomer(ctx, gateway.Customer{Email: "ana@example.org", FirstName: "Ana"})
	require.NoError(t, err)
	require.NotEqual(t, cust.ID, bCust.ID)
	_, tokA := e.tokenize(a.PublicKey, "APRO")
	_, err = b.gw.SaveCard(ctx, bCust.ID, tokA)
	require.ErrorAs(t, err, &gerr, "a token made with another account's public key")
	require.Equal(t, "2006", gerr.Causes[0].Code)
	_, tokB := e.tokenize(b.PublicKey, "APRO")
	bCrd, err := b.gw.SaveCard(ctx, bCust.ID, tokB)
	require.NoError(t, err)
	bCharge.CustomerID, bCharge.CardID = bCust.ID, bCrd.ID
	bPaid, err := b.gw.Charge(ctx, bCharge)
	require.NoError(t, err)
	require.NotEqual(t, paid.ID, bPaid.ID)
	require.Equal(t, "BRL", bPaid.Amount.Currency)
	again, err := a.gw.Charge(ctx, charge)
	require.NoError(t, err)
	require.Equal(t, paid.ID, again.ID, "A's key still answers A's payment")

	// The admin list filters by the collecting account.
	var list []map[string]any
	res, err := http.Get(e.url + "/__sandbox/payments?user_id=" + strconv.FormatInt(b.UserID, 10))
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(res.Body).Decode(&list))
	res.Body.Close()
	require.Len(t, list, 1)
	require.Equal(t, bPaid.ID, strconv.FormatFloat(list[0]["id"].(float64), 'f', -1, 64))
	require.EqualValues(t, b.UserID, list[0]["collector_id"])

	// A public key or token the sandbox never issued is refused.
	status, _ = e.tokenize("TEST-unknown", "APRO")
	require.Equal(t, http.StatusUnauthorized, status)
	require.Equal(t, http.StatusUnauthorized, first0(e.call(http.MethodGet, "/v1/payment_methods?public_key=TEST-unknown", "", nil)))
	require.Equal(t, http.StatusUnauthorized, first0(e.call(http.MethodGet, "/v1/customers/search?email=ana@example.org", "TEST-unknown", nil)))
}

// TestAccountsAndTokensSurviveRestarts: accounts, issued tokens and spent codes are kept like payments.
func TestAccountsAndTokensSurviveRestarts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandboxgw.json")
	e := newOAuthEnv(t, path)
	verifier, challenge := pkce("p")
	code := e.approve(challenge, "TESTUSER5", "MLC")
	_, tok := e.exchange(code, verifier)
	status, cp := e.call(http.MethodPost, "/__sandbox/centralpos/codes", "", map[string]string{"legal_name": "Fundación Sur", "country": "CL"})
	require.Equal(t, http.StatusCreated, status)

	for range 2 { // from the journal, then from the snapshot
		e = newOAuthEnv(t, path)
		status, me := e.call(http.MethodGet, "/users/me", tok["access_token"].(string), nil)
		require.Equal(t, http.StatusOK, status)
		require.Equal(t, "MLC", me["site_id"])
		status, body := e.exchange(code, verifier)
		requireInvalidGrant(t, status, body, "a code spent before the restart")
	}
	_, next := e.token(map[string][]string{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}})
	require.Equal(t, tok["user_id"], next["user_id"])
	cpos, err := centralpos.New(centralpos.Config{BaseURL: e.url + "/centralpos/v1", PartnerKey: sandbox.DefaultPartnerKey})
	require.NoError(t, err)
	linked, err := cpos.Connect(context.Background(), cp["code"].(string))
	require.NoError(t, err, "a CentralPos code issued before the restart")
	require.Equal(t, "CL", linked.Country)
}
