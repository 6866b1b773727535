package sandbox_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
)

type oauthEnv struct {
	t     *testing.T
	url   string
	clock *sandboxtest.Clock
}

const redirect = "https://aporta.test/auth/mercadopago/callback"

func newOAuthEnv(t *testing.T, statePath string) *oauthEnv {
	t.Helper()
	c := sandboxtest.NewClock()
	srv := sandboxtest.Serve(t, sandbox.Options{StatePath: statePath, Now: c.Now})
	return &oauthEnv{t: t, url: srv.URL, clock: c}
}

// pkce is a verifier and its S256 challenge.
func pkce(seed string) (verifier, challenge string) {
	verifier = strings.Repeat(seed, 64)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

func (e *oauthEnv) authorizeURL(challenge, state string) string {
	return e.url + "/authorization?" + url.Values{
		"client_id": {sandbox.DefaultClientID}, "response_type": {"code"}, "platform_id": {"mp"}, "state": {state},
		"redirect_uri": {redirect}, "code_challenge": {challenge}, "code_challenge_method": {"S256"},
	}.Encode()
}

// approve walks the authorization page as nickname on site and returns the code.
func (e *oauthEnv) approve(challenge, nickname, site string) string {
	e.t.Helper()
	back, err := sandbox.Decide(context.Background(), e.authorizeURL(challenge, "st-1"), nickname, site, true)
	require.NoError(e.t, err)
	require.Equal(e.t, "st-1", back.Query().Get("state"))
	require.Equal(e.t, redirect, back.Scheme+"://"+back.Host+back.Path)
	return back.Query().Get("code")
}

// call sends a request and decodes the JSON answer.
func (e *oauthEnv) call(method, path, token string, in any) (int, map[string]any) {
	e.t.Helper()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		require.NoError(e.t, err)
		body = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, e.url+path, body)
	require.NoError(e.t, err)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(e.t, err)
	defer res.Body.Close()
	out := map[string]any{}
	data, _ := io.ReadAll(res.Body)
	if len(data) > 0 && data[0] == '{' {
		require.NoError(e.t, json.Unmarshal(data, &out))
	}
	return res.StatusCode, out
}

// token posts a form to /oauth/token, as MercadoPago's documentation shows.
func (e *oauthEnv) token(form url.Values) (int, map[string]any) {
	e.t.Helper()
	if !form.Has("client_id") {
		form.Set("client_id", sandbox.DefaultClientID)
		form.Set("client_secret", sandbox.DefaultClientSecret)
	}
	res, err := http.PostForm(e.url+"/oauth/token", form)
	require.NoError(e.t, err)
	defer res.Body.Close()
	out := map[string]any{}
	require.NoError(e.t, json.NewDecoder(res.Body).Decode(&out))
	return res.StatusCode, out
}

func (e *oauthEnv) exchange(code, verifier string) (int, map[string]any) {
	return e.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {redirect}})
}

func requireInvalidGrant(t *testing.T, status int, body map[string]any, why string) {
	t.Helper()
	require.Equal(t, http.StatusBadRequest, status, why)
	require.Equal(t, "invalid_grant", body["error"], why)
	require.EqualValues(t, 400, body["status"], why)
	require.NotEmpty(t, body["message"], why)
}

func TestAuthorizationPage(t *testing.T) {
	t.Parallel()
	e := newOAuthEnv(t, "")
	_, challenge := pkce("a")
	res, err := http.Get(e.authorizeURL(challenge, "st"))
	require.NoError(t, err)
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	for _, want := range []string{`id="approve"`, `>Permitir<`, `id="deny"`, `>Rechazar<`, `name="nickname" value="TESTUSER1"`,
		`<option value="MLA" selected>Argentina</option>`, `<strong>Aporta</strong>`, `lang="es"`} {
		require.Contains(t, string(page), want)
	}

	// A request the application did not make properly is an error page, never a redirect.
	for name, q := range map[string]url.Values{
		"client":    {"client_id": {"999"}},
		"redirect":  {"redirect_uri": {"javascript:alert(1)"}},
		"no pkce":   {"code_challenge": {""}},
		"plain":     {"code_challenge_method": {"plain"}},
		"no code":   {"response_type": {"token"}},
		"no scheme": {"redirect_uri": {"/relative"}},
	} {
		u, _ := url.Parse(e.authorizeURL(challenge, "st"))
		v := u.Query()
		for k, x := range q {
			v[k] = x
		}
		res, err := http.Get(e.url + "/authorization?" + v.Encode())
		require.NoError(t, err, name)
		res.Body.Close()
		require.Equal(t, http.StatusBadRequest, res.StatusCode, name)
		_, err = sandbox.Decide(context.Background(), e.url+"/authorization?"+v.Encode(), "X", "MLA", true)
		require.Error(t, err, name)
	}
}

func TestDenySendsAccessDenied(t *testing.T) {
	t.Parallel()
	e := newOAuthEnv(t, "")
	_, challenge := pkce("d")
	back, err := sandbox.Decide(context.Background(), e.authorizeURL(challenge, "st-9"), "TESTUSER1", "MLA", false)
	require.NoError(t, err)
	require.Equal(t, "access_denied", back.Query().Get("error"))
	require.Equal(t, "st-9", back.Query().Get("state"))
	require.Empty(t, back.Query().Get("code"))
}

func TestCodeExchangeAndItsRefusals(t *testing.T) {
	t.Parallel()
	e := newOAuthEnv(t, "")
	verifier, challenge := pkce("v")

	code := e.approve(challenge, "TESTUSER7", "MLB")
	require.True(t, strings.HasPrefix(code, "TG-"), code)
	status, tok := e.exchange(code, verifier)
	require.Equal(t, http.StatusOK, status, tok)
	require.Equal(t, "Bearer", tok["token_type"])
	require.EqualValues(t, 15552000, tok["expires_in"])
	require.Equal(t, false, tok["live_mode"])
	require.Contains(t, tok["scope"], "offline_access")
	for _, k := range []string{"access_token", "refresh_token", "public_key"} {
		require.NotEmpty(t, tok[k], k)
	}
	userID := tok["user_id"].(float64)

	status, me := e.call(http.MethodGet, "/users/me", tok["access_token"].(string), nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, userID, me["id"])
	require.Equal(t, "TESTUSER7", me["nickname"])
	require.Equal(t, "MLB", me["site_id"])
	require.Contains(t, me["email"], "@")

	status, body := e.exchange(code, verifier)
	requireInvalidGrant(t, status, body, "a replayed code")

	// The same nickname on the same site is the same account: reconnecting finds it.
	status, again := e.exchange(e.approve(challenge, "testuser7", "MLB"), verifier)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, userID, again["user_id"])
	require.Equal(t, tok["public_key"], again["public_key"])
	status, other := e.exchange(e.approve(challenge, "TESTUSER7", "MLA"), verifier)
	require.Equal(t, http.StatusOK, status)
	require.NotEqual(t, userID, other["user_id"], "another site is another account")

	// A wrong verifier spends the code: it cannot be tried again with the right one.
	code = e.approve(challenge, "TESTUSER7", "MLB")
	wrong, _ := pkce("w")
	status, body = e.exchange(code, wrong)
	requireInvalidGrant(t, status, body, "wrong verifier")
	status, body = e.exchange(code, verifier)
	requireInvalidGrant(t, status, body, "a code tried with a wrong verifier")

	code = e.approve(challenge, "TESTUSER7", "MLB")
	status, body = e.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {redirect + "/other"}})
	requireInvalidGrant(t, status, body, "redirect_uri mismatch")

	code = e.approve(challenge, "TESTUSER7", "MLB")
	e.clock.Advance(10*time.Minute + time.Second)
	status, body = e.exchange(code, verifier)
	requireInvalidGrant(t, status, body, "a code older than 10 minutes")

	status, body = e.exchange("TG-never-issued", verifier)
	requireInvalidGrant(t, status, body, "unknown code")

	// The application's credentials are checked before anything else.
	status, body = e.token(url.Values{"client_id": {sandbox.DefaultClientID}, "client_secret": {"guess"}, "grant_type": {"authorization_code"}, "code": {code}})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "invalid_client", body["error"])
	status, body = e.token(url.Values{"grant_type": {"password"}})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "unsupported_grant_type", body["error"])
}

func TestRefreshRotatesAndRevokeEndsIt(t *testing.T) {
	t.Parallel()
	e := newOAuthEnv(t, "")
	verifier, challenge := pkce("r")
	_, first := e.exchange(e.approve(challenge, "TESTUSER3", "MLA"), verifier)
	userID := first["user_id"]

	// JSON bodies are accepted as well as forms.
	status, second := e.call(http.MethodPost, "/oauth/token", "", map[string]string{"client_id": sandbox.DefaultClientID,
		"client_secret": sandbox.DefaultClientSecret, "grant_type": "refresh_token", "refresh_token": first["refresh_token"].(string)})
	require.Equal(t, http.StatusOK, status, second)
	require.Equal(t, userID, second["user_id"])
	require.NotEqual(t, first["refresh_token"], second["refresh_token"])
	require.NotEqual(t, first["access_token"], second["access_token"])

	status, body := e.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {first["refresh_token"].(string)}})
	requireInvalidGrant(t, status, body, "a rotated refresh token")
	for _, tok := range []any{first["access_token"], second["access_token"]} {
		status, _ := e.call(http.MethodGet, "/users/me", tok.(string), nil)
		require.Equal(t, http.StatusOK, status, "the old access token works until it expires")
	}

	// Expiring ends the access tokens only; refreshing brings a working one.
	require.Equal(t, http.StatusNoContent, first0(e.call(http.MethodPost, "/__sandbox/oauth/expire", "", map[string]any{"user_id": userID})))
	status, body = e.call(http.MethodGet, "/v1/payments/search", second["access_token"].(string), nil)
	require.Equal(t, http.StatusUnauthorized, status)
	require.Equal(t, "unauthorized", body["error"])
	status, third := e.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {second["refresh_token"].(string)}})
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, http.StatusOK, first0(e.call(http.MethodGet, "/users/me", third["access_token"].(string), nil)))

	// Access tokens also end by themselves after expires_in.
	e.clock.Advance(15552000 * time.Second)
	require.Equal(t, http.StatusUnauthorized, first0(e.call(http.MethodGet, "/users/me", third["access_token"].(string), nil)))
	status, fourth := e.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {third["refresh_token"].(string)}})
	require.Equal(t, http.StatusOK, status)

	// Revoking ends everything: the account holder must connect again.
	require.Equal(t, http.StatusNoContent, first0(e.call(http.MethodPost, "/__sandbox/oauth/revoke", "", map[string]any{"user_id": userID})))
	require.Equal(t, http.StatusUnauthorized, first0(e.call(http.MethodGet, "/users/me", fourth["access_token"].(string), nil)))
	status, body = e.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {fourth["refresh_token"].(string)}})
	requireInvalidGrant(t, status, body, "a revoked refresh token")
	status, again := e.exchange(e.approve(challenge, "TESTUSER3", "MLA"), verifier)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, userID, again["user_id"], "reconnecting finds the same account")
	require.Equal(t, http.StatusOK, first0(e.call(http.MethodGet, "/users/me", again["access_token"].(string), nil)))

	require.Equal(t, http.StatusNotFound, first0(e.call(http.MethodPost, "/__sandbox/oauth/revoke", "", map[string]any{"user_id": 42})))
	require.Equal(t, http.StatusUnauthorized, first0(e.call(http.MethodGet, "/users/me", "TEST-never-issued", nil)))
}

func first0(status int, _ map[string]any) int { return status }
