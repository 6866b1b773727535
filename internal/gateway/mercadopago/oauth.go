package mercadopago

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/internal/rest"
)

// DefaultAuthURL is MercadoPago's authorization page.
const DefaultAuthURL = "https://auth.mercadopago.com/authorization"

// OAuthConfig is the platform's MercadoPago application, through which organisations connect
// their own accounts (developers/…/security/oauth).
type OAuthConfig struct {
	BaseURL      string // the API, where /oauth/token and /users/me are; DefaultBaseURL when empty
	AuthURL      string // the authorization page browsers are sent to; DefaultAuthURL when empty
	ClientID     string
	ClientSecret string
	Timeout      time.Duration // per request; 20s when zero
	HTTPClient   *http.Client  // http.DefaultClient when nil
}

// OAuth connects MercadoPago accounts by the authorization-code flow with PKCE. It never logs
// nor puts a token in an error.
type OAuth struct {
	cfg  OAuthConfig
	rest *rest.Client
}

var _ gateway.OAuth = (*OAuth)(nil)

// NewOAuth validates cfg.
func NewOAuth(cfg OAuthConfig) (*OAuth, error) {
	if cfg.ClientID == "" || cfg.ClientSecret == "" {
		return nil, errors.New("mercadopago: OAuth client id and secret are required")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.AuthURL == "" {
		cfg.AuthURL = DefaultAuthURL
	}
	if u, err := url.Parse(cfg.AuthURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("mercadopago: auth URL %q must be http(s)", cfg.AuthURL)
	}
	rc, err := rest.New(cfg.BaseURL, cfg.HTTPClient, cfg.Timeout, nil)
	if err != nil {
		return nil, fmt.Errorf("mercadopago: %w", err)
	}
	return &OAuth{cfg: cfg, rest: rc}, nil
}

// AuthorizeURL is the authorization page for one start of the flow.
func (o *OAuth) AuthorizeURL(a gateway.Authorization) string {
	u, _ := url.Parse(o.cfg.AuthURL) // checked by NewOAuth
	q := u.Query()
	q.Set("client_id", o.cfg.ClientID)
	q.Set("response_type", "code")
	q.Set("platform_id", "mp")
	q.Set("state", a.State)
	q.Set("redirect_uri", a.RedirectURI)
	q.Set("code_challenge", a.CodeChallenge)
	q.Set("code_challenge_method", "S256")
	u.RawQuery = q.Encode()
	return u.String()
}

// Exchange trades the code for the account's credentials, naming the account (nickname and
// country) from GET /users/me.
func (o *OAuth) Exchange(ctx context.Context, code, verifier, redirectURI string) (gateway.Credentials, error) {
	c, err := o.token(ctx, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {redirectURI}})
	if err != nil {
		return gateway.Credentials{}, err
	}
	var me struct {
		ID       int64  `json:"id"`
		Nickname string `json:"nickname"`
		SiteID   string `json:"site_id"`
	}
	if err := o.rest.Do(ctx, http.MethodGet, "/users/me", http.Header{"Authorization": {"Bearer " + c.AccessToken}}, nil, &me); err != nil {
		return gateway.Credentials{}, fmt.Errorf("mercadopago: users/me: %w", err)
	}
	if strconv.FormatInt(me.ID, 10) != c.AccountID {
		return gateway.Credentials{}, errors.New("mercadopago: users/me answered another account than the token's")
	}
	c.AccountName, c.Country = me.Nickname, SiteCountry(me.SiteID)
	return c, nil
}

// Refresh renews the credentials; MercadoPago rotates the refresh token, so the one returned
// replaces the one given. AccountName and Country stay empty: the account does not change, and a
// second call that failed after the rotation would lose the new tokens.
func (o *OAuth) Refresh(ctx context.Context, refreshToken string) (gateway.Credentials, error) {
	return o.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}})
}

// token calls POST /oauth/token with a form body, as RFC 6749 has it.
func (o *OAuth) token(ctx context.Context, form url.Values) (gateway.Credentials, error) {
	form.Set("client_id", o.cfg.ClientID)
	form.Set("client_secret", o.cfg.ClientSecret)
	ctx, cancel := context.WithTimeout(ctx, o.rest.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.rest.BaseURL+"/oauth/token", strings.NewReader(form.Encode()))
	if err != nil {
		return gateway.Credentials{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := o.rest.HTTP.Do(req)
	if err != nil {
		return gateway.Credentials{}, fmt.Errorf("mercadopago: oauth token: %w", err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return gateway.Credentials{}, fmt.Errorf("mercadopago: oauth token: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(data, &e)
		if e.Error == "invalid_grant" {
			return gateway.Credentials{}, fmt.Errorf("mercadopago: oauth token: %w", gateway.ErrInvalidGrant)
		}
		// Only the status and error kind: the body may echo what was sent.
		return gateway.Credentials{}, fmt.Errorf("mercadopago: oauth token: status %d %s", res.StatusCode, e.Error)
	}
	var t struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
		PublicKey    string `json:"public_key"`
		UserID       int64  `json:"user_id"`
		ExpiresIn    int64  `json:"expires_in"`
		LiveMode     bool   `json:"live_mode"`
	}
	if err := json.Unmarshal(data, &t); err != nil || t.AccessToken == "" || t.UserID == 0 {
		return gateway.Credentials{}, errors.New("mercadopago: oauth token: an answer without access_token or user_id")
	}
	c := gateway.Credentials{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, PublicKey: t.PublicKey,
		AccountID: strconv.FormatInt(t.UserID, 10), LiveMode: t.LiveMode}
	if t.ExpiresIn > 0 {
		c.ExpiresAt = time.Now().Add(time.Duration(t.ExpiresIn) * time.Second)
	}
	return c, nil
}

// siteCountries are MercadoPago's sites where Aporta operates.
var siteCountries = map[string]string{"MLA": "AR", "MLB": "BR", "MLC": "CL", "MCO": "CO", "MLM": "MX", "MPE": "PE", "MLU": "UY"}

// SiteCountry is the country (ISO 3166-1 alpha-2) of a MercadoPago site id (MLA → AR), "" for a
// site Aporta does not serve.
func SiteCountry(site string) string { return siteCountries[site] }
