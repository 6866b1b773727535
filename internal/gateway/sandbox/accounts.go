package sandbox

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// PlatformUserID is the user id of the platform's own account, the one the platform token and
// public key (Options) answer for. Records kept before accounts existed belong to it.
const PlatformUserID = 100_000_000

// sites are MercadoPago's sites: each fixes an account's country and currency.
var sites = map[string]struct{ Country, Currency string }{
	"MLA": {"AR", "ARS"}, "MLB": {"BR", "BRL"}, "MLC": {"CL", "CLP"}, "MCO": {"CO", "COP"},
	"MLM": {"MX", "MXN"}, "MPE": {"PE", "PEN"}, "MLU": {"UY", "UYU"},
}

// siteOrder is the order the authorization page offers the sites in.
var siteOrder = []string{"MLA", "MLB", "MLC", "MCO", "MLM", "MPE", "MLU"}

// account is one seller account. Revoking bumps Generation (every token issued before stops
// working); expiring bumps AccessGeneration (access tokens only).
type account struct {
	UserID           int64  `json:"user_id"`
	Nickname         string `json:"nickname"`
	SiteID           string `json:"site_id"`
	PublicKey        string `json:"public_key"`
	Generation       int    `json:"generation"`
	AccessGeneration int    `json:"access_generation"`
}

func (a *account) currency() string { return sites[a.SiteID].Currency }

func (a *account) email() string { return fmt.Sprintf("test_user_%d@testuser.com", a.UserID) }

// grant is an access or refresh token the sandbox issued. A refresh token is Used once rotated.
type grant struct {
	UserID           int64     `json:"user_id"`
	ClientID         string    `json:"client_id,omitempty"`
	Generation       int       `json:"generation"`
	AccessGeneration int       `json:"access_generation,omitempty"`
	ExpiresAt        time.Time `json:"expires_at"`
	Used             bool      `json:"used,omitempty"`
}

// platformAccount is built from the options on every start, never stored: the platform token
// and public key may change between runs.
func platformAccount(currency, publicKey string) (*account, error) {
	for site, s := range sites {
		if s.Currency == currency {
			return &account{UserID: PlatformUserID, Nickname: "APORTA", SiteID: site, PublicKey: publicKey}, nil
		}
	}
	return nil, fmt.Errorf("sandbox: no MercadoPago site has currency %q", currency)
}

// accountByID finds an account; callers hold mu.
func (s *Server) accountByID(id int64) *account {
	if id == PlatformUserID {
		return s.platform
	}
	return s.st.Accounts[strconv.FormatInt(id, 10)]
}

// accountForToken is the account an access token acts for, nil when the token was never issued,
// was revoked or has expired. Callers hold mu.
func (s *Server) accountForToken(token string) *account {
	if token == "" {
		return nil
	}
	if token == s.platformToken {
		return s.platform
	}
	g := s.st.AccessTokens[token]
	if g == nil {
		return nil
	}
	a := s.accountByID(g.UserID)
	if a == nil || g.Generation != a.Generation || g.AccessGeneration != a.AccessGeneration || !s.clock().Before(g.ExpiresAt) {
		return nil
	}
	return a
}

// accountForPublicKey is the account a browser call's public key names. Callers hold mu.
func (s *Server) accountForPublicKey(key string) *account {
	if key == s.platform.PublicKey {
		return s.platform
	}
	for _, a := range s.st.Accounts {
		if a.PublicKey == key {
			return a
		}
	}
	return nil
}

func bearer(r *http.Request) string {
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return token
}

// private serves the endpoints MercadoPago reserves for the access token, on behalf of the
// token's account; a token the sandbox never issued (or revoked, or expired) gets 401.
func (s *Server) private(h func(http.ResponseWriter, *http.Request, *account)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		a := s.accountForToken(bearer(r))
		s.mu.Unlock()
		if a == nil {
			writeError(w, http.StatusUnauthorized, "invalid access token")
			return
		}
		h(w, r, a)
	}
}

// browserCaller is the account of a browser call: its public_key, or an access token when a
// server calls (re-tokenising a saved card). Neither: nil, and ok (a token no account owns, as
// the card vault issues). A key or token the sandbox does not know answers 401 and !ok.
func (s *Server) browserCaller(w http.ResponseWriter, r *http.Request) (a *account, ok bool) {
	key, token := r.URL.Query().Get("public_key"), bearer(r)
	if key == "" && token == "" {
		return nil, true
	}
	s.mu.Lock()
	if token != "" {
		a = s.accountForToken(token)
	} else {
		a = s.accountForPublicKey(key)
	}
	s.mu.Unlock()
	if a == nil {
		writeError(w, http.StatusUnauthorized, "invalid public_key or access token")
		return nil, false
	}
	return a, true
}

// callerSite is the MercadoPago site whose payment methods a browser call sees: the calling
// account's, the platform's when the call names none.
func (s *Server) callerSite(w http.ResponseWriter, r *http.Request) (string, bool) {
	a, ok := s.browserCaller(w, r)
	if a == nil {
		a = s.platform
	}
	return a.SiteID, ok
}

// usersMe answers the token's account as MercadoPago's GET /users/me does (the fields we read).
func (s *Server) usersMe(w http.ResponseWriter, _ *http.Request, a *account) {
	writeJSON(w, http.StatusOK, map[string]any{
		"id": a.UserID, "nickname": a.Nickname, "site_id": a.SiteID, "country_id": sites[a.SiteID].Country,
		"email": a.email(), "first_name": "Test", "last_name": a.Nickname, "tags": []string{"test_user"},
	})
}

// findOrCreateAccount returns the account with this nickname on this site, creating it (and its
// public key) the first time; the bool says whether it is new. Callers hold mu.
func (s *Server) findOrCreateAccount(nickname, site string) (*account, bool) {
	for _, a := range s.st.Accounts {
		if strings.EqualFold(a.Nickname, nickname) && a.SiteID == site {
			return a, false
		}
	}
	s.st.NextUserID = max(s.st.NextUserID, PlatformUserID) + 1
	a := &account{UserID: s.st.NextUserID, Nickname: nickname, SiteID: site, PublicKey: "TEST-" + uuidish()}
	s.st.Accounts[strconv.FormatInt(a.UserID, 10)] = a
	return a, true
}

// createAccount is the admin shortcut for tests that need an account of their own without the
// authorization page: POST /__sandbox/accounts {"nickname","site_id"} answers the account with
// a fresh access token, refresh token and public key, as the token endpoint would.
func (s *Server) createAccount(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Nickname string `json:"nickname"`
		SiteID   string `json:"site_id"`
	}
	if !decode(w, r, &in) {
		return
	}
	in.Nickname = strings.TrimSpace(in.Nickname)
	if _, ok := sites[in.SiteID]; !ok || in.Nickname == "" {
		writeError(w, http.StatusBadRequest, "nickname and a MercadoPago site_id (MLA, MLB, …) are required")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, _ := s.findOrCreateAccount(in.Nickname, in.SiteID)
	body, delta := s.issueTokens(a, s.clientID)
	delta.Accounts = map[string]*account{strconv.FormatInt(a.UserID, 10): a}
	s.commit(w, http.StatusCreated, body, delta)
}

// adminAccount finds the {"user_id"} of an admin request's body, answering 404 itself. Callers hold mu.
func (s *Server) adminAccount(w http.ResponseWriter, userID int64) *account {
	a := s.st.Accounts[strconv.FormatInt(userID, 10)]
	if a == nil {
		writeError(w, http.StatusNotFound, "user not found")
	}
	return a
}

// revokeOrExpire serves POST /__sandbox/oauth/revoke (every token of the account stops working, so
// the next refresh is invalid_grant and charges get 401) and /__sandbox/oauth/expire (its access
// tokens expire; refreshing still works).
func (s *Server) revokeOrExpire(revoke bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			UserID int64 `json:"user_id"`
		}
		if !decode(w, r, &in) {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		a := s.adminAccount(w, in.UserID)
		if a == nil {
			return
		}
		if revoke {
			a.Generation++
		} else {
			a.AccessGeneration++
		}
		s.commit(w, http.StatusNoContent, nil, state{Accounts: map[string]*account{strconv.FormatInt(a.UserID, 10): a}})
	}
}

// uuidish is 32 random hex digits in the 8-4-4-4-12 layout of MercadoPago's public keys.
func uuidish() string {
	h := randomHex(16)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
