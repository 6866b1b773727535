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
// GET /__sandbox/payments?external_reference=&user_id= (a plain list, oldest first).
//
// Accounts (accounts.go): the sandbox holds many seller accounts, each on a MercadoPago site that
// fixes its currency. Every access token acts for one account, and each account has its own
// ledger: its payments, customers and saved cards are invisible to the others. The platform's
// own account answers to Options.PlatformToken and PlatformPublicKey; sellers connect through
// MercadoPago's OAuth (oauth.go: GET/POST /authorization, POST /oauth/token, GET /users/me; admin
// POST /__sandbox/accounts, /__sandbox/oauth/revoke and /__sandbox/oauth/expire). A token the
// sandbox never issued is refused with 401. CentralPos, a second gateway, is in centralpos.go; dLocal,
// the processor of integrated payments, in dlocal.go; the bank-debit network of CBU direct debits in
// bankdebit.go; the dollar MEP quote in mep.go.
package sandbox

import (
	"bytes"
	"cmp"
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

// Options configures a Server. The zero value serves: its defaults are the dev stack's.
type Options struct {
	StatePath string       // JSON file to load and keep; memory only when empty
	Currency  string       // the platform account's currency; ARS when empty
	Logger    *slog.Logger // slog.Default() when nil

	PlatformToken     string // the platform account's access token; "sandbox" when empty
	PlatformPublicKey string // and its public key; "TEST-aporta-sandbox-public-key" when empty

	// The OAuth application the platform registered; DefaultClientID and DefaultClientSecret when empty.
	ClientID, ClientSecret string
	AppName                string // shown on the authorization page; "Aporta" when empty
	// CentralPosPartnerKey is the platform's CentralPos partner key; DefaultPartnerKey when empty.
	CentralPosPartnerKey string
	// Now is the clock codes and tokens expire by; time.Now when nil.
	Now func() time.Time
	// WebhookSecret signs MercadoPago notifications; DefaultWebhookSecret when empty.
	WebhookSecret string
}

// The dev and test defaults, which internal/config's defaults match.
const (
	DefaultPlatformToken     = "sandbox"
	DefaultPlatformPublicKey = "TEST-aporta-sandbox-public-key"
	DefaultClientID          = "8808000000000001"
	DefaultClientSecret      = "TEST-aporta-client-secret"
	DefaultPartnerKey        = "TEST-aporta-centralpos-partner"
)

// Server is the sandbox gateway; it is an http.Handler.
type Server struct {
	mux  *http.ServeMux
	path string
	log  *slog.Logger

	platform                        *account
	platformToken                   string
	clientID, clientSecret, appName string
	partnerKey                      string
	webhookSecret                   string
	now                             func() time.Time

	// mu serialises every change, which is what makes idempotency keys hold
	// under concurrent retries: the second request sees the first's answer.
	mu        sync.Mutex
	st        state
	fault     Fault
	limits    Limits
	keyLimits map[string]Limits // set per access token or public key (see Limits)
	mep       mepQuote          // the dollar MEP quote (mep.go)
	// journal is path+".journal", open for appending; journaled counts its entries.
	journal   *os.File
	journaled int
}

// state is everything the sandbox remembers; it is the state file's format.
type state struct {
	NextID     int64                 `json:"next_id"`
	NextUserID int64                 `json:"next_user_id,omitempty"`
	Accounts   map[string]*account   `json:"accounts,omitempty"` // by user id
	Customers  map[string]*customer  `json:"customers"`
	Cards      map[string]*savedCard `json:"cards"`
	Tokens     map[string]*cardToken `json:"tokens"`
	Payments   map[int64]*payment    `json:"payments"`
	// Replays holds the first successful answer per account and idempotency key.
	Replays map[string]replay `json:"replays"`

	Codes         map[string]*authCode   `json:"codes,omitempty"`
	AccessTokens  map[string]*grant      `json:"access_tokens,omitempty"`
	RefreshTokens map[string]*grant      `json:"refresh_tokens,omitempty"`
	CPCodes       map[string]*cpCode     `json:"centralpos_codes,omitempty"`
	CPMerchants   map[string]*cpMerchant `json:"centralpos_merchants,omitempty"`
	// CentralPos's payments (centralpos_pay.go), each record its merchant's.
	CPTokens      map[string]*cpToken      `json:"centralpos_tokens,omitempty"`
	CPCustomers   map[string]*cpCustomer   `json:"centralpos_customers,omitempty"`
	CPInstruments map[string]*cpInstrument `json:"centralpos_instruments,omitempty"`
	CPCharges     map[string]*cpCharge     `json:"centralpos_charges,omitempty"`
	// dLocal's merchants (by x_login) and their records (dlocal.go).
	DLMerchants map[string]*dlMerchant  `json:"dlocal_merchants,omitempty"`
	DLTokens    map[string]*dlToken     `json:"dlocal_tokens,omitempty"`
	DLCards     map[string]*dlSavedCard `json:"dlocal_cards,omitempty"`
	DLPayments  map[string]*dlPayment   `json:"dlocal_payments,omitempty"`
	DLPayouts   map[string]*dlPayout    `json:"dlocal_payouts,omitempty"`
	// The bank-debit network's debits (by id) and the outcomes armed per CBU (bankdebit.go).
	Debits        map[string]*bankDebit `json:"bankdebit_debits,omitempty"`
	DebitOutcomes map[string][]string   `json:"bankdebit_outcomes,omitempty"`
}

type replay struct {
	Status      int             `json:"status"`
	Body        json.RawMessage `json:"body"`
	Fingerprint string          `json:"fingerprint,omitempty"` // the request's, where a key's reuse is checked
}

// New loads the state file if there is one and routes the API.
func New(opts Options) (*Server, error) {
	s := &Server{
		path:          opts.StatePath,
		log:           cmp.Or(opts.Logger, slog.Default()),
		platformToken: cmp.Or(opts.PlatformToken, DefaultPlatformToken),
		clientID:      cmp.Or(opts.ClientID, DefaultClientID),
		clientSecret:  cmp.Or(opts.ClientSecret, DefaultClientSecret),
		appName:       cmp.Or(opts.AppName, "Aporta"),
		partnerKey:    cmp.Or(opts.CentralPosPartnerKey, DefaultPartnerKey),
		webhookSecret: cmp.Or(opts.WebhookSecret, DefaultWebhookSecret),
		now:           opts.Now,
		limits:        DefaultLimits,
		keyLimits:     map[string]Limits{},
		mep:           DefaultMEP,
		st: state{
			NextID:        1_000_000_001,
			Accounts:      map[string]*account{},
			Customers:     map[string]*customer{},
			Cards:         map[string]*savedCard{},
			Tokens:        map[string]*cardToken{},
			Payments:      map[int64]*payment{},
			Replays:       map[string]replay{},
			Codes:         map[string]*authCode{},
			AccessTokens:  map[string]*grant{},
			RefreshTokens: map[string]*grant{},
			CPCodes:       map[string]*cpCode{},
			CPMerchants:   map[string]*cpMerchant{},
			CPTokens:      map[string]*cpToken{},
			CPCustomers:   map[string]*cpCustomer{},
			CPInstruments: map[string]*cpInstrument{},
			CPCharges:     map[string]*cpCharge{},
			DLMerchants:   map[string]*dlMerchant{},
			DLTokens:      map[string]*dlToken{},
			DLCards:       map[string]*dlSavedCard{},
			DLPayments:    map[string]*dlPayment{},
			DLPayouts:     map[string]*dlPayout{},
			Debits:        map[string]*bankDebit{},
			DebitOutcomes: map[string][]string{},
		},
	}
	if s.now == nil {
		s.now = time.Now
	}
	var err error
	if s.platform, err = platformAccount(cmp.Or(opts.Currency, "ARS"), cmp.Or(opts.PlatformPublicKey, DefaultPlatformPublicKey)); err != nil {
		return nil, err
	}
	if s.path != "" {
		if err := s.load(); err != nil {
			return nil, fmt.Errorf("sandbox: state %s: %w", s.path, err)
		}
	}
	s.st.adoptOrphans()
	s.routes()
	return s, nil
}

// clock is the time codes and tokens expire by.
func (s *Server) clock() time.Time { return s.now().UTC() }

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
	m.HandleFunc("POST /v1/customers", s.private(s.createCustomer))
	m.HandleFunc("GET /v1/customers/search", s.private(s.searchCustomers))
	m.HandleFunc("POST /v1/customers/{id}/cards", s.private(s.saveCard))
	m.HandleFunc("POST /v1/payments", s.private(s.createPayment))
	m.HandleFunc("GET /v1/payments/search", s.private(s.searchPayments))
	m.HandleFunc("GET /v1/payments/{id}", s.private(s.getPayment))
	m.HandleFunc("POST /v1/payments/{id}/refunds", s.private(s.createRefund))
	m.HandleFunc("GET /users/me", s.private(s.usersMe))
	m.HandleFunc("GET /authorization", s.authorizePage)
	m.HandleFunc("POST /authorization", s.authorize)
	m.HandleFunc("POST /oauth/token", s.oauthToken)
	m.HandleFunc("POST /centralpos/v1/links", s.cpLink)
	m.HandleFunc("DELETE /centralpos/v1/links/{merchant_id}", s.cpUnlink)
	s.cpPaymentRoutes(m)
	s.dlocalRoutes(m)
	s.bankDebitRoutes(m)
	s.mepRoutes(m)
	m.HandleFunc("POST /__sandbox/faults", s.setFault)
	m.HandleFunc("GET /__sandbox/payments", s.adminPayments)
	m.HandleFunc("POST /__sandbox/payments/{id}/chargeback", s.chargeback)
	m.HandleFunc("POST /__sandbox/limits", s.setLimits)
	m.HandleFunc("POST /__sandbox/accounts", s.createAccount)
	m.HandleFunc("POST /__sandbox/oauth/revoke", s.revokeOrExpire(true))
	m.HandleFunc("POST /__sandbox/oauth/expire", s.revokeOrExpire(false))
	m.HandleFunc("POST /__sandbox/centralpos/codes", s.cpNewCode)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "resource not found")
	})
	s.mux = m
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// browser allows cross-origin calls (CORS) to MercadoPago's public endpoints; a nil handler answers
// the preflight.
func browser(h http.HandlerFunc) http.HandlerFunc { return cors("Content-Type, X-Idempotency-Key", h) }

// cors allows cross-origin calls with the headers named; a nil handler answers the preflight.
func cors(headers string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
		w.Header().Set("Access-Control-Allow-Headers", headers)
		w.Header().Set("Access-Control-Max-Age", "600")
		if h == nil {
			w.WriteHeader(http.StatusNoContent)
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
	st.NextUserID = max(st.NextUserID, d.NextUserID)
	maps.Copy(st.Accounts, d.Accounts)
	maps.Copy(st.Customers, d.Customers)
	maps.Copy(st.Cards, d.Cards)
	maps.Copy(st.Tokens, d.Tokens)
	maps.Copy(st.Payments, d.Payments)
	maps.Copy(st.Replays, d.Replays)
	maps.Copy(st.Codes, d.Codes)
	maps.Copy(st.AccessTokens, d.AccessTokens)
	maps.Copy(st.RefreshTokens, d.RefreshTokens)
	maps.Copy(st.CPCodes, d.CPCodes)
	maps.Copy(st.CPMerchants, d.CPMerchants)
	maps.Copy(st.CPTokens, d.CPTokens)
	maps.Copy(st.CPCustomers, d.CPCustomers)
	maps.Copy(st.CPInstruments, d.CPInstruments)
	maps.Copy(st.CPCharges, d.CPCharges)
	maps.Copy(st.DLMerchants, d.DLMerchants)
	maps.Copy(st.DLTokens, d.DLTokens)
	maps.Copy(st.DLCards, d.DLCards)
	maps.Copy(st.DLPayments, d.DLPayments)
	maps.Copy(st.DLPayouts, d.DLPayouts)
	maps.Copy(st.Debits, d.Debits)
	maps.Copy(st.DebitOutcomes, d.DebitOutcomes)
}

// adoptOrphans gives the records of a state kept before accounts existed to the platform account.
func (st *state) adoptOrphans() {
	for _, c := range st.Customers {
		c.CollectorID = cmp.Or(c.CollectorID, PlatformUserID)
	}
	for _, c := range st.Cards {
		c.CollectorID = cmp.Or(c.CollectorID, PlatformUserID)
	}
	for _, p := range st.Payments {
		p.CollectorID = cmp.Or(p.CollectorID, PlatformUserID)
	}
}

func (st *state) records() int {
	return len(st.Accounts) + len(st.Customers) + len(st.Cards) + len(st.Tokens) + len(st.Payments) + len(st.Replays) +
		len(st.Codes) + len(st.AccessTokens) + len(st.RefreshTokens) + len(st.CPCodes) + len(st.CPMerchants) +
		len(st.CPTokens) + len(st.CPCustomers) + len(st.CPInstruments) + len(st.CPCharges) +
		len(st.DLMerchants) + len(st.DLTokens) + len(st.DLCards) + len(st.DLPayments) + len(st.DLPayouts) +
		len(st.Debits) + len(st.DebitOutcomes)
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
	delta.NextID, delta.NextUserID = s.st.NextID, s.st.NextUserID
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
	if status == http.StatusNoContent {
		w.WriteHeader(status)
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
