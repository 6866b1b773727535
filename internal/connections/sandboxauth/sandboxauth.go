// Package sandboxauth plays the account holder at the sandbox gateway's MercadoPago authorization
// page (internal/gateway/sandbox), as a browser does, so the demo seed and tests connect
// organisations through the real OAuth code path: state, approval, callback, exchange, store.
package sandboxauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/tenants"
)

// Sites are the sandbox's MercadoPago sites by country.
var Sites = map[string]string{"AR": "MLA", "BR": "MLB", "CL": "MLC", "CO": "MCO", "MX": "MLM", "PE": "MPE", "UY": "MLU"}

// client follows no redirect: the approval's answer is the redirect back to the callback.
var client = &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
	return http.ErrUseLastResponse
}}

// Decide opens authorizeURL, then submits the page's form for the account nickname on country's
// site, approving or denying, and answers the callback URL the sandbox redirects to.
func Decide(ctx context.Context, authorizeURL, nickname, country string, approve bool) (*url.URL, error) {
	page, err := url.Parse(authorizeURL)
	if err != nil {
		return nil, err
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, authorizeURL, nil)
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("sandboxauth: authorization page answered %d", res.StatusCode)
	}
	form := page.Query()
	form.Set("nickname", nickname)
	form.Set("site_id", Sites[country])
	form.Set("decision", map[bool]string{true: "approve", false: "deny"}[approve])
	post := *page
	post.RawQuery = ""
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, post.String(), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err = client.Do(req)
	if err != nil {
		return nil, err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		return nil, fmt.Errorf("sandboxauth: approval answered %d", res.StatusCode)
	}
	return url.Parse(res.Header.Get("Location"))
}

// Connect connects the organisation to the sandbox account nickname at the connections level (for
// workers' tests, which have no API): a state, the approval, the state taken back, the code
// exchanged with the PKCE verifier, the credentials stored.
func Connect(ctx context.Context, store *connections.Store, oauth gateway.OAuth, scope tenants.Scope, nickname string) (connections.Connection, error) {
	const redirectURI = "http://localhost/auth/mercadopago/callback"
	a, st, err := store.BeginOAuth(ctx, scope, connections.MercadoPago, scope.OrgID, "settings")
	if err != nil {
		return connections.Connection{}, err
	}
	a.RedirectURI = redirectURI
	back, err := Decide(ctx, oauth.AuthorizeURL(a), nickname, scope.Country, true)
	if err != nil {
		return connections.Connection{}, err
	}
	if back.Query().Get("state") != st.State {
		return connections.Connection{}, errors.New("sandboxauth: the state came back changed")
	}
	verifier, _, err := store.UseOAuthState(ctx, scope, connections.MercadoPago, scope.OrgID, back.Query().Get("state"))
	if err != nil {
		return connections.Connection{}, err
	}
	creds, err := oauth.Exchange(ctx, back.Query().Get("code"), verifier, redirectURI)
	if err != nil {
		return connections.Connection{}, err
	}
	return store.Save(ctx, scope, connections.MercadoPago, creds)
}

// ConnectWith is Connect with the store and the platform's MercadoPago application of cfg (the
// stack's sandbox).
func ConnectWith(ctx context.Context, cfg *config.Config, scope tenants.Scope, nickname string) (connections.Connection, error) {
	store, err := connections.Open(ctx, cfg)
	if err != nil {
		return connections.Connection{}, err
	}
	oauth, err := mercadopago.NewOAuth(mercadopago.OAuthConfig{BaseURL: cfg.GatewayURL, AuthURL: cfg.MPAuthURL,
		ClientID: cfg.MPClientID, ClientSecret: cfg.MPClientSecret})
	if err != nil {
		return connections.Connection{}, err
	}
	return Connect(ctx, store, oauth, scope, nickname)
}
