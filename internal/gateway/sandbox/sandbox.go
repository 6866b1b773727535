// Package sandbox is a local stand-in for MercadoPago (and the card vault) that
// speaks the same HTTP API, so the real adapter runs unchanged against it in
// tests and in the dev stack. Outcomes follow MercadoPago's test cards: the
// cardholder name decides (APRO approves, FUND lacks funds, …).
//
// It keeps no card number or security code: a token holds the BIN, last four,
// expiry, holder and brand. State lives in memory and, when a path is given, on
// disk so restarts keep it: a JSON snapshot plus an append-only journal of the
// records each change touched, folded into a new snapshot as it grows.
//
// MercadoPago endpoints: POST /v1/card_tokens, GET /v1/payment_methods[/search?bins=],
// POST /v1/customers, GET /v1/customers/search?email=, POST /v1/customers/{id}/cards,
// POST /v1/payments, GET /v1/payments/{id}, GET /v1/payments/search?external_reference=,
// POST /v1/payments/{id}/refunds. Card vault: POST /cvault/credit-card/temporal.
// Admin, for tests: POST /__sandbox/faults (see Fault), POST /__sandbox/limits (see Limits) and
// GET /__sandbox/payments?external_reference= (a plain list, oldest first).
package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Options configures a Server.
type Options struct {
	StatePath string       // JSON file to load and keep; memory only when empty
	Currency  string       // the simulated account's currency; ARS when empty
	Logger    *slog.Logger // slog.Default() when nil
}

// Server is the sandbox gateway; it is an http.Handler.
type Server struct {
	mux      *http.ServeMux
	path     string
	currency string
	log      *slog.Logger

	// mu serialises every change, which is what makes idempotency keys hold
	// under concurrent retries: the second request sees the first's answer.
	mu        sync.Mutex
	st        state
	fault     Fault
	limits    Limits
	keyLimits map[string]Limits // set per access token or public key (see Limits)
	// journal is path+".journal", open for appending; journaled counts its entries.
	journal   *os.File
	journaled int
}

// state is everything the sandbox remembers; it is the state file's format.
type state struct {
	NextID    int64                 `json:"next_id"`
	Customers map[string]*customer  `json:"customers"`
	Cards     map[string]*savedCard `json:"cards"`
	Tokens    map[string]*cardToken `json:"tokens"`
	Payments  map[int64]*payment    `json:"payments"`
	// Replays holds the first successful answer per idempotency key.
	Replays map[string]replay `json:"replays"`
}

type replay struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// New loads the state file if there is one and routes the API.
func New(opts Options) (*Server, error) {
	s := &Server{
		path:      opts.StatePath,
		currency:  opts.Currency,
		log:       opts.Logger,
		limits:    DefaultLimits,
		keyLimits: map[string]Limits{},
		st: state{
			NextID:    1_000_000_001,
			Customers: map[string]*customer{},
			Cards:     map[string]*savedCard{},
			Tokens:    map[string]*cardToken{},
			Payments:  map[int64]*payment{},
			Replays:   map[string]replay{},
		},
	}
	if s.currency == "" {
		s.currency = "ARS"
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.path != "" {
		if err := s.load(); err != nil {
			return nil, fmt.Errorf("sandbox: state %s: %w", s.path, err)
		}
	}
	s.routes()
	return s, nil
}

func (s *Server) routes() {
	m := http.NewServeMux()
	// Browsers tokenise cards here directly from the donation form's origin, as they do with
	// MercadoPago's own tokeniser, so these answer cross-origin requests.
	m.HandleFunc("POST /v1/card_tokens", browser(s.createCardToken))
	m.HandleFunc("POST /cvault/credit-card/temporal", browser(s.vaultToken))
	m.HandleFunc("GET /v1/payment_methods", browser(s.listPaymentMethods))
	m.HandleFunc("GET /v1/payment_methods/search", browser(s.searchPaymentMethods))
	m.HandleFunc("OPTIONS /v1/card_tokens", browser(nil))
	m.HandleFunc("OPTIONS /cvault/credit-card/temporal", browser(nil))
	m.HandleFunc("POST /v1/customers", private(s.createCustomer))
	m.HandleFunc("GET /v1/customers/search", private(s.searchCustomers))
	m.HandleFunc("POST /v1/customers/{id}/cards", private(s.saveCard))
	m.HandleFunc("POST /v1/payments", private(s.createPayment))
	m.HandleFunc("GET /v1/payments/search", private(s.searchPayments))
	m.HandleFunc("GET /v1/payments/{id}", private(s.getPayment))
	m.HandleFunc("POST /v1/payments/{id}/refunds", private(s.createRefund))
	m.HandleFunc("POST /__sandbox/faults", s.setFault)
	m.HandleFunc("GET /__sandbox/payments", s.adminPayments)
	m.HandleFunc("POST /__sandbox/limits", s.setLimits)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "resource not found")
	})
	s.mux = m
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// browser allows cross-origin calls (CORS) to a public endpoint; a nil handler answers the preflight.
func browser(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
		w.Header().Set("Access-Control-Allow-Headers", "Content-Type, X-Idempotency-Key")
		w.Header().Set("Access-Control-Max-Age", "600")
		if h == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h(w, r)
	}
}

// private refuses calls without a bearer token, like the endpoints MercadoPago
// reserves for the access token; any token is accepted.
func private(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); !ok || token == "" {
			writeError(w, http.StatusUnauthorized, "unauthorized")
			return
		}
		h(w, r)
	}
}

// load reads the snapshot, then replays the journal over it. A last line cut
// short by a crash mid-append is a change that was never answered: dropped.
func (s *Server) load() error {
	data, err := os.ReadFile(s.path)
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &s.st); err != nil {
			return err
		}
	case !os.IsNotExist(err):
		return err
	}
	data, err = os.ReadFile(s.journalPath())
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	for i, line := range lines {
		if len(line) == 0 {
			continue
		}
		var d state
		if err := json.Unmarshal(line, &d); err != nil {
			if i == len(lines)-1 {
				s.log.Warn("sandbox: dropping a torn last journal entry", "err", err)
				break
			}
			return fmt.Errorf("journal line %d: %w", i+1, err)
		}
		s.st.merge(d)
		s.journaled++
	}
	// Rewriting the snapshot also drops a torn line before new entries follow it.
	return s.compact()
}

func (s *Server) journalPath() string { return s.path + ".journal" }

// merge applies a journal entry: the records it carries replace ours.
func (st *state) merge(d state) {
	st.NextID = max(st.NextID, d.NextID)
	maps.Copy(st.Customers, d.Customers)
	maps.Copy(st.Cards, d.Cards)
	maps.Copy(st.Tokens, d.Tokens)
	maps.Copy(st.Payments, d.Payments)
	maps.Copy(st.Replays, d.Replays)
}

func (st *state) records() int {
	return len(st.Customers) + len(st.Cards) + len(st.Tokens) + len(st.Payments) + len(st.Replays)
}

// persist keeps a change: the records it touched (delta) are appended to the
// journal as one line, so a change costs one short write however large the
// state is (rewriting the whole file on every change made a long run
// quadratic). Once the journal holds more entries than the state has records,
// it is folded into a new snapshot, which keeps the cost per change constant
// on average. Appends are not fsynced: the state survives the process being
// killed, not the machine losing power, which is what a sandbox needs.
// Callers hold mu.
func (s *Server) persist(delta state) error {
	if s.path == "" {
		return nil
	}
	delta.NextID = s.st.NextID
	line, err := json.Marshal(&delta)
	if err != nil {
		return err
	}
	if _, err := s.journal.Write(append(line, '\n')); err != nil {
		return err
	}
	if s.journaled++; s.journaled > max(1024, s.st.records()) {
		return s.compact()
	}
	return nil
}

// compact writes the state atomically (temp file, fsync, rename) so a crash
// leaves the old snapshot or the new one, never half of one, then empties the
// journal. Entries replace whole records, so a crash between the two steps
// replays entries the snapshot already holds, harmlessly.
func (s *Server) compact() error {
	data, err := json.MarshalIndent(&s.st, "", " ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(s.path), filepath.Base(s.path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // a no-op once renamed
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), s.path); err != nil {
		return err
	}
	if s.journal == nil {
		if s.journal, err = os.OpenFile(s.journalPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err != nil {
			return err
		}
	}
	s.journaled = 0
	return s.journal.Truncate(0)
}

// commit persists a change (the records it touched) and answers; a failed
// write is an unknown outcome for the client, which is exactly what a 500
// tells it. Callers hold mu.
func (s *Server) commit(w http.ResponseWriter, status int, body any, delta state) {
	if err := s.persist(delta); err != nil {
		s.log.Error("sandbox: persist state", "err", err)
		writeError(w, http.StatusInternalServerError, "internal_error")
		return
	}
	writeJSON(w, status, body)
}

func (s *Server) newID() int64 {
	id := s.st.NextID
	s.st.NextID++
	return id
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// cause is one MercadoPago error cause. Code is a string ("E301") or a number
// (2006) depending on the endpoint, as on the real API.
type cause struct {
	Code        any    `json:"code"`
	Description string `json:"description"`
}

type apiError struct {
	Message string  `json:"message"`
	Error   string  `json:"error"`
	Status  int     `json:"status"`
	Cause   []cause `json:"cause"`
}

func writeError(w http.ResponseWriter, status int, message string, causes ...cause) {
	if causes == nil {
		causes = []cause{}
	}
	kind := strings.ToLower(strings.ReplaceAll(http.StatusText(status), " ", "_"))
	writeJSON(w, status, apiError{Message: message, Error: kind, Status: status, Cause: causes})
}

// decode reads a JSON body, answering 400 itself when it cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON body")
		return false
	}
	return true
}

func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
