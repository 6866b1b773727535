// Package sandbox is a local stand-in for a Salesforce org (with the Nonprofit Success Pack's
// recurring donations) that speaks the REST API's shapes, so internal/crm and the sync run unchanged
// against it in tests and in the dev stack; a real org only needs other credentials.
//
// Salesforce endpoints: POST /services/oauth2/token (client credentials), and below
// /services/data/{version}: GET /sobjects/{Object}/describe, PATCH /sobjects/{Object}/{Field}/{value}
// (upsert by external id), GET /sobjects/{Object}/{Id}, GET /sobjects/{Object}/{Field}/{value},
// PATCH /composite/sobjects/{Object}/{Field} (up to 200 records), GET /query?q= (SELECT fields
// FROM Object [WHERE Field = 'v' | Field IN ('a','b')] [LIMIT n]) and GET /limits. Every call below
// /services/data except /limits counts against the org's 24-hour budget, reported in
// Sforce-Limit-Info: api-usage=N/M and refused with 403 REQUEST_LIMIT_EXCEEDED past it.
//
// Admin, for tests and the dev stack: POST /__sandbox/orgs {client_id?, client_secret?, daily_limit?}
// makes an org (each test its own, so budgets and faults do not cross); GET
// /__sandbox/orgs/{client_id}/records/{Object} lists its records; POST /__sandbox/orgs/{client_id}/faults
// {mode: timeout|error500|expire_session, count, skip, delay_ms, after_commit}; POST
// /__sandbox/orgs/{client_id}/usage {used?, max?, reset?} moves the budget.
package sandbox

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/aporta/aporta/internal/crm"
)

// The dev stack's org, which the stack creates at start so `make dev` has one to connect.
const (
	DefaultClientID     = "aporta-sandbox-crm"
	DefaultClientSecret = "sandbox-crm-secret"
	DefaultDailyLimit   = 15000
	window              = 24 * time.Hour
)

// Options configures a Server.
type Options struct {
	StatePath string       // JSON file to load and keep; memory only when empty
	Logger    *slog.Logger // slog.Default() when nil
	Now       func() time.Time
	// PublicURL is the instance_url the token endpoint answers (where the REST API is reached).
	PublicURL string
}

// Server is the sandbox CRM; it is an http.Handler.
type Server struct {
	mux  *http.ServeMux
	opts Options
	log  *slog.Logger

	mu     sync.Mutex
	st     state
	faults map[string]*Fault // by client id
}

type state struct {
	Orgs   map[string]*org   `json:"orgs"`   // by client id
	Tokens map[string]string `json:"tokens"` // access token → client id
	NextID int64             `json:"next_id"`
}

type org struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Max          int    `json:"max"`
	Used         int    `json:"used"`
	// WindowStart is when the current 24-hour budget began (the first counted call after the last window).
	WindowStart time.Time                        `json:"window_start"`
	Records     map[string]map[string]crm.Record `json:"records"` // object → Id → record
	Order       map[string][]string              `json:"order"`   // object → ids, oldest first
}

// Fault makes the next Count calls of an org fail.
type Fault struct {
	Mode    string `json:"mode"` // timeout, error500, expire_session
	Count   int    `json:"count"`
	Skip    int    `json:"skip"`     // calls that pass before the first failing one
	DelayMS int    `json:"delay_ms"` // how long a timeout hangs; 30s when zero
	// AfterCommit applies the call before failing the answer: the client cannot tell it landed.
	AfterCommit bool `json:"after_commit"`
}

// New loads the state file if there is one and routes the API.
func New(opts Options) (*Server, error) {
	s := &Server{opts: opts, log: cmp.Or(opts.Logger, slog.Default()), faults: map[string]*Fault{},
		st: state{Orgs: map[string]*org{}, Tokens: map[string]string{}, NextID: 1}}
	if s.opts.Now == nil {
		s.opts.Now = time.Now
	}
	if opts.StatePath != "" {
		data, err := os.ReadFile(opts.StatePath)
		switch {
		case err == nil:
			if err := json.Unmarshal(data, &s.st); err != nil {
				return nil, err
			}
		case !os.IsNotExist(err):
			return nil, err
		}
	}
	if _, ok := s.st.Orgs[DefaultClientID]; !ok {
		s.st.Orgs[DefaultClientID] = newOrg(DefaultClientID, DefaultClientSecret, DefaultDailyLimit)
	}
	s.routes()
	return s, nil
}

func newOrg(id, secret string, limit int) *org {
	return &org{ClientID: id, ClientSecret: secret, Max: limit, Records: map[string]map[string]crm.Record{}, Order: map[string][]string{}}
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("POST /services/oauth2/token", s.token)
	api := "/services/data/{version}"
	m.HandleFunc("GET "+api+"/sobjects/{object}/describe", s.api(s.describe))
	m.HandleFunc("GET "+api+"/sobjects/{object}/{id}", s.api(s.getByID))
	m.HandleFunc("GET "+api+"/sobjects/{object}/{field}/{value}", s.api(s.getByExternalID))
	m.HandleFunc("PATCH "+api+"/sobjects/{object}/{field}/{value}", s.api(s.upsertOne))
	m.HandleFunc("PATCH "+api+"/composite/sobjects/{object}/{field}", s.api(s.upsertCollection))
	m.HandleFunc("GET "+api+"/query", s.api(s.query))
	m.HandleFunc("GET "+api+"/limits", s.limits)
	m.HandleFunc("POST /__sandbox/orgs", s.createOrg)
	m.HandleFunc("GET /__sandbox/orgs/{client}/records/{object}", s.adminRecords)
	m.HandleFunc("POST /__sandbox/orgs/{client}/faults", s.setFault)
	m.HandleFunc("POST /__sandbox/orgs/{client}/usage", s.setUsage)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeErrors(w, http.StatusNotFound, "NOT_FOUND", "The requested resource does not exist")
	})
	s.mux = m
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// persist writes the state file; callers hold mu.
func (s *Server) persist() {
	if s.opts.StatePath == "" {
		return
	}
	data, err := json.Marshal(s.st)
	if err == nil {
		tmp := s.opts.StatePath + ".tmp"
		if err = os.MkdirAll(filepath.Dir(tmp), 0o755); err == nil {
			if err = os.WriteFile(tmp, data, 0o600); err == nil {
				err = os.Rename(tmp, s.opts.StatePath)
			}
		}
	}
	if err != nil {
		s.log.Error("sandboxcrm: persist state", "err", err)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeErrors answers Salesforce's request-level error shape: [{"message", "errorCode"}].
func writeErrors(w http.ResponseWriter, status int, code, message string, fields ...string) {
	writeJSON(w, status, []crm.Error{{ErrorCode: code, Message: message, Fields: fields}})
}

// token is the OAuth 2.0 client credentials flow.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "client_credentials" {
		writeJSON(w, http.StatusBadRequest, crm.OAuthError{Error: "unsupported_grant_type", Description: "grant type not supported"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.st.Orgs[r.PostForm.Get("client_id")]
	if !ok || o.ClientSecret != r.PostForm.Get("client_secret") {
		writeJSON(w, http.StatusBadRequest, crm.OAuthError{Error: "invalid_client", Description: "invalid client credentials"})
		return
	}
	tok := "00D" + randomHex(8) + "!" + randomHex(24)
	s.st.Tokens[tok] = o.ClientID
	s.persist()
	base := s.opts.PublicURL
	if base == "" {
		base = "http://" + r.Host
	}
	writeJSON(w, http.StatusOK, crm.Token{AccessToken: tok, InstanceURL: base, ID: base + "/id/00D000000000001/005000000000001",
		TokenType: "Bearer", IssuedAt: itoa(s.opts.Now().UnixMilli()), Signature: randomHex(16)})
}

// api authenticates a REST call, counts it against the org's budget and applies an armed fault.
// h runs under mu and answers status and body, or writes itself and answers 0.
func (s *Server) api(h func(o *org, w http.ResponseWriter, r *http.Request) (int, any)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		s.mu.Lock()
		client, ok := s.st.Tokens[trimBearer(auth)]
		o := s.st.Orgs[client]
		if !ok || o == nil {
			s.mu.Unlock()
			writeErrors(w, http.StatusUnauthorized, "INVALID_SESSION_ID", "Session expired or invalid")
			return
		}
		now := s.opts.Now()
		if o.WindowStart.IsZero() || now.Sub(o.WindowStart) >= window {
			o.WindowStart, o.Used = now, 0
		}
		if o.Used >= o.Max {
			usage := crm.Usage{Used: o.Used, Max: o.Max}
			s.mu.Unlock()
			w.Header().Set(crm.LimitHeader, usage.String())
			writeErrors(w, http.StatusForbidden, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded.")
			return
		}
		o.Used++
		usage := crm.Usage{Used: o.Used, Max: o.Max}
		f := s.takeFault(o)
		if f != nil && f.Mode == "expire_session" {
			for t, c := range s.st.Tokens {
				if c == o.ClientID {
					delete(s.st.Tokens, t)
				}
			}
			s.persist()
			s.mu.Unlock()
			writeErrors(w, http.StatusUnauthorized, "INVALID_SESSION_ID", "Session expired or invalid")
			return
		}
		if f != nil && !f.AfterCommit {
			s.mu.Unlock()
			fail(w, r, f)
			return
		}
		status, body := h(o, w, r)
		if r.Method != http.MethodGet {
			s.persist()
		}
		s.mu.Unlock()
		if f != nil {
			fail(w, r, f)
			return
		}
		if status == 0 {
			return
		}
		w.Header().Set(crm.LimitHeader, usage.String())
		if body == nil {
			w.WriteHeader(status)
			return
		}
		writeJSON(w, status, body)
	}
}

func trimBearer(h string) string {
	if len(h) > 7 && (h[:7] == "Bearer " || h[:7] == "OAuth  ") {
		return h[7:]
	}
	return ""
}

func (s *Server) takeFault(o *org) *Fault {
	f := s.faults[o.ClientID]
	if f == nil || f.Count == 0 {
		return nil
	}
	if f.Skip > 0 {
		f.Skip--
		return nil
	}
	f.Count--
	c := *f
	return &c
}

// fail answers like a broken CRM, outside the lock so the rest keeps serving.
func fail(w http.ResponseWriter, r *http.Request, f *Fault) {
	if f.Mode == "timeout" {
		delay := time.Duration(f.DelayMS) * time.Millisecond
		if delay == 0 {
			delay = 30 * time.Second
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		writeErrors(w, http.StatusGatewayTimeout, "REQUEST_RUNNING_TOO_LONG", "Your request was running for too long, and has been stopped.")
		return
	}
	writeErrors(w, http.StatusInternalServerError, "UNKNOWN_EXCEPTION", "An unexpected error occurred. Please include this ErrorId if you contact support.")
}

// limits is GET /limits, which Salesforce does not count against the budget.
func (s *Server) limits(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	o := s.st.Orgs[s.st.Tokens[trimBearer(r.Header.Get("Authorization"))]]
	if o == nil {
		s.mu.Unlock()
		writeErrors(w, http.StatusUnauthorized, "INVALID_SESSION_ID", "Session expired or invalid")
		return
	}
	if !o.WindowStart.IsZero() && s.opts.Now().Sub(o.WindowStart) >= window {
		o.WindowStart, o.Used = time.Time{}, 0
	}
	var l crm.Limits
	l.DailyAPIRequests.Max, l.DailyAPIRequests.Remaining = o.Max, max(o.Max-o.Used, 0)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, l)
}

func (s *Server) createOrg(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		DailyLimit   int    `json:"daily_limit"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil && err.Error() != "EOF" {
		writeErrors(w, http.StatusBadRequest, "JSON_PARSER_ERROR", err.Error())
		return
	}
	o := newOrg(cmp.Or(in.ClientID, "3MVG9"+randomHex(12)), cmp.Or(in.ClientSecret, randomHex(16)), cmp.Or(in.DailyLimit, DefaultDailyLimit))
	s.mu.Lock()
	if _, taken := s.st.Orgs[o.ClientID]; taken {
		s.mu.Unlock()
		writeErrors(w, http.StatusConflict, "DUPLICATE_VALUE", "client id taken")
		return
	}
	s.st.Orgs[o.ClientID] = o
	s.persist()
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": o.ClientID, "client_secret": o.ClientSecret, "daily_limit": o.Max})
}

func (s *Server) adminOrg(w http.ResponseWriter, r *http.Request) *org {
	o := s.st.Orgs[r.PathValue("client")]
	if o == nil {
		writeErrors(w, http.StatusNotFound, "NOT_FOUND", "no such org")
	}
	return o
}

func (s *Server) adminRecords(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.adminOrg(w, r)
	if o == nil {
		return
	}
	obj := r.PathValue("object")
	out := []crm.Record{}
	for _, id := range o.Order[obj] {
		out = append(out, o.Records[obj][id])
	}
	writeJSON(w, http.StatusOK, map[string]any{"records": out, "api_usage": crm.Usage{Used: o.Used, Max: o.Max}.String()})
}

func (s *Server) setFault(w http.ResponseWriter, r *http.Request) {
	var f Fault
	if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
		writeErrors(w, http.StatusBadRequest, "JSON_PARSER_ERROR", err.Error())
		return
	}
	switch f.Mode {
	case "timeout", "error500", "expire_session":
		f.Count = max(f.Count, 1)
	case "", "none":
		f = Fault{}
	default:
		writeErrors(w, http.StatusBadRequest, "INVALID_FIELD", "mode must be timeout, error500, expire_session or none")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.adminOrg(w, r) == nil {
		return
	}
	s.faults[r.PathValue("client")] = &f
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) setUsage(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Used  *int `json:"used"`
		Max   *int `json:"max"`
		Reset bool `json:"reset"` // the 24-hour window reopens now
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeErrors(w, http.StatusBadRequest, "JSON_PARSER_ERROR", err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.adminOrg(w, r)
	if o == nil {
		return
	}
	if in.Reset {
		o.WindowStart, o.Used = s.opts.Now(), 0
	}
	if in.Max != nil {
		o.Max = *in.Max
	}
	if in.Used != nil {
		o.Used = *in.Used
		if o.WindowStart.IsZero() {
			o.WindowStart = s.opts.Now()
		}
	}
	s.persist()
	writeJSON(w, http.StatusOK, map[string]any{"api_usage": crm.Usage{Used: o.Used, Max: o.Max}.String()})
}
