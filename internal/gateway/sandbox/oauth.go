package sandbox

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// MercadoPago's OAuth as documented (developers/…/security/oauth): the account holder approves
// the application on an authorization page, which sends a single-use code back to the
// application's redirect_uri; POST /oauth/token trades it (with the PKCE verifier) for an access
// token valid 180 days and a refresh token, and later trades the refresh token for new ones.

const (
	codeLifetime   = 10 * time.Minute
	accessLifetime = 15552000 * time.Second // 180 days, MercadoPago's expires_in
	oauthScope     = "offline_access read write"
)

// authCode is an authorization code the page issued; a code is spent by its first use.
type authCode struct {
	UserID        int64     `json:"user_id"`
	ClientID      string    `json:"client_id"`
	RedirectURI   string    `json:"redirect_uri"`
	CodeChallenge string    `json:"code_challenge"`
	ExpiresAt     time.Time `json:"expires_at"`
	Used          bool      `json:"used,omitempty"`
}

// authRequest is the query of GET /authorization, carried through the page's form.
type authRequest struct {
	ClientID, RedirectURI, State, CodeChallenge string
}

// readAuthRequest checks the authorization request. A bad one is shown as an error page, never
// redirected: the redirect_uri of a request that fails is not to be trusted.
func (s *Server) readAuthRequest(v url.Values) (authRequest, string) {
	in := authRequest{ClientID: v.Get("client_id"), RedirectURI: v.Get("redirect_uri"), State: v.Get("state"), CodeChallenge: v.Get("code_challenge")}
	u, err := url.Parse(in.RedirectURI)
	switch {
	case in.ClientID != s.clientID:
		return in, "La aplicación no existe (client_id desconocido)."
	case v.Get("response_type") != "code":
		return in, "response_type debe ser code."
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Fragment != "":
		return in, "redirect_uri no es válida."
	case in.CodeChallenge == "" || v.Get("code_challenge_method") != "S256":
		return in, "La aplicación exige PKCE: code_challenge con code_challenge_method=S256."
	}
	return in, ""
}

var authPage = template.Must(template.New("auth").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mercado Pago (sandbox) · Autorizar aplicación</title>
<style>body{font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:1rem 0 .25rem}
input,select,button{font-size:1rem;padding:.5rem;width:100%;box-sizing:border-box}button{margin-top:1rem}#approve{background:#009ee3;color:#fff;border:0}</style>
</head><body>
{{if .Error}}<h1>No se puede autorizar</h1><p role="alert">{{.Error}}</p>{{else}}
<h1>Mercado Pago</h1>
<p><small>Entorno de pruebas (sandbox): ninguna cuenta real se conecta.</small></p>
<p><strong>{{.AppName}}</strong> quiere conectarse con tu cuenta de Mercado Pago para cobrar en tu nombre.</p>
<form method="post" action="/authorization">
<input type="hidden" name="client_id" value="{{.Req.ClientID}}">
<input type="hidden" name="response_type" value="code">
<input type="hidden" name="redirect_uri" value="{{.Req.RedirectURI}}">
<input type="hidden" name="state" value="{{.Req.State}}">
<input type="hidden" name="code_challenge" value="{{.Req.CodeChallenge}}">
<input type="hidden" name="code_challenge_method" value="S256">
<label for="nickname">Usuario de prueba</label>
<input id="nickname" name="nickname" value="{{.Nickname}}" required maxlength="40">
<label for="site_id">País de la cuenta</label>
<select id="site_id" name="site_id">{{range .Sites}}<option value="{{.ID}}"{{if eq .ID "MLA"}} selected{{end}}>{{.Name}}</option>{{end}}</select>
<button id="approve" name="decision" value="approve" type="submit">Permitir</button>
<button id="deny" name="decision" value="deny" type="submit">Rechazar</button>
</form>{{end}}
</body></html>`))

var siteNames = map[string]string{
	"MLA": "Argentina", "MLB": "Brasil", "MLC": "Chile", "MCO": "Colombia", "MLM": "México", "MPE": "Perú", "MLU": "Uruguay",
}

func (s *Server) renderAuthPage(w http.ResponseWriter, status int, req authRequest, problem string) {
	type site struct{ ID, Name string }
	var list []site
	for _, id := range siteOrder {
		list = append(list, site{id, siteNames[id]})
	}
	s.mu.Lock()
	nickname := fmt.Sprintf("TESTUSER%d", max(s.st.NextUserID, PlatformUserID)+1-PlatformUserID)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = authPage.Execute(w, map[string]any{"AppName": s.appName, "Req": req, "Error": problem, "Nickname": nickname, "Sites": list})
}

// authorizePage serves GET /authorization: the page the account holder approves or denies on.
func (s *Server) authorizePage(w http.ResponseWriter, r *http.Request) {
	req, problem := s.readAuthRequest(r.URL.Query())
	status := http.StatusOK
	if problem != "" {
		status = http.StatusBadRequest
	}
	s.renderAuthPage(w, status, req, problem)
}

// authorize serves the page's POST: deny sends error=access_denied back, approve a code for the
// account with that nickname on that site (created the first time, found again on reconnecting).
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.renderAuthPage(w, http.StatusBadRequest, authRequest{}, "Formulario inválido.")
		return
	}
	req, problem := s.readAuthRequest(r.PostForm)
	nickname, site := strings.TrimSpace(r.PostForm.Get("nickname")), r.PostForm.Get("site_id")
	if _, ok := sites[site]; problem == "" && (!ok || nickname == "" || len(nickname) > 40) {
		problem = "Indica un usuario y un país."
	}
	if problem != "" {
		s.renderAuthPage(w, http.StatusBadRequest, req, problem)
		return
	}
	back := url.Values{"state": {req.State}}
	if r.PostForm.Get("decision") != "approve" {
		back.Set("error", "access_denied")
		redirectTo(w, req.RedirectURI, back)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, _ := s.findOrCreateAccount(nickname, site)
	code := "TG-" + randomHex(12) + "-" + strconv.FormatInt(a.UserID, 10)
	c := &authCode{UserID: a.UserID, ClientID: req.ClientID, RedirectURI: req.RedirectURI, CodeChallenge: req.CodeChallenge, ExpiresAt: s.clock().Add(codeLifetime)}
	s.st.Codes[code] = c
	if err := s.persist(state{Accounts: map[string]*account{strconv.FormatInt(a.UserID, 10): a}, Codes: map[string]*authCode{code: c}}); err != nil {
		s.log.Error("sandbox: persist state", "err", err)
		writeError(w, http.StatusInternalServerError, "internal_error")
		return
	}
	back.Set("code", code)
	redirectTo(w, req.RedirectURI, back)
}

// redirectTo adds params to the redirect_uri's own query.
func redirectTo(w http.ResponseWriter, redirectURI string, params url.Values) {
	u, _ := url.Parse(redirectURI) // checked by readAuthRequest
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	u.RawQuery = q.Encode()
	w.Header().Set("Location", u.String())
	w.WriteHeader(http.StatusFound)
}

// oauthError is the token endpoint's refusal: {"error","message","status","cause"}.
func oauthError(w http.ResponseWriter, kind, message string) {
	writeJSON(w, http.StatusBadRequest, apiError{Message: message, Error: kind, Status: http.StatusBadRequest, Cause: []cause{}})
}

// tokenRequest reads POST /oauth/token's parameters from a form or a JSON body; both are accepted.
func tokenRequest(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/json" {
		var in map[string]any
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			return nil, false
		}
		v := url.Values{}
		for k, x := range in {
			v.Set(k, fmt.Sprint(x))
		}
		return v, true
	}
	if err := r.ParseForm(); err != nil {
		return nil, false
	}
	return r.PostForm, true
}

// oauthToken serves POST /oauth/token with the authorization_code and refresh_token grants. Every use
// of a code spends it, a failed one too, so a stolen code cannot be tried against verifiers.
func (s *Server) oauthToken(w http.ResponseWriter, r *http.Request) {
	in, ok := tokenRequest(w, r)
	if !ok {
		oauthError(w, "invalid_request", "invalid body")
		return
	}
	if in.Get("client_id") != s.clientID || subtle.ConstantTimeCompare([]byte(in.Get("client_secret")), []byte(s.clientSecret)) != 1 {
		oauthError(w, "invalid_client", "invalid client_id or client_secret")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var a *account
	var delta state
	switch in.Get("grant_type") {
	case "authorization_code":
		c := s.st.Codes[in.Get("code")]
		if c == nil || c.Used {
			oauthError(w, "invalid_grant", "invalid authorization code")
			return
		}
		c.Used = true
		delta.Codes = map[string]*authCode{in.Get("code"): c}
		switch {
		case !s.clock().Before(c.ExpiresAt):
			s.refuse(w, delta, "expired authorization code")
			return
		case c.ClientID != in.Get("client_id") || c.RedirectURI != in.Get("redirect_uri"):
			s.refuse(w, delta, "redirect_uri mismatch")
			return
		case !pkceMatches(c.CodeChallenge, in.Get("code_verifier")):
			s.refuse(w, delta, "invalid code_verifier")
			return
		}
		a = s.accountByID(c.UserID)
	case "refresh_token":
		g := s.st.RefreshTokens[in.Get("refresh_token")]
		if g == nil || g.Used || g.ClientID != in.Get("client_id") {
			oauthError(w, "invalid_grant", "invalid refresh_token")
			return
		}
		if a = s.accountByID(g.UserID); a == nil || g.Generation != a.Generation {
			oauthError(w, "invalid_grant", "invalid refresh_token")
			return
		}
		g.Used = true // rotation: the old refresh token stops working
		delta.RefreshTokens = map[string]*grant{in.Get("refresh_token"): g}
	default:
		oauthError(w, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
		return
	}
	body, issued := s.issueTokens(a, in.Get("client_id"))
	issued.Codes = delta.Codes
	maps.Copy(issued.RefreshTokens, delta.RefreshTokens)
	s.commit(w, http.StatusOK, body, issued)
}

// refuse keeps a spent code spent and answers invalid_grant. Callers hold mu.
func (s *Server) refuse(w http.ResponseWriter, delta state, message string) {
	if err := s.persist(delta); err != nil {
		s.log.Error("sandbox: persist state", "err", err)
	}
	oauthError(w, "invalid_grant", message)
}

// pkceMatches checks RFC 7636 S256: the challenge is base64url(SHA-256(verifier)), unpadded.
func pkceMatches(challenge, verifier string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// issueTokens issues a new access and refresh token for the account, answering the token
// endpoint's body and the records to persist. Callers hold mu.
func (s *Server) issueTokens(a *account, clientID string) (map[string]any, state) {
	access := fmt.Sprintf("TEST-%s-%s-%d", randomHex(8), randomHex(16), a.UserID)
	refresh := fmt.Sprintf("TG-%s-%d", randomHex(16), a.UserID)
	at := &grant{UserID: a.UserID, ClientID: clientID, Generation: a.Generation, AccessGeneration: a.AccessGeneration, ExpiresAt: s.clock().Add(accessLifetime)}
	rt := &grant{UserID: a.UserID, ClientID: clientID, Generation: a.Generation}
	s.st.AccessTokens[access], s.st.RefreshTokens[refresh] = at, rt
	body := map[string]any{
		"access_token": access, "token_type": "Bearer", "expires_in": int(accessLifetime.Seconds()), "scope": oauthScope,
		"user_id": a.UserID, "refresh_token": refresh, "public_key": a.PublicKey, "live_mode": false,
	}
	return body, state{AccessTokens: map[string]*grant{access: at}, RefreshTokens: map[string]*grant{refresh: rt}}
}
