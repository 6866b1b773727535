package sandbox

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"html/template"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/money"
)

// dLocal is the payment processor behind integrated payments (local and global): the platform
// holds one dLocal account and opens a merchant account per organisation's processor; each merchant
// has its own ledger of payments and payouts. Its API follows dLocal's Payins API:
//
//   - Server calls are signed: X-Date (ISO 8601, within 10 minutes of the sandbox's clock),
//     X-Login, X-Trans-Key and Authorization "V2-HMAC-SHA256, Signature: <hex HMAC-SHA256 of
//     X-Login + X-Date + body with the secret key>". A wrong key or signature is 401 code 3001.
//   - Amounts are decimals in major units; errors are {"code":5xxx|3xxx|4xxx,"message","param"}.
//   - Payment status PAID, REJECTED or PENDING with dLocal's status_code (200, 300–3xx, 100).
//
// Under /dlocal:
//
//	POST /merchants                    platform-signed {name,country,fee_bps} → 201 {x_login,x_trans_key,secret_key,public_key}
//	POST /tokens                       browser, X-Public-Key {country,card{holder_name,number,cvv,expiration_month,expiration_year}} → 201 {token}
//	POST /secure_cards                 signed {country,card{token},payer} → 201 {card{card_id,…}}
//	POST /payments                     signed {amount,currency,country,payment_method_id:"CARD",payment_method_flow:"DIRECT",
//	                                   payer{name,email,document},card{token|card_id,installments,descriptor},order_id,description}
//	                                   order_id is the idempotency key: the same order answers its first payment.
//	GET  /payments/{id}, GET /payments/{id}/status, GET /orders/{order_id}   signed
//	GET  /payments-methods             signed → {currency,min_amount,max_amount,methods[{id:"CARD",brand,name,type,bin_pattern,…}]}
//	                                   (the amount range is the country's local-payment range, decimals)
//	POST /refunds                      signed {payment_id,amount?,notification_url} → {id,payment_id,amount,status:"SUCCESS"}
//	POST /payouts                      signed {external_id,amount,currency,country,beneficiary{name,document,bank_code,account}}
//	                                   external_id is the idempotency key: the same one answers its first payout.
//	GET  /payouts/{external_id}        signed: the merchant's payout made under that external id (404 code 4000 when none)
//	POST /payments with payment_method_flow REDIRECT: an off-site bank transfer (dlocal_bank.go)
//	GET  /__sandbox/dlocal/ledger?x_login=   tests: the merchant's payments (with descriptor and fee) and payouts, oldest first;
//	                                   a page when the browser asks for HTML
//
// The cardholder's name decides a payment as on the other gateways (APRO, FUND, SECU, CONT…; see
// dlOutcomes). Card vault tokens (POST /cvault/credit-card/temporal) are taken as card.token too.

// Platform dLocal credentials of the dev stack and tests (internal/config's defaults).
const (
	DefaultDLocalLogin    = "aporta-platform-login"
	DefaultDLocalTransKey = "aporta-platform-trans-key"
	DefaultDLocalSecret   = "aporta-platform-secret-key"
)

// dlocalClockSkew is how far X-Date may be from the sandbox's clock: an older signed request is a
// replay.
const dlocalClockSkew = 10 * time.Minute

type dlMerchant struct {
	Login     string `json:"x_login"`
	TransKey  string `json:"x_trans_key"`
	Secret    string `json:"secret_key"`
	PublicKey string `json:"public_key"`
	Name      string `json:"name"`
	Country   string `json:"country"`
	FeeBps    int64  `json:"fee_bps"`
}

type dlCard struct {
	CardID     string `json:"card_id,omitempty"`
	Brand      string `json:"brand"`
	Bin        string `json:"bin"`
	Last4      string `json:"last4"`
	ExpMonth   int    `json:"expiration_month"`
	ExpYear    int    `json:"expiration_year"`
	HolderName string `json:"holder_name"`
}

type dlToken struct {
	ID        string    `json:"token"`
	Merchant  string    `json:"merchant"`
	Card      dlCard    `json:"card"`
	ExpiresAt time.Time `json:"expires_at"`
	Used      bool      `json:"used,omitempty"`
}

type dlPayer struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	Document string `json:"document"`
}

type dlPayment struct {
	ID           string     `json:"id"`
	Seq          int64      `json:"seq"`
	Merchant     string     `json:"merchant"`
	Amount       string     `json:"amount"`
	Currency     string     `json:"currency"`
	Country      string     `json:"country"`
	Status       string     `json:"status"`
	StatusCode   string     `json:"status_code"`
	StatusDetail string     `json:"status_detail"`
	OrderID      string     `json:"order_id"`
	Description  string     `json:"description"`
	Descriptor   string     `json:"descriptor"`
	Fee          string     `json:"fee"` // the merchant's fee on a paid payment, in the payment's currency
	Refunds      []dlRefund `json:"refunds,omitempty"`
	Payer        dlPayer    `json:"payer"`
	Card         dlCard     `json:"card"`
	CreatedDate  time.Time  `json:"created_date"`
	// A bank transfer's (dlocal_bank.go): its method, bank and where the payer approves it.
	PaymentMethodID string          `json:"payment_method_id,omitempty"`
	BankTransfer    *dlBankTransfer `json:"bank_transfer,omitempty"`
	RedirectURL     string          `json:"redirect_url,omitempty"`
	notices         []dlNotice      // the notifications sent (memory only)
}

type dlPayout struct {
	ID          string            `json:"id"`
	Seq         int64             `json:"seq"`
	Merchant    string            `json:"merchant"`
	ExternalID  string            `json:"external_id"`
	Amount      string            `json:"amount"`
	Currency    string            `json:"currency"`
	Country     string            `json:"country"`
	Status      string            `json:"status"`
	Beneficiary map[string]string `json:"beneficiary"`
	CreatedDate time.Time         `json:"created_date"`
}

// dlRange is the country's local-payment range in major units, the processor's own (donor-and-campaigns §9).
func dlRange(country string) [2]int64 {
	lo, hi := dlocal.LocalRange(country)
	return [2]int64{lo, hi}
}

// dlOrderAmount checks a new payment's order id, currency, country and amount (the merchant's, within
// the country's range); false once it answered the refusal itself.
func (s *Server) dlOrderAmount(w http.ResponseWriter, m *dlMerchant, orderID string, in json.Number, currency, country string) (money.Amount, bool) {
	want := m.currency(s)
	amount, err := money.ParseWire(in.String(), want)
	switch {
	case orderID == "":
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: order_id", "order_id")
	case currency != want || country != m.Country:
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: the merchant charges "+want+" in "+m.Country, "currency")
	case err != nil || amount.Minor < dlRange(m.Country)[0]*money.Unit(want) || amount.Minor > dlRange(m.Country)[1]*money.Unit(want):
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: amount out of the country's range", "amount")
	default:
		return amount, true
	}
	return money.Amount{}, false
}

type dlRefund struct {
	ID        string    `json:"id"`
	PaymentID string    `json:"payment_id"`
	Amount    string    `json:"amount"`
	Currency  string    `json:"currency"`
	Status    string    `json:"status"`
	Created   time.Time `json:"created_date"`
}

// dlOutcomes are the test cardholder names in dLocal's terms: status code and detail. The card's own
// problems (funds, expiry, a blacklisted or disabled card…) fail at every processor; MercadoPago's
// own refusals (OTHE, CALL, RISK: its acquirer's and fraud engine's) pass here, which is what a
// retry through the global processor (charge.Route) is for. REJE is dLocal's generic rejection.
var dlOutcomes = map[string][2]string{
	"REJE": {"300", "The payment was rejected."},
	"CONT": {"100", "The payment is pending."},
	"FUND": {"302", "Insufficient amount."},
	"SECU": {"313", "Invalid security code."},
	"EXPI": {"309", "Card expired."},
	"FORM": {"314", "Invalid card data."},
	"DISA": {"308", "Card disabled."},
	"BLAC": {"303", "Card in blacklist."},
}

func dlOutcome(holder string) (status, code, detail string) {
	first, _, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(holder)), " ")
	o, ok := dlOutcomes[first]
	switch {
	case !ok:
		return "PAID", "200", "The payment was paid."
	case o[0] == "100":
		return "PENDING", o[0], o[1]
	}
	return "REJECTED", o[0], o[1]
}

func (s *Server) dlocalRoutes(m *http.ServeMux) {
	m.HandleFunc("OPTIONS /dlocal/tokens", dlBrowser(nil))
	m.HandleFunc("POST /dlocal/tokens", dlBrowser(s.dlCreateToken))
	m.HandleFunc("POST /dlocal/merchants", s.dlSigned(s.dlCreateMerchant))
	m.HandleFunc("POST /dlocal/secure_cards", s.dlSigned(s.dlSaveCard))
	m.HandleFunc("POST /dlocal/payments", s.dlSigned(s.dlCreatePayment))
	m.HandleFunc("GET /dlocal/payments/{id}", s.dlSigned(s.dlGetPayment))
	m.HandleFunc("GET /dlocal/payments/{id}/status", s.dlSigned(s.dlGetPayment))
	m.HandleFunc("GET /dlocal/orders/{order_id}", s.dlSigned(s.dlGetOrder))
	m.HandleFunc("POST /dlocal/payouts", s.dlSigned(s.dlCreatePayout))
	m.HandleFunc("GET /dlocal/payouts/{external_id}", s.dlSigned(s.dlGetPayout))
	m.HandleFunc("POST /dlocal/refunds", s.dlSigned(s.dlCreateRefund))
	m.HandleFunc("GET /dlocal/payments-methods", s.dlSigned(s.dlMethods))
	m.HandleFunc("GET /__sandbox/dlocal/ledger", s.dlLedger)
	s.dlBankRoutes(m)
}

func dlBrowser(h http.HandlerFunc) http.HandlerFunc { return cors("Content-Type, X-Public-Key", h) }

// dlError is dLocal's error shape.
func dlError(w http.ResponseWriter, status, code int, message, param string) {
	body := map[string]any{"code": code, "message": message}
	if param != "" {
		body["param"] = param
	}
	writeJSON(w, status, body)
}

// dlSigned serves an endpoint for the merchant (or the platform, for POST /merchants) whose keys and
// signature the request carries; merchant is nil for the platform.
func (s *Server) dlSigned(h func(http.ResponseWriter, *http.Request, *dlMerchant, []byte)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			dlError(w, http.StatusBadRequest, 5000, "Invalid request", "")
			return
		}
		login, key, date := r.Header.Get("X-Login"), r.Header.Get("X-Trans-Key"), r.Header.Get("X-Date")
		at, err := time.Parse(time.RFC3339Nano, date)
		if err != nil || s.clock().Sub(at).Abs() > dlocalClockSkew {
			dlError(w, http.StatusUnauthorized, 3001, "Invalid credentials: X-Date is missing or too far from now", "")
			return
		}
		s.mu.Lock()
		var m *dlMerchant
		secret := ""
		if login == DefaultDLocalLogin && key == DefaultDLocalTransKey {
			secret = DefaultDLocalSecret
		} else if m = s.st.DLMerchants[login]; m != nil && subtle.ConstantTimeCompare([]byte(key), []byte(m.TransKey)) == 1 {
			secret = m.Secret
		}
		s.mu.Unlock()
		want := dlocal.Signature(login, date, secret, body)
		if secret == "" || subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte(want)) != 1 {
			dlError(w, http.StatusUnauthorized, 3001, "Invalid credentials", "")
			return
		}
		if (m == nil) != (r.URL.Path == "/dlocal/merchants") {
			dlError(w, http.StatusForbidden, 3003, "Merchant has no authorization to use this API", "")
			return
		}
		h(w, r, m, body)
	}
}

// dlDecode reads a signed request's body, answering dLocal's error itself when it cannot.
func dlDecode(w http.ResponseWriter, body []byte, v any) bool {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		dlError(w, http.StatusBadRequest, 5000, "Invalid request", "")
		return false
	}
	return true
}

func (s *Server) dlCreateMerchant(w http.ResponseWriter, _ *http.Request, _ *dlMerchant, body []byte) {
	var in struct {
		Name    string `json:"name"`
		Country string `json:"country"`
		FeeBps  int64  `json:"fee_bps"`
	}
	if !dlDecode(w, body, &in) {
		return
	}
	if strings.TrimSpace(in.Name) == "" || s.siteOfCountry(in.Country) == "" || in.FeeBps < 0 || in.FeeBps > 10000 {
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: name, a supported country and fee_bps are required", "country")
		return
	}
	m := &dlMerchant{Login: "dl_login_" + randomHex(8), TransKey: "dl_trans_" + randomHex(12), Secret: "dl_secret_" + randomHex(16),
		PublicKey: "dl_pk_" + randomHex(12), Name: strings.TrimSpace(in.Name), Country: in.Country, FeeBps: in.FeeBps}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.DLMerchants[m.Login] = m
	s.commit(w, http.StatusCreated, m, state{DLMerchants: map[string]*dlMerchant{m.Login: m}})
}

func (m *dlMerchant) currency(s *Server) string { return sites[s.siteOfCountry(m.Country)].Currency }

// dlCreateToken tokenises card data from a donor's browser for the merchant whose public key it
// carries; the first problem found is the answer, naming the field (param) the form shows it on.
func (s *Server) dlCreateToken(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Country string `json:"country"`
		Card    struct {
			HolderName string `json:"holder_name"`
			Number     string `json:"number"`
			CVV        string `json:"cvv"`
			ExpMonth   int    `json:"expiration_month"`
			ExpYear    int    `json:"expiration_year"`
		} `json:"card"`
	}
	if !decode(w, r, &in) {
		return
	}
	s.mu.Lock()
	var m *dlMerchant
	for _, c := range s.st.DLMerchants {
		if subtle.ConstantTimeCompare([]byte(c.PublicKey), []byte(r.Header.Get("X-Public-Key"))) == 1 {
			m = c
		}
	}
	s.mu.Unlock()
	if m == nil {
		dlError(w, http.StatusUnauthorized, 3001, "Invalid public key", "")
		return
	}
	c := cardInput{Number: in.Card.Number, SecurityCode: in.Card.CVV, Month: in.Card.ExpMonth, Year: in.Card.ExpYear,
		Holder: cardholder{Name: strings.TrimSpace(in.Card.HolderName)}}
	site := s.siteOfCountry(m.Country)
	if causes := c.check(site); len(causes) > 0 {
		param := "card.number"
		switch causes[0].Code {
		case "E302":
			param = "card.cvv"
		case "325", "326":
			param = "card.expiration_month"
		case "316":
			param = "card.holder_name"
		}
		dlError(w, http.StatusBadRequest, 5001, causes[0].Description, param)
		return
	}
	rule, _ := methodForBIN(site, c.Number)
	t := &dlToken{ID: "CV-" + randomHex(16), Merchant: m.Login, ExpiresAt: s.clock().Add(cpTokenLifetime),
		Card: dlCard{Brand: string(rule.Brand), Bin: c.Number[:6], Last4: c.Number[len(c.Number)-4:], ExpMonth: c.Month, ExpYear: c.Year,
			HolderName: c.Holder.Name}}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.DLTokens[t.ID] = t
	s.commit(w, http.StatusCreated, map[string]any{"token": t.ID, "card": t.Card}, state{DLTokens: map[string]*dlToken{t.ID: t}})
}

// dlUsableToken is the merchant's unused, unexpired token, or a card vault token (the vault's tokens
// are any processor's: once used here, it is this merchant's, used); it answers 400 code 5008 itself.
// Callers hold mu.
func (s *Server) dlUsableToken(w http.ResponseWriter, m *dlMerchant, id string) *dlToken {
	t := s.st.DLTokens[id]
	if v := s.st.Tokens[id]; t == nil && v != nil && v.CollectorID == 0 {
		t = &dlToken{ID: id, Merchant: m.Login, ExpiresAt: v.DateDue, Card: dlCard{Brand: v.PaymentMethodID, Bin: v.FirstSixDigits,
			Last4: v.LastFourDigits, ExpMonth: v.ExpirationMonth, ExpYear: v.ExpirationYear, HolderName: v.Cardholder.Name}}
	}
	if t == nil || t.Merchant != m.Login || t.Used || !s.clock().Before(t.ExpiresAt) {
		dlError(w, http.StatusBadRequest, 5008, "Token not found or inconsistent", "card.token")
		return nil
	}
	s.st.DLTokens[id] = t
	return t
}

func (s *Server) dlSaveCard(w http.ResponseWriter, _ *http.Request, m *dlMerchant, body []byte) {
	var in struct {
		Card struct {
			Token string `json:"token"`
		} `json:"card"`
		Payer dlPayer `json:"payer"`
	}
	if !dlDecode(w, body, &in) {
		return
	}
	if in.Payer.Email == "" || in.Payer.Document == "" {
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: payer.email and payer.document", "payer.document")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.dlUsableToken(w, m, in.Card.Token)
	if t == nil {
		return
	}
	t.Used = true
	c := t.Card
	c.CardID = "CID-" + randomHex(12)
	s.st.DLCards[c.CardID] = &dlSavedCard{Merchant: m.Login, Card: c, Payer: in.Payer}
	s.commit(w, http.StatusCreated, map[string]any{"card": c},
		state{DLTokens: map[string]*dlToken{t.ID: t}, DLCards: map[string]*dlSavedCard{c.CardID: s.st.DLCards[c.CardID]}})
}

type dlSavedCard struct {
	Merchant string  `json:"merchant"`
	Card     dlCard  `json:"card"`
	Payer    dlPayer `json:"payer"`
}

func (s *Server) dlCreatePayment(w http.ResponseWriter, r *http.Request, m *dlMerchant, body []byte) {
	var in struct {
		Amount      json.Number `json:"amount"`
		Currency    string      `json:"currency"`
		Country     string      `json:"country"`
		MethodID    string      `json:"payment_method_id"`
		Flow        string      `json:"payment_method_flow"`
		Payer       dlPayer     `json:"payer"`
		OrderID     string      `json:"order_id"`
		Description string      `json:"description"`
		Card        struct {
			Token      string `json:"token"`
			CardID     string `json:"card_id"`
			Descriptor string `json:"descriptor"`
		} `json:"card"`
	}
	if !dlDecode(w, body, &in) {
		return
	}
	if in.Flow == "REDIRECT" {
		s.dlCreateBankPayment(w, r, m, body)
		return
	}
	amount, ok := s.dlOrderAmount(w, m, in.OrderID, in.Amount, in.Currency, in.Country)
	currency := amount.Currency
	switch {
	case !ok:
		return
	case in.MethodID != "CARD" || in.Flow != "DIRECT":
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: payment_method_id", "payment_method_id")
		return
	case (in.Card.Token == "") == (in.Card.CardID == ""):
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: one of card.token and card.card_id", "card")
		return
	case strings.ContainsAny(in.Card.Descriptor, `<>\'"`) || len(in.Card.Descriptor) > 32:
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: card.descriptor", "card.descriptor")
		return
	case in.Payer.Email == "" || in.Payer.Document == "":
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: payer.email and payer.document", "payer.document")
		return
	}
	// order_id is the idempotency key: a retry of the same order answers its first payment. An armed
	// fault (POST /__sandbox/faults) fails the answer, before the payment or, AfterCommit, after it.
	after, ok := s.lockFault(w, r)
	if !ok {
		return
	}
	p, status := s.dlPay(w, m, in.OrderID, in.Card.Token, in.Card.CardID, func(c dlCard) *dlPayment {
		return &dlPayment{ID: "D-" + randomHex(10), Seq: s.newID(), Merchant: m.Login, Amount: amount.Decimal(), Currency: currency,
			Country: m.Country, OrderID: in.OrderID, Description: in.Description, Descriptor: in.Card.Descriptor, Payer: in.Payer,
			Card: c, CreatedDate: now()}
	})
	s.mu.Unlock()
	switch {
	case p == nil: // answered
	case after != nil:
		s.fail(w, r, *after)
	default:
		writeJSON(w, status, p)
	}
}

// dlPay makes the order's payment with a token or saved card, or finds the one it already has;
// nil once it answered a refusal itself. Callers hold mu.
func (s *Server) dlPay(w http.ResponseWriter, m *dlMerchant, orderID, token, cardID string, build func(dlCard) *dlPayment) (*dlPayment, int) {
	if p := s.dlOrder(m, orderID); p != nil {
		return p, http.StatusOK
	}
	delta := state{DLTokens: map[string]*dlToken{}}
	var c dlCard
	if token != "" {
		t := s.dlUsableToken(w, m, token)
		if t == nil {
			return nil, 0
		}
		t.Used = true
		delta.DLTokens[t.ID] = t
		c = t.Card
	} else {
		saved := s.st.DLCards[cardID]
		if saved == nil || saved.Merchant != m.Login {
			dlError(w, http.StatusBadRequest, 5001, "Invalid param: card.card_id", "card.card_id")
			return nil, 0
		}
		c = saved.Card
	}
	p := build(c)
	p.Status, p.StatusCode, p.StatusDetail = dlOutcome(c.HolderName)
	if p.Status == "PAID" {
		a, _ := money.ParseWire(p.Amount, p.Currency)                          // written by Decimal
		p.Fee = money.New((a.Minor*m.FeeBps+5000)/10000, p.Currency).Decimal() // half up
	}
	s.st.DLPayments[p.ID] = p
	delta.DLPayments = map[string]*dlPayment{p.ID: p}
	if err := s.persist(delta); err != nil {
		s.log.Error("sandbox: persist state", "err", err)
		dlError(w, http.StatusInternalServerError, 5000, "internal error", "")
		return nil, 0
	}
	return p, http.StatusOK
}

// dlOrder is the merchant's payment of an order, nil when there is none. Callers hold mu.
func (s *Server) dlOrder(m *dlMerchant, orderID string) *dlPayment {
	for _, p := range s.st.DLPayments {
		if p.Merchant == m.Login && p.OrderID == orderID {
			return p
		}
	}
	return nil
}

func (s *Server) dlGetPayment(w http.ResponseWriter, r *http.Request, m *dlMerchant, _ []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.st.DLPayments[r.PathValue("id")]
	if p == nil || p.Merchant != m.Login {
		dlError(w, http.StatusNotFound, 4000, "Payment not found", "")
		return
	}
	if strings.HasSuffix(r.URL.Path, "/status") {
		writeJSON(w, http.StatusOK, map[string]string{"id": p.ID, "status": p.Status, "status_code": p.StatusCode, "status_detail": p.StatusDetail})
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) dlGetOrder(w http.ResponseWriter, r *http.Request, m *dlMerchant, _ []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.dlOrder(m, r.PathValue("order_id"))
	if p == nil {
		dlError(w, http.StatusNotFound, 4000, "Payment not found", "")
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) dlCreatePayout(w http.ResponseWriter, r *http.Request, m *dlMerchant, body []byte) {
	var in struct {
		ExternalID  string            `json:"external_id"`
		Amount      json.Number       `json:"amount"`
		Currency    string            `json:"currency"`
		Country     string            `json:"country"`
		Beneficiary map[string]string `json:"beneficiary"`
	}
	if !dlDecode(w, body, &in) {
		return
	}
	currency := m.currency(s)
	amount, err := money.ParseWire(in.Amount.String(), currency)
	switch {
	case in.ExternalID == "":
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: external_id", "external_id")
		return
	case err != nil || amount.Minor <= 0 || in.Currency != currency || in.Country != m.Country:
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: amount", "amount")
		return
	case in.Beneficiary["account"] == "" || in.Beneficiary["bank_code"] == "" || in.Beneficiary["document"] == "":
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: beneficiary", "beneficiary")
		return
	}
	// An armed fault (POST /__sandbox/faults) fails the answer, before the payout or, AfterCommit, after it.
	after, ok := s.lockFault(w, r)
	if !ok {
		return
	}
	p := s.dlPayoutOf(m, in.ExternalID)
	if p == nil {
		// The ledger shows where the money went, never the full account number.
		b := map[string]string{"name": in.Beneficiary["name"], "document": in.Beneficiary["document"], "bank_code": in.Beneficiary["bank_code"],
			"account": "****" + in.Beneficiary["account"][max(0, len(in.Beneficiary["account"])-4):]}
		p = &dlPayout{ID: "P-" + randomHex(10), Seq: s.newID(), Merchant: m.Login, ExternalID: in.ExternalID, Amount: amount.Decimal(),
			Currency: currency, Country: m.Country, Status: "PAID", Beneficiary: b, CreatedDate: now()}
		s.st.DLPayouts[p.ID] = p
		if err := s.persist(state{DLPayouts: map[string]*dlPayout{p.ID: p}}); err != nil {
			s.mu.Unlock()
			s.log.Error("sandbox: persist state", "err", err)
			dlError(w, http.StatusInternalServerError, 5000, "internal error", "")
			return
		}
	}
	s.mu.Unlock()
	if after != nil {
		s.fail(w, r, *after)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// dlPayoutOf is the merchant's payout under an external id, nil when there is none. Callers hold mu.
func (s *Server) dlPayoutOf(m *dlMerchant, externalID string) *dlPayout {
	for _, p := range s.st.DLPayouts {
		if p.Merchant == m.Login && p.ExternalID == externalID {
			return p
		}
	}
	return nil
}

func (s *Server) dlGetPayout(w http.ResponseWriter, r *http.Request, m *dlMerchant, _ []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.dlPayoutOf(m, r.PathValue("external_id"))
	if p == nil {
		dlError(w, http.StatusNotFound, 4000, "Payout not found", "")
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// dlLedger lists one merchant's payments and payouts, oldest first.
func (s *Server) dlLedger(w http.ResponseWriter, r *http.Request) {
	login := r.URL.Query().Get("x_login")
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.st.DLMerchants[login]
	if m == nil {
		dlError(w, http.StatusNotFound, 4000, "Merchant not found", "")
		return
	}
	payments, payouts := []*dlPayment{}, []*dlPayout{}
	for _, p := range s.st.DLPayments {
		if p.Merchant == login {
			payments = append(payments, p)
		}
	}
	for _, p := range s.st.DLPayouts {
		if p.Merchant == login {
			payouts = append(payouts, p)
		}
	}
	slices.SortFunc(payments, func(a, b *dlPayment) int { return int(a.Seq - b.Seq) })
	slices.SortFunc(payouts, func(a, b *dlPayout) int { return int(a.Seq - b.Seq) })
	merchant := map[string]any{"x_login": m.Login, "name": m.Name, "country": m.Country, "fee_bps": m.FeeBps}
	if wantsHTML(r) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_ = dlLedgerPage.Execute(w, map[string]any{"Merchant": merchant, "Payments": payments, "Payouts": payouts})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"merchant": merchant, "payments": payments, "payouts": payouts})
}

// wantsHTML says a browser asks (its Accept names text/html): tests and people read the ledger as a page.
func wantsHTML(r *http.Request) bool { return strings.Contains(r.Header.Get("Accept"), "text/html") }

// dlLedgerPage is the merchant's ledger as dLocal's dashboard lists it: each payment with its
// statement descriptor and fee, then the payouts.
var dlLedgerPage = template.Must(template.New("ledger").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>dLocal (sandbox) · {{.Merchant.name}}</title>
<style>body{font-family:sans-serif;margin:2rem;color:#1b1b1b}table{border-collapse:collapse;width:100%;margin-bottom:2rem}
th,td{border-bottom:1px solid #ddd;padding:.4rem .6rem;text-align:left;font-size:.9rem}th{background:#f3f5f9}
td.num{text-align:right;font-variant-numeric:tabular-nums}</style>
</head><body>
<h1>dLocal (sandbox) · {{.Merchant.name}}</h1>
<p><small>Sandbox: no real money moves.</small> Merchant <code>{{.Merchant.x_login}}</code>, {{.Merchant.country}}, fee {{.Merchant.fee_bps}} bps.</p>
<h2>Payments</h2>
<table aria-label="Payments"><thead><tr><th>Payment</th><th>Order</th><th>Date</th><th>Status</th><th>Amount</th><th>Descriptor</th><th>Fee</th><th>Card</th></tr></thead><tbody>
{{range .Payments}}<tr data-order="{{.OrderID}}"><td>{{.ID}}</td><td>{{.OrderID}}</td><td>{{.CreatedDate.Format "2006-01-02 15:04:05"}}</td>
<td data-field="status">{{.Status}}</td><td class="num" data-field="amount">{{.Amount}} {{.Currency}}</td>
<td data-field="descriptor">{{.Descriptor}}</td><td class="num" data-field="fee">{{.Fee}} {{.Currency}}</td>
<td>{{if .BankTransfer}}{{.PaymentMethodID}} · bank {{.BankTransfer.BankCode}}{{else}}{{.Card.Brand}} •••• {{.Card.Last4}}{{end}}</td></tr>
{{else}}<tr><td colspan="8">No payments yet.</td></tr>{{end}}
</tbody></table>
<h2>Payouts</h2>
<table aria-label="Payouts"><thead><tr><th>Payout</th><th>External id</th><th>Date</th><th>Status</th><th>Amount</th></tr></thead><tbody>
{{range .Payouts}}<tr><td>{{.ID}}</td><td>{{.ExternalID}}</td><td>{{.CreatedDate.Format "2006-01-02 15:04:05"}}</td><td>{{.Status}}</td>
<td class="num">{{.Amount}} {{.Currency}}</td></tr>
{{else}}<tr><td colspan="5">No payouts yet.</td></tr>{{end}}
</tbody></table>
</body></html>`))

func (s *Server) dlMethods(w http.ResponseWriter, _ *http.Request, m *dlMerchant, _ []byte) {
	methods := []map[string]any{}
	for _, pm := range paymentMethodsFor(s.siteOfCountry(m.Country)) {
		methods = append(methods, map[string]any{"id": "CARD", "brand": pm.ID, "name": pm.Name, "type": pm.PaymentType,
			"bin_pattern": pm.Pattern, "bin_exclusion": pm.Exclusion, "lengths": pm.Lengths, "cvv_length": pm.SecurityCodeLength,
			"luhn": pm.Luhn})
	}
	methods = append(methods, dlBankMethodsOf(m.Country)...)
	r := dlRange(m.Country)
	writeJSON(w, http.StatusOK, map[string]any{"country": m.Country, "currency": m.currency(s), "min_amount": r[0], "max_amount": r[1],
		"methods": methods})
}

// dlCreateRefund gives back a paid payment's amount, or what is left of it.
func (s *Server) dlCreateRefund(w http.ResponseWriter, _ *http.Request, m *dlMerchant, body []byte) {
	var in struct {
		PaymentID string      `json:"payment_id"`
		Amount    json.Number `json:"amount"`
	}
	if !dlDecode(w, body, &in) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.st.DLPayments[in.PaymentID]
	if p == nil || p.Merchant != m.Login {
		dlError(w, http.StatusNotFound, 4000, "Payment not found", "payment_id")
		return
	}
	paid, _ := money.ParseWire(p.Amount, p.Currency)
	left := paid.Minor
	for _, r := range p.Refunds {
		a, _ := money.ParseWire(r.Amount, r.Currency)
		left -= a.Minor
	}
	amount := left
	if in.Amount != "" {
		a, err := money.ParseWire(in.Amount.String(), p.Currency)
		if err != nil {
			dlError(w, http.StatusBadRequest, 5001, "Invalid param: amount", "amount")
			return
		}
		amount = a.Minor
	}
	if p.Status != "PAID" && p.Status != "PARTIALLY_REFUNDED" || amount <= 0 || amount > left {
		dlError(w, http.StatusBadRequest, 5007, "Amount exceeded or payment not refundable", "amount")
		return
	}
	r := dlRefund{ID: "R-" + randomHex(10), PaymentID: p.ID, Amount: money.New(amount, p.Currency).Decimal(), Currency: p.Currency,
		Status: "SUCCESS", Created: now()}
	p.Refunds = append(p.Refunds, r)
	p.Status = "PARTIALLY_REFUNDED"
	if amount == left {
		p.Status = "REFUNDED"
	}
	s.commit(w, http.StatusOK, r, state{DLPayments: map[string]*dlPayment{p.ID: p}})
}
