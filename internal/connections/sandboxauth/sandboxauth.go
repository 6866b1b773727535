// Package sandboxauth connects organisations to sandbox gateway accounts through the real OAuth
// code path (state, the account holder's approval at the sandbox's authorization page, callback,
// exchange, store), for the demo seed, test fixtures and benches.
package sandboxauth

import (
	"context"
	"errors"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/centralpos"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/tenants"
)

// Sites are the sandbox's MercadoPago sites by country.
var Sites = map[string]string{"AR": "MLA", "BR": "MLB", "CL": "MLC", "CO": "MCO", "MX": "MLM", "PE": "MPE", "UY": "MLU"}

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
	back, err := sandbox.Decide(ctx, oauth.AuthorizeURL(a), nickname, Sites[scope.Country], true)
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

// ConnectWith is Connect with the store and the platform's MercadoPago application of cfg, at the
// stack's sandbox.
func ConnectWith(ctx context.Context, cfg *config.Config, scope tenants.Scope, nickname string) (connections.Connection, error) {
	_, conn, err := ConnectAt(ctx, cfg, cfg.GatewayURL, scope, nickname)
	return conn, err
}

// ConnectAt is ConnectWith at the sandbox served at gatewayURL (a test's or a bench's own); it also
// answers the store, for the caller's connections.Clients.
func ConnectAt(ctx context.Context, cfg *config.Config, gatewayURL string, scope tenants.Scope, nickname string) (*connections.Store, connections.Connection, error) {
	store, err := connections.Open(ctx, cfg)
	if err != nil {
		return nil, connections.Connection{}, err
	}
	oauth, err := OAuthAt(cfg, gatewayURL)
	if err != nil {
		return nil, connections.Connection{}, err
	}
	conn, err := Connect(ctx, store, oauth, scope, nickname)
	return store, conn, err
}

// OAuthAt is the platform's MercadoPago application of cfg at the sandbox served at baseURL (a
// test's own sandbox, say), its authorization page included.
func OAuthAt(cfg *config.Config, baseURL string) (*mercadopago.OAuth, error) {
	return mercadopago.NewOAuth(mercadopago.OAuthConfig{BaseURL: baseURL, AuthURL: baseURL + "/authorization",
		ClientID: cfg.MPClientID, ClientSecret: cfg.MPClientSecret})
}

// ConnectCentralPos connects the organisation to a new CentralPos merchant legalName at the sandbox
// served at gatewayURL, as an administrator does: the code the merchant copies from CentralPos's
// back office, linked with the platform's partner key of cfg, the credentials stored. It answers
// the store and the credentials, for the caller's own calls at the merchant.
func ConnectCentralPos(ctx context.Context, cfg *config.Config, gatewayURL string, scope tenants.Scope, legalName string) (*connections.Store, gateway.Credentials, error) {
	store, err := connections.Open(ctx, cfg)
	if err != nil {
		return nil, gateway.Credentials{}, err
	}
	code, err := sandbox.CentralPosCode(ctx, gatewayURL, legalName, scope.Country)
	if err != nil {
		return nil, gateway.Credentials{}, err
	}
	cp, err := centralpos.New(centralpos.Config{BaseURL: gatewayURL + "/centralpos/v1", PartnerKey: cfg.CentralPosPartnerKey})
	if err != nil {
		return nil, gateway.Credentials{}, err
	}
	creds, err := cp.Connect(ctx, code)
	if err != nil {
		return nil, gateway.Credentials{}, err
	}
	_, err = store.Save(ctx, scope, connections.CentralPos, creds)
	return store, creds, err
}
