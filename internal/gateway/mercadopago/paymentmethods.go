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
// them, and MercadoPago changes an account's brands rarely.
const methodsTTL = time.Hour

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
	expires time.Time
}

// PaymentMethods lists the card brands the account takes (active card methods of GET
// /v1/payment_methods) with their rules, in MercadoPago's order. Answers are cached per account
// for an hour; failures are not, so the next call asks again.
func (c *Client) PaymentMethods(ctx context.Context) ([]gateway.CardMethod, error) {
	methodsCache.Lock()
	e, ok := methodsCache.entries[c.account]
	methodsCache.Unlock()
	if ok && time.Now().Before(e.expires) {
		return slices.Clone(e.methods), nil
	}
	var methods []paymentMethod
	if err := c.rest.Do(ctx, http.MethodGet, "/v1/payment_methods", nil, nil, &methods); err != nil {
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
