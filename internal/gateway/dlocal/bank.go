package dlocal

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/aporta/aporta/internal/gateway"
)

// BankMethod is an off-site bank transfer the merchant's country offers (dLocal's REDIRECT flow, e.g.
// PSE in Colombia): the payer approves the payment at their bank's site.
type BankMethod struct {
	ID   string // dLocal's payment_method_id ("PC": PSE)
	Name string
}

// BankMethod is the merchant's off-site bank transfer; ok is false when its country has none.
func (a *Account) BankMethod(ctx context.Context) (_ BankMethod, ok bool, _ error) {
	m, err := a.paymentMethods(ctx)
	if err != nil || len(m.banks) == 0 {
		return BankMethod{}, false, err
	}
	return m.banks[0], true, nil
}

// Person types of a bank transfer's payer, as dLocal names them (payer.user_type).
var userTypes = map[string]string{"natural": "NATURAL", "legal": "JURIDICAL"}

// BankPayer is who pays a bank transfer, at which bank of the merchant's country.
type BankPayer struct {
	Name, Email            string
	Document, DocumentType string
	PersonType             string // natural, legal
	Bank                   string // the bank's code (banks.code of the country)
}

// BankTransfer makes one off-site bank transfer through the merchant (charge.Gateway): Charge creates
// the payment, PENDING until the payer approves it at RedirectURL; dLocal then notifies NotifyURL
// and sends the payer back to ReturnURL.
type BankTransfer struct {
	Account              *Account
	Method               BankMethod
	Payer                BankPayer
	NotifyURL, ReturnURL string

	mu                  sync.Mutex
	redirect, paymentID string
}

// RedirectURL is where the payer approves the payment the transfer made or found ("" before).
func (b *BankTransfer) RedirectURL() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.redirect
}

// PaymentID is the payment the transfer made or found ("" before).
func (b *BankTransfer) PaymentID() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.paymentID
}

func (b *BankTransfer) saw(p payment) gateway.Payment {
	b.mu.Lock()
	b.paymentID = p.ID
	if p.RedirectURL != "" {
		b.redirect = p.RedirectURL
	}
	b.mu.Unlock()
	return p.toGateway()
}

// Charge creates the payment under the charge's external reference as the order_id (dLocal answers a
// repeated order with its first payment).
func (b *BankTransfer) Charge(ctx context.Context, ch gateway.Charge) (gateway.Payment, error) {
	a := b.Account
	userType, ok := userTypes[b.Payer.PersonType]
	switch {
	case ch.ExternalReference == "":
		return gateway.Payment{}, errors.New("dlocal: a bank transfer needs an external reference")
	case !ok || b.Payer.Bank == "" || b.Payer.Document == "":
		return gateway.Payment{}, errors.New("dlocal: a bank transfer needs the payer's bank, document and person type")
	case ch.Amount.Minor <= 0 || ch.Amount.Currency != a.currency:
		return gateway.Payment{}, fmt.Errorf("dlocal: cannot charge %d %s on a %s merchant", ch.Amount.Minor, ch.Amount.Currency, a.currency)
	}
	body := map[string]any{"amount": json.Number(ch.Amount.Decimal()), "currency": a.currency, "country": a.country,
		"payment_method_id": b.Method.ID, "payment_method_flow": "REDIRECT", "order_id": ch.ExternalReference,
		"description": ch.Description, "notification_url": b.NotifyURL, "callback_url": b.ReturnURL,
		"payer": map[string]string{"name": b.Payer.Name, "email": b.Payer.Email, "document": b.Payer.Document,
			"document_type": b.Payer.DocumentType, "user_type": userType},
		"bank_transfer": map[string]string{"bank_code": b.Payer.Bank}}
	var out payment
	if err := a.rest.Do(ctx, http.MethodPost, "/payments", nil, body, &out); err != nil {
		return gateway.Payment{}, refusal(gateway.UnknownUnlessRefused(err))
	}
	return b.saw(out), nil
}

// FindPayments reads the order's payment back (with its redirect_url while pending).
func (b *BankTransfer) FindPayments(ctx context.Context, externalReference string) ([]gateway.Payment, error) {
	p, ok, err := b.Account.order(ctx, externalReference)
	if !ok || err != nil {
		return nil, err
	}
	return []gateway.Payment{b.saw(p)}, nil
}

// NotificationSkew is how far a notification's X-Date may be from our clock.
const NotificationSkew = 10 * time.Minute

// ErrUnsigned is a notification this merchant did not sign (or signed too long ago).
var ErrUnsigned = errors.New("dlocal: notification not signed by the merchant")

// VerifyNotification checks a notification dLocal posted for this merchant: its X-Login, an X-Date
// within NotificationSkew of now, and the Authorization signature of login, date and body with the
// merchant's secret key. Its body is still never trusted: the payment is read back (Payment).
func (a *Account) VerifyNotification(h http.Header, body []byte, now time.Time) error {
	date := h.Get("X-Date")
	at, err := time.Parse(time.RFC3339Nano, date)
	switch {
	case h.Get("X-Login") != a.login || a.secret == "":
		return ErrUnsigned
	case err != nil || now.Sub(at).Abs() > NotificationSkew:
		return ErrUnsigned
	case subtle.ConstantTimeCompare([]byte(h.Get("Authorization")), []byte(Signature(a.login, date, a.secret, body))) != 1:
		return ErrUnsigned
	}
	return nil
}
