// Package dlocal charges through dLocal, the processor of integrated payments: the platform holds a
// dLocal account and opens a merchant account for each organisation's processor (Onboard), whose keys
// Aporta keeps encrypted; Account charges through one merchant. Every server call is signed as dLocal
// documents: X-Date, X-Login, X-Trans-Key and Authorization "V2-HMAC-SHA256, Signature: <hex
// HMAC-SHA256 of login + date + body with the secret key>". Amounts travel as decimals in major
// units; a payment's order_id is our external reference, and dLocal answers a repeated order with its
// first payment, so the reference is the charge's idempotency key too. The sandbox gateway serves the
// same API under /dlocal.
package dlocal

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/internal/rest"
	"github.com/aporta/aporta/internal/money"
)

// Config is the platform's dLocal account.
type Config struct {
	BaseURL         string // e.g. https://api.dlocal.com, or the sandbox's …/dlocal
	Login, TransKey string
	Secret          string        // the secret key requests are signed with
	Timeout         time.Duration // per request; 20s when zero
	HTTPClient      *http.Client  // http.DefaultClient when nil
	now             func() time.Time
}

// Merchant is the keys of one merchant account. TransKey and Secret are secrets: stored only
// encrypted, never returned by the API, never logged.
type Merchant struct {
	Login     string `json:"x_login"`
	TransKey  string `json:"x_trans_key"`
	Secret    string `json:"secret_key"`
	PublicKey string `json:"public_key"` // the key donors' browsers tokenise cards with
}

// client is a signed REST client for one set of keys.
func client(cfg Config, login, transKey, secret string) (*rest.Client, error) {
	if login == "" || transKey == "" || secret == "" {
		return nil, errors.New("dlocal: login, trans key and secret are required")
	}
	rc, err := rest.New(cfg.BaseURL, cfg.HTTPClient, cfg.Timeout, nil)
	if err != nil {
		return nil, fmt.Errorf("dlocal: %w", err)
	}
	now := cfg.now
	if now == nil {
		now = time.Now
	}
	rc.Sign = func(h http.Header, body []byte) {
		date := now().UTC().Format("2006-01-02T15:04:05.000Z")
		h.Set("X-Date", date)
		h.Set("X-Login", login)
		h.Set("X-Trans-Key", transKey)
		h.Set("X-Version", "2.1")
		h.Set("Authorization", Signature(login, date, secret, body))
	}
	return rc, nil
}

// Signature is dLocal's Authorization header for a request body sent at date.
func Signature(login, date, secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(login + date))
	mac.Write(body)
	return "V2-HMAC-SHA256, Signature: " + hex.EncodeToString(mac.Sum(nil))
}

// Onboard opens a merchant account for an organisation's processor, in its country, with the fee the
// gateway option charges (basis points of each paid payment).
func Onboard(ctx context.Context, cfg Config, name, country string, feeBps int32) (Merchant, error) {
	rc, err := client(cfg, cfg.Login, cfg.TransKey, cfg.Secret)
	if err != nil {
		return Merchant{}, err
	}
	var m Merchant
	if err := rc.Do(ctx, http.MethodPost, "/merchants", nil, map[string]any{"name": name, "country": country, "fee_bps": feeBps}, &m); err != nil {
		return Merchant{}, fmt.Errorf("dlocal: onboard: %w", err)
	}
	if m.Login == "" || m.TransKey == "" || m.Secret == "" {
		return Merchant{}, errors.New("dlocal: onboard: an answer without keys")
	}
	return m, nil
}

// Account charges through one merchant account of a country.
type Account struct {
	rest              *rest.Client
	country, currency string
	publicKey         string
	methods           gateway.Cached[methods]
	login, secret     string // what dLocal signs its notifications with (VerifyNotification)
}

// PublicKey is the key donors' browsers tokenise cards for this merchant with.
func (a *Account) PublicKey() string { return a.publicKey }

var _ gateway.Account = (*Account)(nil)

// NewAccount is the merchant whose keys m are, charging in country's currency.
func NewAccount(cfg Config, m Merchant, country, currency string) (*Account, error) {
	if len(country) != 2 || len(currency) != 3 {
		return nil, fmt.Errorf("dlocal: country %q and currency %q must be ISO codes", country, currency)
	}
	rc, err := client(cfg, m.Login, m.TransKey, m.Secret)
	if err != nil {
		return nil, err
	}
	return &Account{rest: rc, country: country, currency: currency, publicKey: m.PublicKey, login: m.Login, secret: m.Secret}, nil
}

// EnsureCustomer: dLocal keeps no customers; the payer travels with each saved card and payment, so
// the customer id carries the payer (e-mail and document) to the cards saved for it.
func (a *Account) EnsureCustomer(_ context.Context, c gateway.Customer) (gateway.Customer, error) {
	c.ID = url.Values{"email": {c.Email}, "document": {c.IDNumber}}.Encode()
	return c, nil
}

// payer is the payer a customer id carries (EnsureCustomer).
func payer(customerID string) map[string]string {
	v, _ := url.ParseQuery(customerID)
	return map[string]string{"email": v.Get("email"), "document": v.Get("document")}
}

type wireCard struct {
	CardID     string `json:"card_id"`
	Brand      string `json:"brand"`
	Bin        string `json:"bin"`
	Last4      string `json:"last4"`
	ExpMonth   int    `json:"expiration_month"`
	ExpYear    int    `json:"expiration_year"`
	HolderName string `json:"holder_name"`
}

// SaveCard keeps the card behind a browser token for later payments (POST /secure_cards).
func (a *Account) SaveCard(ctx context.Context, customerID, token string) (gateway.Card, error) {
	var out struct {
		Card wireCard `json:"card"`
	}
	body := map[string]any{"country": a.country, "card": map[string]string{"token": token}, "payer": payer(customerID)}
	if err := a.rest.Do(ctx, http.MethodPost, "/secure_cards", nil, body, &out); err != nil {
		return gateway.Card{}, refusal(err)
	}
	c := out.Card
	return gateway.Card{ID: c.CardID, CustomerID: customerID, PaymentMethodID: c.Brand, FirstSix: c.Bin, LastFour: c.Last4,
		ExpirationMonth: c.ExpMonth, ExpirationYear: c.ExpYear, HolderName: c.HolderName}, nil
}

// payment is dLocal's payment.
type payment struct {
	ID           string    `json:"id"`
	Amount       string    `json:"amount"`
	Currency     string    `json:"currency"`
	Status       string    `json:"status"`
	StatusCode   string    `json:"status_code"`
	StatusDetail string    `json:"status_detail"`
	OrderID      string    `json:"order_id"`
	CreatedDate  time.Time `json:"created_date"`
	RedirectURL  string    `json:"redirect_url"` // a bank transfer's: where the payer approves it
}

// UnmarshalJSON reads amount whether dLocal sends it as a number or a string.
func (p *payment) UnmarshalJSON(b []byte) error {
	type plain payment
	var w struct {
		plain
		Amount json.Number `json:"amount"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = payment(w.plain)
	p.Amount = w.Amount.String()
	return nil
}

var statuses = map[string]gateway.Status{
	"PAID": gateway.StatusApproved, "REJECTED": gateway.StatusRejected, "PENDING": gateway.StatusPending,
	"CANCELLED": gateway.StatusCancelled, "REFUNDED": gateway.StatusRefunded, "PARTIALLY_REFUNDED": gateway.StatusApproved,
	"AUTHORIZED": gateway.StatusInProcess,
}

// pausing are the rejections that will fail the same way next month (dLocal's status codes).
var pausing = map[string]gateway.PausedReason{
	"303": gateway.PausedStolenIssue, "304": gateway.PausedHighRisk, "308": gateway.PausedCardCancelled,
	"309": gateway.PausedCardExpired, "313": gateway.PausedMissingCode, "314": gateway.PausedInvalidNumber,
}

func (p payment) toGateway() gateway.Payment {
	status, ok := statuses[p.Status]
	if !ok {
		status = gateway.StatusInProcess // a status added later: not final, read it again later
	}
	amount, _ := money.ParseWire(p.Amount, p.Currency)
	out := gateway.Payment{ID: p.ID, Status: status, StatusDetail: p.StatusCode, Amount: amount, ExternalReference: p.OrderID,
		CreatedAt: p.CreatedDate}
	if status == gateway.StatusRejected {
		out.PausedReason = pausing[p.StatusCode]
	}
	return out
}

// Charge pays with a browser token (a first donation) or a saved card (a monthly one), under the
// charge's external reference as dLocal's order_id, with the charge's statement descriptor.
func (a *Account) Charge(ctx context.Context, ch gateway.Charge) (gateway.Payment, error) {
	switch {
	case ch.ExternalReference == "":
		return gateway.Payment{}, errors.New("dlocal: a charge needs an external reference")
	case (ch.CardID == "") == (ch.Token == ""):
		return gateway.Payment{}, errors.New("dlocal: a charge needs exactly one of card id and token")
	case ch.Amount.Minor <= 0 || ch.Amount.Currency != a.currency:
		return gateway.Payment{}, fmt.Errorf("dlocal: cannot charge %d %s on a %s merchant", ch.Amount.Minor, ch.Amount.Currency, a.currency)
	}
	card := map[string]any{"installments": max(ch.Installments, 1)}
	if ch.Token != "" {
		card["token"] = ch.Token
	} else {
		card["card_id"] = ch.CardID
	}
	if ch.Descriptor != "" {
		card["descriptor"] = ch.Descriptor
	}
	body := map[string]any{"amount": json.Number(ch.Amount.Decimal()), "currency": a.currency, "country": a.country,
		"payment_method_id": "CARD", "payment_method_flow": "DIRECT", "order_id": ch.ExternalReference,
		"description": ch.Description, "card": card, "payer": map[string]string{"email": ch.Email, "document": ch.Document}}
	if ch.CustomerID != "" && ch.Document == "" {
		body["payer"] = payer(ch.CustomerID)
	}
	var out payment
	if err := a.rest.Do(ctx, http.MethodPost, "/payments", nil, body, &out); err != nil {
		return gateway.Payment{}, refusal(gateway.UnknownUnlessRefused(err))
	}
	return out.toGateway(), nil
}

// Payment reads a payment back; errors.Is(err, gateway.ErrNotFound) when there is none.
func (a *Account) Payment(ctx context.Context, id string) (gateway.Payment, error) {
	var out payment
	if err := a.rest.Do(ctx, http.MethodGet, "/payments/"+url.PathEscape(id), nil, nil, &out); err != nil {
		return gateway.Payment{}, err
	}
	return out.toGateway(), nil
}

// FindPayments answers the order's payment (dLocal makes at most one per order_id).
func (a *Account) FindPayments(ctx context.Context, externalReference string) ([]gateway.Payment, error) {
	p, ok, err := a.order(ctx, externalReference)
	if !ok || err != nil {
		return nil, err
	}
	return []gateway.Payment{p.toGateway()}, nil
}

// order reads the order's payment; ok is false when there is none.
func (a *Account) order(ctx context.Context, externalReference string) (_ payment, ok bool, _ error) {
	var out payment
	err := a.rest.Do(ctx, http.MethodGet, "/orders/"+url.PathEscape(externalReference), nil, nil, &out)
	if errors.Is(err, gateway.ErrNotFound) {
		return out, false, nil
	}
	return out, err == nil, err
}

// Refund gives back r.Amount of a payment, or all that is left when it is zero.
func (a *Account) Refund(ctx context.Context, r gateway.RefundRequest) (gateway.Refund, error) {
	body := map[string]any{"payment_id": r.PaymentID}
	if r.Amount.Minor != 0 {
		body["amount"] = json.Number(money.New(r.Amount.Minor, a.currency).Decimal())
	}
	var out struct {
		ID        string      `json:"id"`
		PaymentID string      `json:"payment_id"`
		Amount    json.Number `json:"amount"`
		Created   time.Time   `json:"created_date"`
	}
	if err := a.rest.Do(ctx, http.MethodPost, "/refunds", nil, body, &out); err != nil {
		return gateway.Refund{}, gateway.UnknownUnlessRefused(err)
	}
	amount, _ := money.ParseWire(out.Amount.String(), a.currency)
	return gateway.Refund{ID: out.ID, PaymentID: out.PaymentID, Amount: amount, CreatedAt: out.Created}, nil
}

// methodsTTL is how long the merchant's card brands and range are reused: every public form load
// reads them.
const methodsTTL = time.Minute

type methods struct {
	cards []gateway.CardMethod
	banks []BankMethod // the off-site bank transfers (REDIRECT flow)
}

// paymentMethods is GET /payments-methods: the country's card brands and off-site bank transfers.
func (a *Account) paymentMethods(ctx context.Context) (methods, error) {
	return a.methods.Get(ctx, methodsTTL, a.readPaymentMethods)
}

func (a *Account) readPaymentMethods(ctx context.Context) (methods, error) {
	var out struct {
		Currency string `json:"currency"`
		Methods  []struct {
			ID         string `json:"id"`
			Flow       string `json:"flow"`
			Brand      string `json:"brand"`
			Name       string `json:"name"`
			Type       string `json:"type"`
			BINPattern string `json:"bin_pattern"`
			Exclusion  string `json:"bin_exclusion"`
			Lengths    []int  `json:"lengths"`
			CVVLength  int    `json:"cvv_length"`
			Luhn       bool   `json:"luhn"`
		} `json:"methods"`
	}
	if err := a.rest.Do(ctx, http.MethodGet, "/payments-methods?"+url.Values{"country": {a.country}}.Encode(), nil, nil, &out); err != nil {
		return methods{}, err
	}
	if out.Currency != a.currency {
		return methods{}, fmt.Errorf("dlocal: payment methods in %s for a %s merchant", out.Currency, a.currency)
	}
	var m methods
	for _, c := range out.Methods {
		if c.ID != "CARD" {
			if c.Type == "BANK_TRANSFER" && c.Flow == "REDIRECT" {
				m.banks = append(m.banks, BankMethod{ID: c.ID, Name: c.Name})
			}
			continue
		}
		m.cards = append(m.cards, gateway.CardMethod{ID: c.Brand, Name: c.Name, PaymentType: c.Type, BINPattern: c.BINPattern,
			ExclusionPattern: c.Exclusion, Lengths: c.Lengths, SecurityCodeLength: c.CVVLength, Luhn: c.Luhn})
	}
	return m, nil
}

// PaymentMethods lists the card brands the merchant takes.
func (a *Account) PaymentMethods(ctx context.Context) ([]gateway.CardMethod, error) {
	m, err := a.paymentMethods(ctx)
	return m.cards, err
}

// AmountLimits is the country's local-payment range (donor-and-campaigns §9, LocalRange): ours to
// know, so a form and a charge keep it while the processor does not answer.
func (a *Account) AmountLimits(context.Context) (gateway.AmountLimits, error) {
	lo, hi := LocalRange(a.country)
	unit := money.Unit(a.currency)
	return gateway.AmountLimits{Min: money.New(lo*unit, a.currency), Max: money.New(hi*unit, a.currency)}, nil
}

// localRanges are the local-payment amount ranges per country in major units (donor-and-campaigns §9);
// a country without one (CL's is not stated) takes defaultRange.
var localRanges = map[string][2]int64{"AR": {10, 3000000}, "BR": {5, 15000}, "CO": {5000, 14000000}, "MX": {5, 50000},
	"PE": {2, 11000}, "UY": {5, 110000}}

var defaultRange = [2]int64{1000, 1000000}

// LocalRange is the smallest and largest amount, in major units of the country's currency, a donation
// charged through a local processor in country may have.
func LocalRange(country string) (lo, hi int64) {
	r, ok := localRanges[country]
	if !ok {
		r = defaultRange
	}
	return r[0], r[1]
}

// PaymentMethod finds the brand of a BIN among the merchant's card brands.
func (a *Account) PaymentMethod(ctx context.Context, bin string) (gateway.PaymentMethod, error) {
	cards, err := a.PaymentMethods(ctx)
	if err != nil {
		return gateway.PaymentMethod{}, err
	}
	r, ok := card.NewRules(cards).Detect(bin)
	if !ok {
		return gateway.PaymentMethod{}, gateway.ErrNotFound
	}
	return gateway.PaymentMethod{ID: string(r.Brand), Name: r.Name, PaymentType: r.PaymentType, SecurityCodeLength: r.CVVLength}, nil
}

// keys are the donor-facing messages of dLocal's refusals, by the field they name.
var keys = map[string]gateway.MessageKey{
	"card.number":           gateway.KeyCardNumber,
	"card.cvv":              gateway.KeySecurityCode,
	"card.expiration_month": gateway.KeyCheckExpiry,
	"card.holder_name":      gateway.KeyInvalidName,
	"payer.document":        gateway.KeyCheckDocument,
}

// refusal names a dLocal refusal's message for the donor from the param it names.
func refusal(err error) error {
	var gerr *gateway.Error
	if errors.As(err, &gerr) && len(gerr.Causes) > 0 {
		if k, ok := keys[strings.TrimSpace(gerr.Causes[0].Description)]; ok {
			gerr.Key = k
		}
	}
	return err
}

// Beneficiary is the bank account a payout goes to. Account is the full number: never logged.
type Beneficiary struct {
	Name, Document, BankCode, Account string
}

// PayoutRequest pays Amount from the merchant's balance to a bank account; ExternalID is ours and
// dLocal's idempotency key: the same external id answers its first payout.
type PayoutRequest struct {
	ExternalID  string
	Amount      money.Amount
	Beneficiary Beneficiary
}

// Payout is dLocal's payout.
type Payout struct {
	ID         string
	ExternalID string
	Amount     money.Amount
	Status     string // PAID, PENDING, REJECTED, CANCELLED
}

type wirePayout struct {
	ID         string      `json:"id"`
	ExternalID string      `json:"external_id"`
	Amount     json.Number `json:"amount"`
	Currency   string      `json:"currency"`
	Status     string      `json:"status"`
}

func (w wirePayout) payout() Payout {
	amount, _ := money.ParseWire(w.Amount.String(), w.Currency)
	return Payout{ID: w.ID, ExternalID: w.ExternalID, Amount: amount, Status: w.Status}
}

// Payout asks for a payout (POST /payouts). A timeout or 5xx is a *gateway.UnknownOutcomeError:
// read it back with PayoutByExternalID, or ask again with the same external id.
func (a *Account) Payout(ctx context.Context, r PayoutRequest) (Payout, error) {
	if r.ExternalID == "" || r.Amount.Minor <= 0 || r.Amount.Currency != a.currency {
		return Payout{}, fmt.Errorf("dlocal: cannot pay out %d %s under %q from a %s merchant", r.Amount.Minor, r.Amount.Currency, r.ExternalID, a.currency)
	}
	b := r.Beneficiary
	body := map[string]any{"external_id": r.ExternalID, "amount": json.Number(r.Amount.Decimal()), "currency": a.currency,
		"country": a.country, "beneficiary": map[string]string{"name": b.Name, "document": b.Document, "bank_code": b.BankCode,
			"account": b.Account}}
	var out wirePayout
	if err := a.rest.Do(ctx, http.MethodPost, "/payouts", nil, body, &out); err != nil {
		return Payout{}, gateway.UnknownUnlessRefused(err)
	}
	return out.payout(), nil
}

// PayoutByExternalID reads back the payout made under our external id; errors.Is(err,
// gateway.ErrNotFound) when there is none.
func (a *Account) PayoutByExternalID(ctx context.Context, externalID string) (Payout, error) {
	var out wirePayout
	if err := a.rest.Do(ctx, http.MethodGet, "/payouts/"+url.PathEscape(externalID), nil, nil, &out); err != nil {
		return Payout{}, err
	}
	return out.payout(), nil
}
