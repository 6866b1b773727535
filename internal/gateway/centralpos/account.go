package centralpos

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/internal/rest"
	"github.com/aporta/aporta/internal/money"
)

// Account charges through one linked merchant: every call carries the platform's partner key and
// the merchant's API key. Amounts travel in minor units; a saved card is an instrument charged
// directly; money-moving calls carry an Idempotency-Key, which CentralPos answers with the first
// result however often it is repeated (and refuses for another request).
type Account struct {
	rest     *rest.Client
	currency string
	brands   gateway.Cached[brands]
}

var _ gateway.Account = (*Account)(nil)

// NewAccount is the merchant whose API key a connection holds; currency is the merchant's
// (CentralPos charges only in its country's currency).
func NewAccount(cfg Config, apiKey, currency string) (*Account, error) {
	switch {
	case cfg.PartnerKey == "" || apiKey == "":
		return nil, errors.New("centralpos: partner key and API key are required")
	case len(currency) != 3:
		return nil, fmt.Errorf("centralpos: currency %q is not an ISO code", currency)
	}
	rc, err := rest.New(cfg.BaseURL, cfg.HTTPClient, cfg.Timeout,
		http.Header{"X-Partner-Key": {cfg.PartnerKey}, "Authorization": {"Bearer " + apiKey}})
	if err != nil {
		return nil, fmt.Errorf("centralpos: %w", err)
	}
	return &Account{rest: rc, currency: currency}, nil
}

// wireCard is a card as CentralPos describes it.
type wireCard struct {
	Brand      string `json:"brand"`
	Funding    string `json:"funding"`
	BIN        string `json:"bin"`
	Last4      string `json:"last4"`
	ExpMonth   int    `json:"exp_month"`
	ExpYear    int    `json:"exp_year"`
	HolderName string `json:"holder_name"`
}

// brandOf is Aporta's brand (internal/card) for CentralPos's network and funding: a Visa debit
// card is "debvisa", as the form and the rest of Aporta name it.
func brandOf(brand, funding string) string {
	if funding == "debit" {
		switch brand {
		case "visa", "elo":
			return "deb" + brand
		case "mastercard":
			return "debmaster"
		}
	}
	return brand
}

// EnsureCustomer returns the merchant's customer with this e-mail: CentralPos answers the existing
// one rather than refusing a second.
func (a *Account) EnsureCustomer(ctx context.Context, c gateway.Customer) (gateway.Customer, error) {
	body := map[string]any{"email": c.Email, "name": trimJoin(c.FirstName, c.LastName)}
	if c.IDNumber != "" {
		body["document"] = map[string]string{"type": c.IDType, "number": c.IDNumber}
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := a.rest.Do(ctx, http.MethodPost, "/customers", nil, body, &out); err != nil {
		return gateway.Customer{}, refusal(err)
	}
	c.ID = out.ID
	return c, nil
}

func trimJoin(first, last string) string {
	if first == "" || last == "" {
		return first + last
	}
	return first + " " + last
}

// SaveCard turns a browser token into an instrument of the customer (the same card saved again is
// the instrument already saved).
func (a *Account) SaveCard(ctx context.Context, customerID, token string) (gateway.Card, error) {
	var out struct {
		ID       string   `json:"id"`
		Customer string   `json:"customer"`
		Card     wireCard `json:"card"`
	}
	path := "/customers/" + url.PathEscape(customerID) + "/instruments"
	if err := a.rest.Do(ctx, http.MethodPost, path, nil, map[string]string{"token": token}, &out); err != nil {
		return gateway.Card{}, refusal(err)
	}
	c := out.Card
	return gateway.Card{ID: out.ID, CustomerID: out.Customer, PaymentMethodID: brandOf(c.Brand, c.Funding), FirstSix: c.BIN,
		LastFour: c.Last4, ExpirationMonth: c.ExpMonth, ExpirationYear: c.ExpYear, HolderName: c.HolderName}, nil
}

// charge is CentralPos's charge.
type charge struct {
	ID          string    `json:"id"`
	State       string    `json:"state"`
	DeclineCode *string   `json:"decline_code"`
	Amount      int64     `json:"amount"`
	Currency    string    `json:"currency"`
	Reference   string    `json:"reference"`
	CreatedAt   time.Time `json:"created_at"`
}

var states = map[string]gateway.Status{
	"succeeded": gateway.StatusApproved, "declined": gateway.StatusRejected, "processing": gateway.StatusInProcess,
	"refunded": gateway.StatusRefunded,
}

// pausing are the declines that will fail the same way next month: collection pauses the donation
// and asks the donor for another card. The others (insufficient funds, call the issuer, do not
// honour…) are worth retrying.
var pausing = map[string]gateway.PausedReason{
	"card_disabled":     gateway.PausedCardCancelled,
	"fraud_suspected":   gateway.PausedHighRisk,
	"stolen_card":       gateway.PausedStolenIssue,
	"expired_card":      gateway.PausedCardExpired,
	"incorrect_cvc":     gateway.PausedMissingCode,
	"invalid_card_data": gateway.PausedMethodInvalid,
}

func (c charge) toGateway() gateway.Payment {
	status, ok := states[c.State]
	if !ok {
		status = gateway.StatusInProcess // a state added later: not final, read it again later
	}
	p := gateway.Payment{ID: c.ID, Status: status, StatusDetail: c.State, Amount: money.New(c.Amount, c.Currency),
		ExternalReference: c.Reference, CreatedAt: c.CreatedAt}
	if c.DeclineCode != nil {
		p.StatusDetail = *c.DeclineCode
		if status == gateway.StatusRejected {
			p.PausedReason = pausing[*c.DeclineCode]
		}
	}
	return p
}

// Charge charges a browser token (a first donation) or a saved instrument (a monthly one).
func (a *Account) Charge(ctx context.Context, ch gateway.Charge) (gateway.Payment, error) {
	switch {
	case ch.IdempotencyKey == "" || ch.ExternalReference == "":
		return gateway.Payment{}, errors.New("centralpos: a charge needs an idempotency key and an external reference")
	case (ch.CardID == "") == (ch.Token == ""):
		return gateway.Payment{}, errors.New("centralpos: a charge needs exactly one of card id and token")
	case ch.Amount.Minor <= 0 || ch.Amount.Currency != a.currency:
		return gateway.Payment{}, fmt.Errorf("centralpos: cannot charge %d %s on a %s merchant", ch.Amount.Minor, ch.Amount.Currency, a.currency)
	}
	source := map[string]string{"token": ch.Token}
	if ch.CardID != "" {
		source = map[string]string{"instrument": ch.CardID}
	}
	body := map[string]any{"amount": ch.Amount.Minor, "currency": ch.Amount.Currency, "source": source,
		"reference": ch.ExternalReference, "description": ch.Description, "installments": max(ch.Installments, 1),
		"metadata": ch.Metadata}
	if ch.CustomerID != "" {
		body["customer"] = ch.CustomerID
	}
	var out charge
	if err := a.rest.Do(ctx, http.MethodPost, "/charges", idempotent(ch.IdempotencyKey), body, &out); err != nil {
		return gateway.Payment{}, refusal(gateway.UnknownUnlessRefused(err))
	}
	return out.toGateway(), nil
}

// Payment reads a charge back; errors.Is(err, gateway.ErrNotFound) when there is none.
func (a *Account) Payment(ctx context.Context, id string) (gateway.Payment, error) {
	var out charge
	if err := a.rest.Do(ctx, http.MethodGet, "/charges/"+url.PathEscape(id), nil, nil, &out); err != nil {
		return gateway.Payment{}, err
	}
	return out.toGateway(), nil
}

// FindPayments lists the charges made with a reference, newest first.
func (a *Account) FindPayments(ctx context.Context, externalReference string) ([]gateway.Payment, error) {
	var page struct {
		Data []charge `json:"data"`
	}
	if err := a.rest.Do(ctx, http.MethodGet, "/charges?"+url.Values{"reference": {externalReference}}.Encode(), nil, nil, &page); err != nil {
		return nil, err
	}
	out := make([]gateway.Payment, len(page.Data))
	for i, c := range page.Data {
		out[i] = c.toGateway()
	}
	return out, nil
}

// Refund gives back r.Amount of a charge, or all that is left when it is zero.
func (a *Account) Refund(ctx context.Context, r gateway.RefundRequest) (gateway.Refund, error) {
	if r.IdempotencyKey == "" {
		return gateway.Refund{}, errors.New("centralpos: a refund needs an idempotency key")
	}
	body := map[string]int64{}
	if r.Amount.Minor != 0 {
		body["amount"] = r.Amount.Minor
	}
	var out struct {
		ID        string    `json:"id"`
		Charge    string    `json:"charge"`
		Amount    int64     `json:"amount"`
		CreatedAt time.Time `json:"created_at"`
	}
	path := "/charges/" + url.PathEscape(r.PaymentID) + "/refunds"
	if err := a.rest.Do(ctx, http.MethodPost, path, idempotent(r.IdempotencyKey), body, &out); err != nil {
		return gateway.Refund{}, refusal(gateway.UnknownUnlessRefused(err))
	}
	return gateway.Refund{ID: out.ID, PaymentID: out.Charge, Amount: money.New(out.Amount, a.currency), CreatedAt: out.CreatedAt}, nil
}

// PaymentMethod finds the brand of a BIN.
func (a *Account) PaymentMethod(ctx context.Context, bin string) (gateway.PaymentMethod, error) {
	var out struct {
		Brand   string `json:"brand"`
		Funding string `json:"funding"`
		Name    string `json:"name"`
	}
	if err := a.rest.Do(ctx, http.MethodGet, "/bins/"+url.PathEscape(bin), nil, nil, &out); err != nil {
		return gateway.PaymentMethod{}, err
	}
	return gateway.PaymentMethod{ID: brandOf(out.Brand, out.Funding), Name: out.Name, PaymentType: out.Funding + "_card"}, nil
}

// brandsTTL is how long the merchant's brands and limits are reused: every public form load reads
// them, and a merchant's contract changes rarely.
const brandsTTL = time.Minute

// brands is GET /card_brands: the merchant's card brands with their rules, and its amount limits.
type brands struct {
	methods []gateway.CardMethod
	limits  gateway.AmountLimits
}

func (a *Account) cardBrands(ctx context.Context) (brands, error) {
	return a.brands.Get(ctx, brandsTTL, a.readCardBrands)
}

func (a *Account) readCardBrands(ctx context.Context) (brands, error) {
	var out struct {
		Currency string `json:"currency"`
		Min      int64  `json:"min_amount"`
		Max      int64  `json:"max_amount"`
		Brands   []struct {
			Brand        string `json:"brand"`
			Funding      string `json:"funding"`
			Name         string `json:"name"`
			BINPattern   string `json:"bin_pattern"`
			BINExclusion string `json:"bin_exclusion"`
			Lengths      []int  `json:"lengths"`
			CVCLength    int    `json:"cvc_length"`
			Luhn         bool   `json:"luhn"`
		} `json:"brands"`
	}
	if err := a.rest.Do(ctx, http.MethodGet, "/card_brands", nil, nil, &out); err != nil {
		return brands{}, err
	}
	if out.Currency != a.currency || out.Min <= 0 || out.Max < out.Min {
		return brands{}, fmt.Errorf("centralpos: card brands in %s from %d to %d for a %s merchant", out.Currency, out.Min, out.Max, a.currency)
	}
	b := brands{limits: gateway.AmountLimits{Min: money.New(out.Min, a.currency), Max: money.New(out.Max, a.currency)}}
	for _, m := range out.Brands {
		b.methods = append(b.methods, gateway.CardMethod{ID: brandOf(m.Brand, m.Funding), Name: m.Name, PaymentType: m.Funding + "_card",
			BINPattern: m.BINPattern, ExclusionPattern: m.BINExclusion, Lengths: m.Lengths, SecurityCodeLength: m.CVCLength, Luhn: m.Luhn})
	}
	return b, nil
}

// PaymentMethods lists the card brands the merchant takes, in CentralPos's order.
func (a *Account) PaymentMethods(ctx context.Context) ([]gateway.CardMethod, error) {
	b, err := a.cardBrands(ctx)
	return b.methods, err
}

// AmountLimits are the smallest and largest charge the merchant takes.
func (a *Account) AmountLimits(ctx context.Context) (gateway.AmountLimits, error) {
	b, err := a.cardBrands(ctx)
	return b.limits, err
}

func idempotent(key string) http.Header { return http.Header{"Idempotency-Key": {key}} }

// keys are the donor-facing messages of CentralPos's refusals.
var keys = map[string]gateway.MessageKey{
	"invalid_number":      gateway.KeyCardNumber,
	"invalid_cvc":         gateway.KeySecurityCode,
	"invalid_expiry":      gateway.KeyCheckExpiry,
	"invalid_holder_name": gateway.KeyInvalidName,
}

// refusal names a CentralPos refusal's message for the donor.
func refusal(err error) error {
	var gerr *gateway.Error
	if errors.As(err, &gerr) && len(gerr.Causes) > 0 {
		if k, ok := keys[gerr.Causes[0].Code]; ok {
			gerr.Key = k
		}
	}
	return err
}
