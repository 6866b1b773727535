package mercadopago_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/money"
)

const callback = "https://aporta.test/auth/mercadopago/callback"

func newOAuth(t *testing.T) (*mercadopago.OAuth, string) {
	t.Helper()
	srv := sandboxtest.Serve(t, sandbox.Options{})
	o, err := mercadopago.NewOAuth(mercadopago.OAuthConfig{BaseURL: srv.URL, AuthURL: srv.URL + "/authorization",
		ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret})
	require.NoError(t, err)
	return o, srv.URL
}

func pkcePair() (verifier, challenge string) {
	verifier = strings.Repeat("k", 50)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// connect approves the account on the sandbox's page and returns the code sent back.
func connect(t *testing.T, o *mercadopago.OAuth, nickname, site string) string {
	t.Helper()
	_, challenge := pkcePair()
	back, err := sandbox.Decide(context.Background(), o.AuthorizeURL(gateway.Authorization{State: "s-1", CodeChallenge: challenge, RedirectURI: callback}), nickname, site, true)
	require.NoError(t, err)
	require.Equal(t, "s-1", back.Query().Get("state"))
	return back.Query().Get("code")
}

func TestAuthorizeURLIsMercadoPagos(t *testing.T) {
	t.Parallel()
	o, err := mercadopago.NewOAuth(mercadopago.OAuthConfig{ClientID: "123", ClientSecret: "s"})
	require.NoError(t, err)
	u, err := url.Parse(o.AuthorizeURL(gateway.Authorization{State: "st", CodeChallenge: "ch", RedirectURI: callback}))
	require.NoError(t, err)
	require.Equal(t, "https://auth.mercadopago.com/authorization", u.Scheme+"://"+u.Host+u.Path)
	require.Equal(t, url.Values{"client_id": {"123"}, "response_type": {"code"}, "platform_id": {"mp"}, "state": {"st"},
		"redirect_uri": {callback}, "code_challenge": {"ch"}, "code_challenge_method": {"S256"}}, u.Query())

	_, err = mercadopago.NewOAuth(mercadopago.OAuthConfig{ClientID: "123"})
	require.Error(t, err, "no secret")
}

// TestOAuthConnectsAnAccountThatCharges: the credentials Exchange returns charge on the
// connected account; refreshing rotates them; a refused grant is gateway.ErrInvalidGrant.
func TestOAuthConnectsAnAccountThatCharges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o, base := newOAuth(t)
	verifier, _ := pkcePair()

	code := connect(t, o, "TESTUSER9", "MLM")
	c, err := o.Exchange(ctx, code, verifier, callback)
	require.NoError(t, err)
	require.Equal(t, "TESTUSER9", c.AccountName)
	require.Equal(t, "MX", c.Country)
	require.NotEmpty(t, c.AccountID)
	require.NotEmpty(t, c.PublicKey)
	require.NotEmpty(t, c.RefreshToken)
	require.False(t, c.LiveMode)
	require.WithinDuration(t, time.Now().Add(180*24*time.Hour), c.ExpiresAt, time.Minute)

	_, err = o.Exchange(ctx, code, verifier, callback)
	require.ErrorIs(t, err, gateway.ErrInvalidGrant, "a used code")
	_, err = o.Exchange(ctx, connect(t, o, "TESTUSER9", "MLM"), strings.Repeat("x", 50), callback)
	require.ErrorIs(t, err, gateway.ErrInvalidGrant, "a wrong verifier")

	// The access token charges on the connected account, in its site's currency.
	gw, err := mercadopago.New(mercadopago.Config{BaseURL: base, AccessToken: c.AccessToken, Currency: "MXN"})
	require.NoError(t, err)
	tok := tokenizeWith(t, base, c.PublicKey)
	paid, err := gw.Charge(ctx, gateway.Charge{IdempotencyKey: "k", ExternalReference: "r", Amount: money.Amount{Minor: 10000, Currency: "MXN"}, Token: tok, Email: "d@example.org"})
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, paid.Status)

	r, err := o.Refresh(ctx, c.RefreshToken)
	require.NoError(t, err)
	require.Equal(t, c.AccountID, r.AccountID)
	require.NotEqual(t, c.RefreshToken, r.RefreshToken)
	require.NotEqual(t, c.AccessToken, r.AccessToken)
	_, err = o.Refresh(ctx, c.RefreshToken)
	require.ErrorIs(t, err, gateway.ErrInvalidGrant, "a rotated refresh token")

	// Revoked at the gateway: refreshing is refused for good, and charging is unauthorised.
	res, err := http.Post(base+"/__sandbox/oauth/revoke", "application/json", strings.NewReader(`{"user_id":`+c.AccountID+`}`))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNoContent, res.StatusCode)
	_, err = o.Refresh(ctx, r.RefreshToken)
	require.ErrorIs(t, err, gateway.ErrInvalidGrant)
	_, err = gw.Payment(ctx, paid.ID)
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusUnauthorized, gerr.Status)
}

func TestOAuthRefusalsThatAreNotTheGrants(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, base := newOAuth(t)
	wrong, err := mercadopago.NewOAuth(mercadopago.OAuthConfig{BaseURL: base, AuthURL: base + "/authorization", ClientID: sandbox.DefaultClientID, ClientSecret: "leaked-and-rotated"})
	require.NoError(t, err)
	_, err = wrong.Refresh(ctx, "TG-anything")
	require.Error(t, err)
	require.NotErrorIs(t, err, gateway.ErrInvalidGrant, "a misconfigured application is not the account holder's doing")
	require.Contains(t, err.Error(), "invalid_client")
	require.NotContains(t, err.Error(), "leaked-and-rotated")

	down, err := mercadopago.NewOAuth(mercadopago.OAuthConfig{BaseURL: "http://127.0.0.1:1", ClientID: "1", ClientSecret: "s", Timeout: time.Second})
	require.NoError(t, err)
	_, err = down.Refresh(ctx, "TG-secret-refresh")
	require.Error(t, err)
	require.NotErrorIs(t, err, gateway.ErrInvalidGrant, "an unreachable gateway may be retried")
	require.NotContains(t, err.Error(), "TG-secret-refresh")
}

// tokenizeWith is the browser's tokenisation with the account's public key.
func tokenizeWith(t *testing.T, base, publicKey string) string {
	t.Helper()
	return sandboxtest.CardToken(t, base, publicKey, sandbox.Visa, "APRO")
}
