package sandbox

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"
)

// CentralPos is a second, smaller gateway with an API of its own (not MercadoPago's): a merchant
// copies an authorization code from its back office, the platform links it with its partner key
// and gets the merchant's API keys.
//
//	POST   /centralpos/v1/links {"authorization_code"}  X-Partner-Key  → 201 {merchant, credentials, environment}
//	DELETE /centralpos/v1/links/{merchant_id}            Bearer api_key → 204
//	POST   /__sandbox/centralpos/codes {"legal_name","country"} → {"code":"CP-…"} (tests: single use, 10 minutes)

type cpCode struct {
	LegalName string    `json:"legal_name"`
	Country   string    `json:"country"`
	ExpiresAt time.Time `json:"expires_at"`
	Used      bool      `json:"used,omitempty"`
}

type cpMerchant struct {
	ID             string `json:"id"`
	LegalName      string `json:"legal_name"`
	Country        string `json:"country"`
	APIKey         string `json:"api_key"`
	PublishableKey string `json:"publishable_key"`
	Unlinked       bool   `json:"unlinked,omitempty"`
}

// cpError is CentralPos's error shape: {"error":{"code","message"}}.
func cpError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]string{"code": code, "message": message}})
}

func (s *Server) cpNewCode(w http.ResponseWriter, r *http.Request) {
	var in struct {
		LegalName string `json:"legal_name"`
		Country   string `json:"country"`
	}
	if !decode(w, r, &in) {
		return
	}
	in.LegalName = strings.TrimSpace(in.LegalName)
	if in.LegalName == "" || len(in.Country) != 2 || strings.ToUpper(in.Country) != in.Country {
		cpError(w, http.StatusUnprocessableEntity, "invalid_request", "legal_name and a two-letter country are required")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	code := "CP-" + strings.ToUpper(randomHex(8))
	c := &cpCode{LegalName: in.LegalName, Country: in.Country, ExpiresAt: s.clock().Add(codeLifetime)}
	s.st.CPCodes[code] = c
	s.commit(w, http.StatusCreated, map[string]string{"code": code}, state{CPCodes: map[string]*cpCode{code: c}})
}

func (s *Server) cpLink(w http.ResponseWriter, r *http.Request) {
	if subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Partner-Key")), []byte(s.partnerKey)) != 1 {
		cpError(w, http.StatusUnauthorized, "invalid_partner_key", "unknown partner key")
		return
	}
	var in struct {
		AuthorizationCode string `json:"authorization_code"`
	}
	if !decode(w, r, &in) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.CPCodes[in.AuthorizationCode]
	if c == nil || c.Used || !s.clock().Before(c.ExpiresAt) {
		cpError(w, http.StatusUnprocessableEntity, "invalid_code", "the authorization code is unknown, used or expired")
		return
	}
	c.Used = true
	m := &cpMerchant{ID: "mer_" + randomHex(8), LegalName: c.LegalName, Country: c.Country,
		APIKey: "sk_test_" + randomHex(16), PublishableKey: "pk_test_" + randomHex(16)}
	s.st.CPMerchants[m.ID] = m
	s.commit(w, http.StatusCreated, map[string]any{
		"merchant":    map[string]string{"id": m.ID, "legal_name": m.LegalName, "country": m.Country},
		"credentials": map[string]string{"api_key": m.APIKey, "publishable_key": m.PublishableKey},
		"environment": "test",
	}, state{CPCodes: map[string]*cpCode{in.AuthorizationCode: c}, CPMerchants: map[string]*cpMerchant{m.ID: m}})
}

func (s *Server) cpUnlink(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.st.CPMerchants[r.PathValue("merchant_id")]
	if m == nil || m.Unlinked {
		cpError(w, http.StatusNotFound, "not_found", "no such link")
		return
	}
	if subtle.ConstantTimeCompare([]byte(bearer(r)), []byte(m.APIKey)) != 1 {
		cpError(w, http.StatusUnauthorized, "invalid_api_key", "the API key does not belong to this merchant")
		return
	}
	m.Unlinked = true
	s.commit(w, http.StatusNoContent, nil, state{CPMerchants: map[string]*cpMerchant{m.ID: m}})
}
