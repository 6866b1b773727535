// Package cvault calls the card-vault tokeniser. Production browsers call it
// directly so card data never reaches Aporta; in Go it serves tests and the
// sandbox, which is why it takes a PAN at all.
package cvault

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/aporta/aporta/internal/gateway/internal/rest"
)

// Config is one vault account.
type Config struct {
	BaseURL    string
	Key        string        // the vault's public key, sent in every body
	Timeout    time.Duration // per request; 20s when zero
	HTTPClient *http.Client  // http.DefaultClient when nil
}

// Client tokenises cards at the vault.
type Client struct {
	rest *rest.Client
	key  string
}

// New validates cfg and returns a client.
func New(cfg Config) (*Client, error) {
	if cfg.Key == "" {
		return nil, errors.New("cvault: key is required")
	}
	rc, err := rest.New(cfg.BaseURL, cfg.HTTPClient, cfg.Timeout, nil)
	if err != nil {
		return nil, fmt.Errorf("cvault: %w", err)
	}
	return &Client{rest: rc, key: cfg.Key}, nil
}

// Card is what the donor typed.
type Card struct {
	CountryCode     string // ISO 3166-1 alpha-2: AR, CL…
	HolderName      string
	PAN             string
	ExpirationMonth int
	ExpirationYear  int    // four digits
	CVV             string // optional: some brands are tokenised without it
}

// Token is a temporary card token.
type Token struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
}

type request struct {
	CountryCode     string `json:"country_code"`
	HolderName      string `json:"holder_name"`
	Key             string `json:"key"`
	PAN             string `json:"pan"`
	ExpirationMonth int    `json:"expiration_month"`
	ExpirationYear  int    `json:"expiration_year"`
	CVV             string `json:"cvv,omitempty"`
}

// Tokenize exchanges card data for a temporary token. A refusal is a
// *gateway.Error whose Message is the vault's text, shown to the donor as is.
func (c *Client) Tokenize(ctx context.Context, card Card) (Token, error) {
	body := request{
		CountryCode:     card.CountryCode,
		HolderName:      card.HolderName,
		Key:             c.key,
		PAN:             card.PAN,
		ExpirationMonth: card.ExpirationMonth,
		ExpirationYear:  card.ExpirationYear,
		CVV:             card.CVV,
	}
	var out Token
	if err := c.rest.Do(ctx, http.MethodPost, "/cvault/credit-card/temporal", nil, body, &out); err != nil {
		return Token{}, err
	}
	return out, nil
}
