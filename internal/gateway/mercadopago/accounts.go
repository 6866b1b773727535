package mercadopago

import (
	"errors"
	"sync"
)

// Accounts hands out one client per currency for a single MercadoPago-compatible account (the
// sandbox in dev and test). MercadoPago fixes a client's currency by the account's country, so a
// platform serving seven countries needs one client each; they are built once and shared.
// Organisations do not store their own gateway credentials yet; when they do, a per-organisation
// lookup replaces this.
type Accounts struct {
	cfg     Config
	mu      sync.Mutex
	clients map[string]*Client
}

// NewAccounts keeps cfg (its Currency is ignored) for the clients it builds.
func NewAccounts(cfg Config) *Accounts {
	return &Accounts{cfg: cfg, clients: map[string]*Client{}}
}

// For returns the client for a currency.
func (a *Accounts) For(currency string) (*Client, error) {
	if currency == "" {
		return nil, errors.New("mercadopago: no currency")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.clients[currency]; ok {
		return c, nil
	}
	cfg := a.cfg
	cfg.Currency = currency
	c, err := New(cfg)
	if err != nil {
		return nil, err
	}
	a.clients[currency] = c
	return c, nil
}
