package mercadopago

import (
	"context"
	"crypto/sha256"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/aporta/aporta/internal/gateway"
)

// methodsTTL is how long an account's card methods are reused: every public form load reads
// them, and MercadoPago changes an account's brands rarely. A failure is remembered for
// methodsRetry, so forms load at once on the fallback table while the gateway is down.
const (
	methodsTTL   = time.Hour
	methodsRetry = time.Minute
)

// cardTypes are the payment types paid with a card number.
var cardTypes = []string{"credit_card", "debit_card", "prepaid_card"}

// methodsCache keeps each account's card methods for methodsTTL. It is keyed by a hash of the API
// address and access token, so clients built afresh for the same account share it and no token
// is kept in it.
var methodsCache = struct {
	sync.Mutex
	entries map[[sha256.Size]byte]methodsEntry
}{entries: map[[sha256.Size]byte]methodsEntry{}}

type methodsEntry struct {
	methods []gateway.CardMethod
	err     error
	expires time.Time
}

// PaymentMethods lists the card brands the account takes (active card methods of GET
// /v1/payment_methods) with their rules, in MercadoPago's order. Answers are cached per account
// for an hour, failures for a minute.
func (c *Client) PaymentMethods(ctx context.Context) ([]gateway.CardMethod, error) {
	methodsCache.Lock()
	e, ok := methodsCache.entries[c.account]
	methodsCache.Unlock()
	if ok && time.Now().Before(e.expires) {
		return slices.Clone(e.methods), e.err
	}
	var methods []paymentMethod
	if err := c.rest.Do(ctx, http.MethodGet, "/v1/payment_methods", nil, nil, &methods); err != nil {
		if ctx.Err() == nil { // the gateway's failure, not the caller giving up
			methodsCache.Lock()
			methodsCache.entries[c.account] = methodsEntry{err: err, expires: time.Now().Add(methodsRetry)}
			methodsCache.Unlock()
		}
		return nil, err
	}
	var out []gateway.CardMethod
	for _, m := range methods {
		if m.Status == "active" && slices.Contains(cardTypes, m.PaymentTypeID) {
			out = append(out, m.cardMethods()...)
		}
	}
	methodsCache.Lock()
	methodsCache.entries[c.account] = methodsEntry{methods: out, expires: time.Now().Add(methodsTTL)}
	methodsCache.Unlock()
	return slices.Clone(out), nil
}
