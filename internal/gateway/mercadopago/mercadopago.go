// Package mercadopago is the gateway adapter for MercadoPago's REST API
// (api.mercadopago.com), also served by the local sandbox.
package mercadopago

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/internal/rest"
)

// DefaultBaseURL is MercadoPago's production API.
const DefaultBaseURL = "https://api.mercadopago.com"

// Config is one MercadoPago account.
type Config struct {
	BaseURL     string // DefaultBaseURL when empty
	AccessToken string // the account's private access token
	// Currency is the account's currency: MercadoPago takes it from the
	// account's country, not from the request, so charges in another are refused here.
	Currency   string
	Timeout    time.Duration // per request; 20s when zero
	HTTPClient *http.Client  // http.DefaultClient when nil
	// NotificationURL is where MercadoPago posts a payment's later changes (refunds, chargebacks);
	// set on every charge. Empty: none.
	NotificationURL string
}

// Client talks to one MercadoPago account.
type Client struct {
	rest     *rest.Client
	currency string
	limits   gateway.Cached[gateway.AmountLimits]
	account  [sha256.Size]byte // identifies the account in caches shared across clients
	notify   string
}

var _ gateway.Account = (*Client)(nil)

// New validates cfg and returns a client.
func New(cfg Config) (*Client, error) {
	if cfg.AccessToken == "" {
		return nil, errors.New("mercadopago: access token is required")
	}
	if len(cfg.Currency) != 3 {
		return nil, fmt.Errorf("mercadopago: currency %q is not an ISO code", cfg.Currency)
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	rc, err := rest.New(cfg.BaseURL, cfg.HTTPClient, cfg.Timeout, http.Header{"Authorization": {"Bearer " + cfg.AccessToken}})
	if err != nil {
		return nil, fmt.Errorf("mercadopago: %w", err)
	}
	account := sha256.Sum256([]byte(cfg.BaseURL + "\x00" + cfg.AccessToken))
	return &Client{rest: rc, currency: cfg.Currency, account: account, notify: cfg.NotificationURL}, nil
}

// EnsureCustomer finds the customer by e-mail or creates it. Two donations from
// the same donor may race; the loser's "already exists" answer is resolved by
// searching again.
func (c *Client) EnsureCustomer(ctx context.Context, in gateway.Customer) (gateway.Customer, error) {
	found, err := c.searchCustomer(ctx, in.Email)
	if err == nil || !errors.Is(err, gateway.ErrNotFound) {
		return found, err
	}
	body := customer{Email: in.Email, FirstName: in.FirstName, LastName: in.LastName}
	if in.IDNumber != "" {
		body.Identification = &identification{Type: in.IDType, Number: in.IDNumber}
	}
	var out customer
	err = c.rest.Do(ctx, http.MethodPost, "/v1/customers", nil, body, &out)
	var gerr *gateway.Error
	if errors.As(err, &gerr) && slices.ContainsFunc(gerr.Causes, func(c gateway.Cause) bool { return c.Code == causeCustomerExists }) {
		return c.searchCustomer(ctx, in.Email)
	}
	if err != nil {
		return gateway.Customer{}, err
	}
	return out.toGateway(), nil
}

func (c *Client) searchCustomer(ctx context.Context, email string) (gateway.Customer, error) {
	var page struct {
		Results []customer `json:"results"`
	}
	if err := c.rest.Do(ctx, http.MethodGet, "/v1/customers/search?"+url.Values{"email": {email}}.Encode(), nil, nil, &page); err != nil {
		return gateway.Customer{}, err
	}
	if len(page.Results) == 0 {
		return gateway.Customer{}, gateway.ErrNotFound
	}
	return page.Results[0].toGateway(), nil
}

// SaveCard stores the card behind a browser token on the customer.
func (c *Client) SaveCard(ctx context.Context, customerID, token string) (gateway.Card, error) {
	var out card
	path := "/v1/customers/" + url.PathEscape(customerID) + "/cards"
	if err := c.rest.Do(ctx, http.MethodPost, path, nil, map[string]string{"token": token}, &out); err != nil {
		return gateway.Card{}, err
	}
	return out.toGateway(), nil
}

// Charge creates a payment. A saved card is charged through a token minted for
// this charge, as MercadoPago tokens are single-use.
func (c *Client) Charge(ctx context.Context, ch gateway.Charge) (gateway.Payment, error) {
	if err := c.checkCharge(ch); err != nil {
		return gateway.Payment{}, err
	}
	token := ch.Token
	if ch.CardID != "" {
		var t struct {
			ID string `json:"id"`
		}
		body := map[string]string{"card_id": ch.CardID, "customer_id": ch.CustomerID}
		if err := c.rest.Do(ctx, http.MethodPost, "/v1/card_tokens", nil, body, &t); err != nil {
			return gateway.Payment{}, fmt.Errorf("mercadopago: token for card %s: %w", ch.CardID, err)
		}
		token = t.ID
	}
	body := paymentRequest{
		TransactionAmount: json.Number(ch.Amount.Decimal()),
		Token:             token,
		Description:       ch.Description,
		Installments:      max(ch.Installments, 1),
		PaymentMethodID:   brandToMP(ch.PaymentMethodID),
		Payer:             payer{Email: ch.Email},
		ExternalReference: ch.ExternalReference,
		Metadata:          ch.Metadata,
		NotificationURL:   c.notify,
	}
	if ch.CustomerID != "" {
		body.Payer.Type, body.Payer.ID = "customer", ch.CustomerID
	}
	var out payment
	err := c.rest.Do(ctx, http.MethodPost, "/v1/payments", idempotent(ch.IdempotencyKey), body, &out)
	if err != nil {
		return gateway.Payment{}, gateway.UnknownUnlessRefused(err)
	}
	return out.toGateway()
}

func (c *Client) checkCharge(ch gateway.Charge) error {
	switch {
	case ch.IdempotencyKey == "" || ch.ExternalReference == "":
		return errors.New("mercadopago: a charge needs an idempotency key and an external reference")
	case (ch.CardID == "") == (ch.Token == ""):
		return errors.New("mercadopago: a charge needs exactly one of card id and token")
	case ch.Amount.Minor <= 0 || ch.Amount.Currency != c.currency:
		return fmt.Errorf("mercadopago: cannot charge %d %s on a %s account", ch.Amount.Minor, ch.Amount.Currency, c.currency)
	}
	return nil
}

// Payment reads a payment back; errors.Is(err, gateway.ErrNotFound) when there is none.
func (c *Client) Payment(ctx context.Context, id string) (gateway.Payment, error) {
	var out payment
	if err := c.rest.Do(ctx, http.MethodGet, "/v1/payments/"+url.PathEscape(id), nil, nil, &out); err != nil {
		return gateway.Payment{}, err
	}
	return out.toGateway()
}

// FindPayments lists the payments for an external reference, newest first.
func (c *Client) FindPayments(ctx context.Context, externalReference string) ([]gateway.Payment, error) {
	q := url.Values{"external_reference": {externalReference}, "sort": {"date_created"}, "criteria": {"desc"}}
	var page struct {
		Results []payment `json:"results"`
	}
	if err := c.rest.Do(ctx, http.MethodGet, "/v1/payments/search?"+q.Encode(), nil, nil, &page); err != nil {
		return nil, err
	}
	out := make([]gateway.Payment, 0, len(page.Results))
	for _, p := range page.Results {
		gp, err := p.toGateway()
		if err != nil {
			return nil, err
		}
		out = append(out, gp)
	}
	return out, nil
}

// Refund gives back r.Amount, or the whole remainder when it is zero.
func (c *Client) Refund(ctx context.Context, r gateway.RefundRequest) (gateway.Refund, error) {
	if r.IdempotencyKey == "" {
		return gateway.Refund{}, errors.New("mercadopago: a refund needs an idempotency key")
	}
	body := map[string]any{}
	if r.Amount.Minor != 0 {
		body["amount"] = json.Number(r.Amount.Decimal())
	}
	var out refund
	path := "/v1/payments/" + url.PathEscape(r.PaymentID) + "/refunds"
	if err := c.rest.Do(ctx, http.MethodPost, path, idempotent(r.IdempotencyKey), body, &out); err != nil {
		return gateway.Refund{}, gateway.UnknownUnlessRefused(err)
	}
	return out.toGateway(c.currency)
}

// PaymentMethod finds the card brand for a BIN (the first 6 to 8 digits).
func (c *Client) PaymentMethod(ctx context.Context, bin string) (gateway.PaymentMethod, error) {
	var page struct {
		Results []paymentMethod `json:"results"`
	}
	if err := c.rest.Do(ctx, http.MethodGet, "/v1/payment_methods/search?"+url.Values{"bins": {bin}}.Encode(), nil, nil, &page); err != nil {
		return gateway.PaymentMethod{}, err
	}
	if len(page.Results) == 0 {
		return gateway.PaymentMethod{}, gateway.ErrNotFound
	}
	return page.Results[0].toGateway(), nil
}

func idempotent(key string) http.Header {
	return http.Header{"X-Idempotency-Key": {key}}
}
