// Package centralpos connects organisations' CentralPos accounts: the account holder copies an
// authorization code from CentralPos's back office, and the platform links it with its partner
// key, getting the merchant's API keys (POST /links). Unlinking (DELETE /links/{merchant}) ends
// the connection at CentralPos. The sandbox gateway serves the same API under /centralpos/v1.
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
)

// Config is the platform's CentralPos partnership.
type Config struct {
	BaseURL    string // the API's base, e.g. https://api.centralpos.example/v1
	PartnerKey string
	Timeout    time.Duration // per request; 20s when zero
	HTTPClient *http.Client  // http.DefaultClient when nil
}

// Client implements gateway.CodeConnector.
type Client struct {
	rest       *rest.Client
	partnerKey string
}

var _ gateway.CodeConnector = (*Client)(nil)

// New validates cfg.
func New(cfg Config) (*Client, error) {
	if cfg.PartnerKey == "" {
		return nil, errors.New("centralpos: partner key is required")
	}
	rc, err := rest.New(cfg.BaseURL, cfg.HTTPClient, cfg.Timeout, nil)
	if err != nil {
		return nil, fmt.Errorf("centralpos: %w", err)
	}
	return &Client{rest: rc, partnerKey: cfg.PartnerKey}, nil
}

// Connect links the merchant whose authorization code this is. A code CentralPos refuses
// (unknown, used or expired) is gateway.ErrInvalidGrant.
func (c *Client) Connect(ctx context.Context, code string) (gateway.Credentials, error) {
	var out struct {
		Merchant struct {
			ID        string `json:"id"`
			LegalName string `json:"legal_name"`
			Country   string `json:"country"`
		} `json:"merchant"`
		Credentials struct {
			APIKey         string `json:"api_key"`
			PublishableKey string `json:"publishable_key"`
		} `json:"credentials"`
		Environment string `json:"environment"`
	}
	err := c.rest.Do(ctx, http.MethodPost, "/links", http.Header{"X-Partner-Key": {c.partnerKey}},
		map[string]string{"authorization_code": code}, &out)
	var gerr *gateway.Error
	switch {
	case errors.As(err, &gerr) && gerr.Status == http.StatusUnprocessableEntity:
		return gateway.Credentials{}, fmt.Errorf("centralpos: link: %w", gateway.ErrInvalidGrant)
	case err != nil:
		return gateway.Credentials{}, fmt.Errorf("centralpos: link: %w", err)
	case out.Merchant.ID == "" || out.Credentials.APIKey == "":
		return gateway.Credentials{}, errors.New("centralpos: link: an answer without merchant or api_key")
	}
	return gateway.Credentials{
		AccessToken: out.Credentials.APIKey, PublicKey: out.Credentials.PublishableKey,
		AccountID: out.Merchant.ID, AccountName: out.Merchant.LegalName, Country: out.Merchant.Country,
		LiveMode: out.Environment == "live",
	}, nil
}

// Revoke unlinks the merchant with its own API key. A link CentralPos no longer knows is
// already gone: not an error.
func (c *Client) Revoke(ctx context.Context, cr gateway.Credentials) error {
	err := c.rest.Do(ctx, http.MethodDelete, "/links/"+url.PathEscape(cr.AccountID), http.Header{"Authorization": {"Bearer " + cr.AccessToken}}, nil, nil)
	var gerr *gateway.Error
	if errors.As(err, &gerr) && gerr.Status == http.StatusNotFound {
		return nil
	}
	if err != nil {
		return fmt.Errorf("centralpos: unlink: %w", err)
	}
	return nil
}
