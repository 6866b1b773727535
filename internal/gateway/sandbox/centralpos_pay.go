package sandbox

import (
	"cmp"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/money"
)

// CentralPos's payments API, as unlike MercadoPago's as two real gateways are: amounts in minor
// units, a card is a brand plus a funding type, saved cards are reusable "instruments" charged
// directly (no token per charge), every money-moving call must carry an Idempotency-Key (reusing
// one for another request is refused), and errors are {"error":{"code","message","param"}}.
//
// Server calls carry the platform's X-Partner-Key and the merchant's API key (Bearer sk_…);
// browser calls carry the merchant's publishable key (X-Publishable-Key pk_…). Under /centralpos/v1:
//
//	POST /tokens                        browser  {number,cvc,exp_month,exp_year,holder{name,document}} → 201 token (single use, 15 minutes)
//	GET  /card_brands                   browser or server → {currency,min_amount,max_amount,brands[]}
//	GET  /bins/{bin}                    server → {bin,brand,funding,name} or 404
//	POST /customers                     server {email,name,document} → 201 new, 200 the merchant's customer with that e-mail
//	POST /customers/{id}/instruments    server {token} → 201 instrument (200: the customer's same card)
//	POST /charges                       server, Idempotency-Key {amount,currency,source{token|instrument},customer,reference,description,installments,metadata}
//	GET  /charges/{id}, GET /charges?reference=   server (newest first: {"data":[…]})
//	POST /charges/{id}/refunds          server, Idempotency-Key {amount?}
//	GET  /__sandbox/centralpos/charges?merchant_id=   tests: one merchant's ledger, oldest first
//
// The cardholder's name decides a charge as on the MercadoPago side (APRO, FUND, SECU, CONT…),
// answered in CentralPos's own terms (state succeeded, declined or processing; a decline_code).

// cpTokenLifetime is how long a browser token may be used.
const cpTokenLifetime = 15 * time.Minute

// cpCard is a card as CentralPos describes it: never its number or security code.
type cpCard struct {
	Brand      string `json:"brand"`   // visa, mastercard, amex, naranja…
	Funding    string `json:"funding"` // credit, debit, prepaid
	BIN        string `json:"bin"`
	Last4      string `json:"last4"`
	ExpMonth   int    `json:"exp_month"`
	ExpYear    int    `json:"exp_year"`
	HolderName string `json:"holder_name"`
}

type cpToken struct {
	ID        string    `json:"id"`
	Merchant  string    `json:"merchant"`
	Card      cpCard    `json:"card"`
	ExpiresAt time.Time `json:"expires_at"`
	Used      bool      `json:"used"`
}

type cpCustomer struct {
	ID        string    `json:"id"`
	Merchant  string    `json:"merchant"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	Document  *cpDoc    `json:"document,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

type cpDoc struct {
	Type   string `json:"type"`
	Number string `json:"number"`
}

type cpInstrument struct {
	ID        string    `json:"id"`
	Merchant  string    `json:"merchant"`
	Customer  string    `json:"customer"`
	Card      cpCard    `json:"card"`
	CreatedAt time.Time `json:"created_at"`
}

type cpRefund struct {
	ID        string    `json:"id"`
	Charge    string    `json:"charge"`
	Amount    int64     `json:"amount"`
	CreatedAt time.Time `json:"created_at"`
}

type cpCharge struct {
	ID             string            `json:"id"`
	Seq            int64             `json:"seq"` // creation order
	Merchant       string            `json:"merchant"`
	State          string            `json:"state"` // succeeded, declined, processing, refunded
	DeclineCode    *string           `json:"decline_code"`
	Amount         int64             `json:"amount"`
	RefundedAmount int64             `json:"refunded_amount"`
	Currency       string            `json:"currency"`
	Reference      string            `json:"reference"`
	Description    string            `json:"description"`
	Installments   int               `json:"installments"`
	Customer       string            `json:"customer,omitempty"`
	Instrument     string            `json:"instrument,omitempty"`
	Card           cpCard            `json:"card"`
	Metadata       map[string]string `json:"metadata"`
	Refunds        []cpRefund        `json:"refunds"`
	CreatedAt      time.Time         `json:"created_at"`
	token          string            // the browser token it used, consumed with it
}

// cpOutcomes are the test cardholder names in CentralPos's terms: state and decline code.
var cpOutcomes = map[string][2]string{
	"OTHE": {"declined", "do_not_honor"},
	"CONT": {"processing", ""},
	"CALL": {"declined", "call_issuer"},
	"FUND": {"declined", "insufficient_funds"},
	"SECU": {"declined", "incorrect_cvc"},
	"EXPI": {"declined", "expired_card"},
	"FORM": {"declined", "invalid_card_data"},
	"DISA": {"declined", "card_disabled"},
	"RISK": {"declined", "fraud_suspected"},
	"BLAC": {"declined", "stolen_card"},
}

func cpOutcome(holder string) (state string, decline *string) {
	first, _, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(holder)), " ")
	o, ok := cpOutcomes[first]
	if !ok {
		return "succeeded", nil
	}
	if o[1] == "" {
		return o[0], nil
	}
	return o[0], &o[1]
}

func (s *Server) cpPaymentRoutes(m *http.ServeMux) {
	m.HandleFunc("OPTIONS /centralpos/v1/tokens", cpBrowser(nil))
	m.HandleFunc("OPTIONS /centralpos/v1/card_brands", cpBrowser(nil))
	m.HandleFunc("POST /centralpos/v1/tokens", cpBrowser(s.cpPublic(s.cpCreateToken)))
	m.HandleFunc("GET /centralpos/v1/card_brands", cpBrowser(s.cpBrands))
	m.HandleFunc("GET /centralpos/v1/bins/{bin}", s.cpServer(s.cpBIN))
	m.HandleFunc("POST /centralpos/v1/customers", s.cpServer(s.cpCreateCustomer))
	m.HandleFunc("POST /centralpos/v1/customers/{id}/instruments", s.cpServer(s.cpCreateInstrument))
	m.HandleFunc("POST /centralpos/v1/charges", s.cpServer(s.cpCreateCharge))
	m.HandleFunc("GET /centralpos/v1/charges", s.cpServer(s.cpSearchCharges))
	m.HandleFunc("GET /centralpos/v1/charges/{id}", s.cpServer(s.cpGetCharge))
	m.HandleFunc("POST /centralpos/v1/charges/{id}/refunds", s.cpServer(s.cpCreateRefund))
	m.HandleFunc("GET /__sandbox/centralpos/charges", s.cpAdminCharges)
}

// cpBrowser allows the donation form's origin to call CentralPos's public endpoints.
func cpBrowser(h http.HandlerFunc) http.HandlerFunc {
	return cors("Content-Type, X-Publishable-Key", h)
}

// cpMerchantBy finds a linked merchant by one of its keys. Callers hold mu.
func (s *Server) cpMerchantBy(match func(m *cpMerchant) string, key string) *cpMerchant {
	if key == "" {
		return nil
	}
	for _, m := range s.st.CPMerchants {
		if !m.Unlinked && subtle.ConstantTimeCompare([]byte(match(m)), []byte(key)) == 1 {
			return m
		}
	}
	return nil
}

func apiKeyOf(m *cpMerchant) string         { return m.APIKey }
func publishableKeyOf(m *cpMerchant) string { return m.PublishableKey }

// cpServer serves the endpoints for the platform acting for a merchant: its partner key and the
// merchant's API key, both required.
func (s *Server) cpServer(h func(http.ResponseWriter, *http.Request, *cpMerchant)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Partner-Key")), []byte(s.partnerKey)) != 1 {
			cpError(w, http.StatusUnauthorized, "invalid_partner_key", "unknown partner key")
			return
		}
		s.mu.Lock()
		m := s.cpMerchantBy(apiKeyOf, bearer(r))
		s.mu.Unlock()
		if m == nil {
			cpError(w, http.StatusUnauthorized, "invalid_api_key", "unknown or unlinked API key")
			return
		}
		h(w, r, m)
	}
}

// cpPublic serves a browser endpoint for the merchant whose publishable key the call carries.
func (s *Server) cpPublic(h func(http.ResponseWriter, *http.Request, *cpMerchant)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		m := s.cpMerchantBy(publishableKeyOf, r.Header.Get("X-Publishable-Key"))
		s.mu.Unlock()
		if m == nil {
			cpError(w, http.StatusUnauthorized, "invalid_publishable_key", "unknown or unlinked publishable key")
			return
		}
		h(w, r, m)
	}
}

func cpParamError(w http.ResponseWriter, code, message, param string) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"error": map[string]string{"code": code, "message": message, "param": param}})
}

// cpDecode reads a JSON body, answering CentralPos's error itself when it cannot.
func cpDecode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(v); err != nil {
		cpError(w, http.StatusBadRequest, "invalid_json", "the body is not valid JSON")
		return false
	}
	return true
}

func (m *cpMerchant) site(s *Server) string { return s.siteOfCountry(m.Country) }

func (m *cpMerchant) currency(s *Server) string { return sites[m.site(s)].Currency }

// cpBrandOf is a sandbox card method in CentralPos's terms: the network and the funding type
// (MercadoPago's "debvisa" is CentralPos's visa/debit).
func cpBrandOf(methodID, paymentType string) (brand, funding string) {
	funding, _ = strings.CutSuffix(paymentType, "_card")
	switch methodID {
	case "master":
		return "mastercard", funding
	case "debvisa":
		return "visa", funding
	case "debmaster":
		return "mastercard", funding
	case "debelo":
		return "elo", funding
	}
	return methodID, funding
}

// cpCardRule is the site's rule for a number and the card CentralPos describes.
func cpCardRule(site, number string) (card.Rule, cpCard, bool) {
	rule, ok := methodForBIN(site, number)
	if !ok {
		return rule, cpCard{}, false
	}
	brand, funding := cpBrandOf(string(rule.Brand), rule.PaymentType)
	return rule, cpCard{Brand: brand, Funding: funding, BIN: number[:6]}, true
}

// cpCreateToken tokenises card data from a donor's browser. The first problem found is the answer.
func (s *Server) cpCreateToken(w http.ResponseWriter, r *http.Request, m *cpMerchant) {
	var in struct {
		Number   string `json:"number"`
		CVC      string `json:"cvc"`
		ExpMonth int    `json:"exp_month"`
		ExpYear  int    `json:"exp_year"`
		Holder   struct {
			Name     string `json:"name"`
			Document cpDoc  `json:"document"`
		} `json:"holder"`
	}
	if !cpDecode(w, r, &in) {
		return
	}
	c := cardInput{Number: in.Number, SecurityCode: in.CVC, Month: in.ExpMonth, Year: in.ExpYear, Holder: cardholder{Name: strings.TrimSpace(in.Holder.Name)}}
	site := m.site(s)
	if causes := c.check(site); len(causes) > 0 {
		code, param := "invalid_number", "number"
		switch causes[0].Code {
		case "E302":
			code, param = "invalid_cvc", "cvc"
		case "325", "326":
			code, param = "invalid_expiry", "exp_month"
		case "316":
			code, param = "invalid_holder_name", "holder.name"
		}
		cpParamError(w, code, causes[0].Description, param)
		return
	}
	_, cd, _ := cpCardRule(site, c.Number)
	cd.Last4, cd.ExpMonth, cd.ExpYear, cd.HolderName = c.Number[len(c.Number)-4:], c.Month, c.Year, c.Holder.Name
	t := &cpToken{ID: "tok_" + randomHex(12), Merchant: m.ID, Card: cd, ExpiresAt: s.clock().Add(cpTokenLifetime)}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.CPTokens[t.ID] = t
	s.commit(w, http.StatusCreated, t, state{CPTokens: map[string]*cpToken{t.ID: t}})
}

// cpBrands lists the card brands the merchant takes, with their rules and the amount limits (minor
// units), to the merchant's browser (publishable key) or server (API key).
func (s *Server) cpBrands(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	m := s.cpMerchantBy(publishableKeyOf, r.Header.Get("X-Publishable-Key"))
	if m == nil && subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Partner-Key")), []byte(s.partnerKey)) == 1 {
		m = s.cpMerchantBy(apiKeyOf, bearer(r))
	}
	s.mu.Unlock()
	if m == nil {
		cpError(w, http.StatusUnauthorized, "invalid_api_key", "a publishable key, or the partner key with an API key, is required")
		return
	}
	currency := m.currency(s)
	unit := float64(money.Unit(currency))
	l := s.limitsFor(r)
	brands := []map[string]any{}
	for _, pm := range paymentMethodsFor(m.site(s)) {
		brand, funding := cpBrandOf(pm.ID, pm.PaymentType)
		brands = append(brands, map[string]any{"brand": brand, "funding": funding, "name": pm.Name,
			"bin_pattern": pm.Pattern, "bin_exclusion": pm.Exclusion, "lengths": pm.Lengths, "cvc_length": pm.SecurityCodeLength,
			"luhn": pm.Luhn})
	}
	writeJSON(w, http.StatusOK, map[string]any{"currency": currency, "min_amount": int64(math.Round(l.Min * unit)),
		"max_amount": int64(math.Round(l.Max * unit)), "brands": brands})
}

func (s *Server) cpBIN(w http.ResponseWriter, r *http.Request, m *cpMerchant) {
	bin := r.PathValue("bin")
	rule, cd, ok := cpCardRule(m.site(s), bin)
	if !ok {
		cpError(w, http.StatusNotFound, "not_found", "no brand for this BIN")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"bin": cd.BIN, "brand": cd.Brand, "funding": cd.Funding, "name": rule.Name})
}

func (s *Server) cpCreateCustomer(w http.ResponseWriter, r *http.Request, m *cpMerchant) {
	var in cpCustomer
	if !cpDecode(w, r, &in) {
		return
	}
	if !strings.Contains(in.Email, "@") {
		cpParamError(w, "invalid_email", "a valid e-mail is required", "email")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.st.CPCustomers {
		if c.Merchant == m.ID && strings.EqualFold(c.Email, in.Email) {
			writeJSON(w, http.StatusOK, c)
			return
		}
	}
	c := &cpCustomer{ID: "cus_" + randomHex(10), Merchant: m.ID, Email: in.Email, Name: in.Name, Document: in.Document, CreatedAt: now()}
	s.st.CPCustomers[c.ID] = c
	s.commit(w, http.StatusCreated, c, state{CPCustomers: map[string]*cpCustomer{c.ID: c}})
}

// cpUsableToken is a merchant's unused, unexpired token, or nil after answering the error. Callers hold mu.
func (s *Server) cpUsableToken(w http.ResponseWriter, m *cpMerchant, id string) *cpToken {
	t := s.st.CPTokens[id]
	if t == nil || t.Merchant != m.ID || t.Used || !s.clock().Before(t.ExpiresAt) {
		cpParamError(w, "token_invalid", "the token is unknown, used or expired", "token")
		return nil
	}
	return t
}

// cpCreateInstrument saves the card behind a browser token on a customer, for later charges.
func (s *Server) cpCreateInstrument(w http.ResponseWriter, r *http.Request, m *cpMerchant) {
	var in struct {
		Token string `json:"token"`
	}
	if !cpDecode(w, r, &in) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.CPCustomers[r.PathValue("id")]
	if c == nil || c.Merchant != m.ID {
		cpError(w, http.StatusNotFound, "not_found", "no such customer")
		return
	}
	t := s.cpUsableToken(w, m, in.Token)
	if t == nil {
		return
	}
	t.Used = true
	delta := state{CPTokens: map[string]*cpToken{t.ID: t}}
	for _, i := range s.st.CPInstruments {
		if i.Customer == c.ID && i.Card.BIN == t.Card.BIN && i.Card.Last4 == t.Card.Last4 &&
			i.Card.ExpMonth == t.Card.ExpMonth && i.Card.ExpYear == t.Card.ExpYear {
			s.commit(w, http.StatusOK, i, delta)
			return
		}
	}
	i := &cpInstrument{ID: "ins_" + randomHex(10), Merchant: m.ID, Customer: c.ID, Card: t.Card, CreatedAt: now()}
	s.st.CPInstruments[i.ID] = i
	delta.CPInstruments = map[string]*cpInstrument{i.ID: i}
	s.commit(w, http.StatusCreated, i, delta)
}

// cpMoney reads a money-moving request: its body into in (an empty body leaves in as it is) and its
// idempotency: the Idempotency-Key, required, scoped to the merchant and endpoint, and refused when
// reused for another body. ok is false once it answered the error itself.
func cpMoney(w http.ResponseWriter, r *http.Request, m *cpMerchant, in any) (move, bool) {
	var raw json.RawMessage
	if r.ContentLength != 0 && !cpDecode(w, r, &raw) {
		return move{}, false
	}
	if raw != nil && json.Unmarshal(raw, in) != nil {
		cpError(w, http.StatusBadRequest, "invalid_json", "the body does not fit the endpoint")
		return move{}, false
	}
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		cpError(w, http.StatusBadRequest, "idempotency_key_required", "money-moving requests need an Idempotency-Key header")
		return move{}, false
	}
	sum := sha256.Sum256(raw)
	return move{key: "centralpos " + m.ID + " " + r.Method + " " + r.URL.Path + " " + key, fingerprint: hex.EncodeToString(sum[:]),
		conflict: func() {
			cpError(w, http.StatusConflict, "idempotency_key_reused", "this Idempotency-Key was used for another request")
		}}, true
}

func (s *Server) cpCreateCharge(w http.ResponseWriter, r *http.Request, m *cpMerchant) {
	var in struct {
		Amount   int64  `json:"amount"`
		Currency string `json:"currency"`
		Source   struct {
			Token      string `json:"token"`
			Instrument string `json:"instrument"`
		} `json:"source"`
		Customer     string            `json:"customer"`
		Reference    string            `json:"reference"`
		Description  string            `json:"description"`
		Installments int               `json:"installments"`
		Metadata     map[string]string `json:"metadata"`
	}
	mv, ok := cpMoney(w, r, m, &in)
	if !ok {
		return
	}
	switch {
	case in.Amount <= 0:
		cpParamError(w, "invalid_amount", "amount must be a positive integer of minor units", "amount")
		return
	case in.Currency != m.currency(s):
		cpParamError(w, "currency_mismatch", "the merchant charges in "+m.currency(s), "currency")
		return
	case (in.Source.Token == "") == (in.Source.Instrument == ""):
		cpParamError(w, "invalid_source", "source needs exactly one of token and instrument", "source")
		return
	}
	s.moveMoney(w, r, mv, func() (int, any, bool) {
		ch := &cpCharge{ID: "ch_" + randomHex(12), Seq: s.newID(), Merchant: m.ID, Amount: in.Amount, Currency: in.Currency,
			Reference: in.Reference, Description: in.Description, Installments: max(in.Installments, 1), Customer: in.Customer,
			Metadata: in.Metadata, Refunds: []cpRefund{}, CreatedAt: now()}
		if in.Source.Token != "" {
			t := s.cpUsableToken(w, m, in.Source.Token)
			if t == nil {
				return 0, nil, false
			}
			t.Used, ch.Card, ch.token = true, t.Card, t.ID
		} else {
			i := s.st.CPInstruments[in.Source.Instrument]
			if i == nil || i.Merchant != m.ID || (in.Customer != "" && i.Customer != in.Customer) {
				cpError(w, http.StatusNotFound, "instrument_not_found", "no such instrument for this customer")
				return 0, nil, false
			}
			ch.Card, ch.Instrument, ch.Customer = i.Card, i.ID, i.Customer
		}
		if ch.Metadata == nil {
			ch.Metadata = map[string]string{}
		}
		ch.State, ch.DeclineCode = cpOutcome(ch.Card.HolderName)
		s.st.CPCharges[ch.ID] = ch
		return http.StatusCreated, ch, true
	})
}

// cpChargeByPath is the merchant's {id} charge, or nil after answering 404. Callers hold mu.
func (s *Server) cpChargeByPath(w http.ResponseWriter, r *http.Request, m *cpMerchant) *cpCharge {
	ch := s.st.CPCharges[r.PathValue("id")]
	if ch == nil || ch.Merchant != m.ID {
		cpError(w, http.StatusNotFound, "not_found", "no such charge")
		return nil
	}
	return ch
}

func (s *Server) cpGetCharge(w http.ResponseWriter, r *http.Request, m *cpMerchant) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.cpChargeByPath(w, r, m); ch != nil {
		writeJSON(w, http.StatusOK, ch)
	}
}

// cpCharges are a merchant's charges (every merchant's when id is ""), with a reference (all when
// ""), oldest first unless desc. Callers hold mu.
func (s *Server) cpCharges(merchant, reference string, desc bool) []*cpCharge {
	out := []*cpCharge{}
	for _, ch := range s.st.CPCharges {
		if (merchant == "" || ch.Merchant == merchant) && (reference == "" || ch.Reference == reference) {
			out = append(out, ch)
		}
	}
	return ordered(out, func(c *cpCharge) int64 { return c.Seq }, desc)
}

func (s *Server) cpSearchCharges(w http.ResponseWriter, r *http.Request, m *cpMerchant) {
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"data": s.cpCharges(m.ID, r.URL.Query().Get("reference"), true), "has_more": false})
}

func (s *Server) cpAdminCharges(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, http.StatusOK, s.cpCharges(r.URL.Query().Get("merchant_id"), r.URL.Query().Get("reference"), false))
}

func (s *Server) cpCreateRefund(w http.ResponseWriter, r *http.Request, m *cpMerchant) {
	var in struct {
		Amount int64 `json:"amount"`
	}
	mv, ok := cpMoney(w, r, m, &in)
	if !ok {
		return
	}
	s.moveMoney(w, r, mv, func() (int, any, bool) {
		ch := s.cpChargeByPath(w, r, m)
		if ch == nil {
			return 0, nil, false
		}
		left := ch.Amount - ch.RefundedAmount
		amount := cmp.Or(in.Amount, left)
		if ch.State != "succeeded" || amount <= 0 || amount > left {
			cpParamError(w, "refund_not_allowed", "only a succeeded charge's remaining amount can be refunded", "amount")
			return 0, nil, false
		}
		rf := cpRefund{ID: "re_" + randomHex(10), Charge: ch.ID, Amount: amount, CreatedAt: now()}
		ch.Refunds = append(ch.Refunds, rf)
		if ch.RefundedAmount += amount; ch.RefundedAmount == ch.Amount {
			ch.State = "refunded"
		}
		return http.StatusCreated, rf, true
	})
}
