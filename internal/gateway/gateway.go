// Package gateway is what Aporta needs from a card payments provider. Card data is
// tokenised in the browser; the server only ever holds a provider customer, a saved
// card and single-use tokens, so card numbers and security codes never reach us.
//
// Consumers should depend on the smallest interface they use (Customers, Charger,
// Refunder, BINLookup); Gateway is their union, implemented by each adapter.
package gateway

import (
	"context"
	"time"

	"github.com/aporta/aporta/internal/money"
)

// Customers keeps donors and their cards at the provider so that monthly charges
// need nothing from the donor after the first donation.
type Customers interface {
	// EnsureCustomer returns the provider customer with c.Email, creating it if missing.
	EnsureCustomer(ctx context.Context, c Customer) (Customer, error)
	// SaveCard attaches the card behind a browser token to the customer.
	SaveCard(ctx context.Context, customerID, token string) (Card, error)
}

// Charger moves money. Charge returns a Payment whenever the provider decided
// (approved, rejected, pending…); it returns *UnknownOutcomeError when it cannot
// know whether the charge happened, and the caller must then read it back with
// FindPayments(ExternalReference) rather than charge with a new idempotency key.
type Charger interface {
	Charge(ctx context.Context, c Charge) (Payment, error)
	Payment(ctx context.Context, id string) (Payment, error)
	// FindPayments lists the payments made with an external reference, newest first.
	FindPayments(ctx context.Context, externalReference string) ([]Payment, error)
}

// Refunder gives money back.
type Refunder interface {
	Refund(ctx context.Context, r RefundRequest) (Refund, error)
}

// BINLookup tells the card brand from the first digits of a card number.
type BINLookup interface {
	// PaymentMethod returns ErrNotFound when no brand matches the BIN.
	PaymentMethod(ctx context.Context, bin string) (PaymentMethod, error)
}

// Gateway is everything a provider adapter offers.
type Gateway interface {
	Customers
	Charger
	Refunder
	BINLookup
}

// Customer is a donor as the provider knows them.
type Customer struct {
	ID        string
	Email     string
	FirstName string
	LastName  string
	// IDType and IDNumber are the donor's document (DNI, CUIT, RUT…).
	IDType   string
	IDNumber string
}

// Card is a card saved at the provider; only what the spec lets us keep.
type Card struct {
	ID              string
	CustomerID      string
	PaymentMethodID string // brand: visa, master, amex, naranja…
	FirstSix        string
	LastFour        string
	ExpirationMonth int
	ExpirationYear  int
	HolderName      string
}

// Charge asks for one payment. Exactly one of CardID (a saved card, for monthly
// collection) and Token (a fresh browser token, for a first donation) is set.
type Charge struct {
	// IdempotencyKey must be the same on every retry of the same charge, so that
	// the provider answers with the first payment instead of charging again.
	IdempotencyKey string
	// ExternalReference is our id for what is being paid (for example a
	// donation's transaction); it is how a payment is found after a timeout.
	ExternalReference string
	Amount            money.Amount
	Description       string
	Installments      int // 0 means a single payment
	CustomerID        string
	Email             string
	CardID            string
	Token             string
	PaymentMethodID   string
	Metadata          map[string]string
	// Descriptor is what the donor's statement shows (prefix*value), for processors that take one
	// per payment (dLocal); empty: the account's own.
	Descriptor string
	// Document is the payer's document, for processors that take the payer with each payment.
	Document string
}

// Payment is a charge as the provider last reported it.
type Payment struct {
	ID                string
	Status            Status
	StatusDetail      string // the provider's reason, e.g. cc_rejected_insufficient_amount
	PausedReason      PausedReason
	Amount            money.Amount
	ExternalReference string
	CreatedAt         time.Time
}

// RefundRequest gives back Amount of a payment, or all that is left when Amount is zero.
type RefundRequest struct {
	PaymentID      string
	Amount         money.Amount
	IdempotencyKey string
}

// Refund is money given back on a payment.
type Refund struct {
	ID        string
	PaymentID string
	Amount    money.Amount
	CreatedAt time.Time
}

// PaymentMethod is a card brand and the input rules the form applies to it.
type PaymentMethod struct {
	ID                 string // Aporta's brand name (internal/card): visa, mastercard, amex…
	Name               string
	PaymentType        string // credit_card, debit_card, prepaid_card
	CardNumberLength   int
	SecurityCodeLength int
}

// Status is a transaction status from the spec (§4).
type Status string

const (
	StatusApproved    Status = "approved"
	StatusCancelled   Status = "cancelled"
	StatusChargedBack Status = "charged_back"
	StatusInMediation Status = "in_mediation"
	StatusInProcess   Status = "in_process"
	StatusPending     Status = "pending"
	StatusRefunded    Status = "refunded"
	StatusRejected    Status = "rejected"
	// StatusPlanned and StatusNonExistent are Aporta's own: a charge scheduled
	// but not attempted yet, and one the provider has no record of. The spelling
	// "non_existant" is the stored value the spec uses.
	StatusPlanned     Status = "planned"
	StatusNonExistent Status = "non_existant"
)

// PausedReason says why a failed charge must pause a monthly donation instead of
// being retried next period. Empty means do not pause. Only the reasons a
// provider answer can justify live here; the donation domain adds its own
// (by_org, donor_request_stop_debit, last_x_months_not_approved…).
type PausedReason string

const (
	PausedCardCancelled      PausedReason = "last_transaction_card_cancelled"
	PausedChargeBack         PausedReason = "last_transaction_charge_back"
	PausedHighRisk           PausedReason = "last_transaction_high_risk"
	PausedStolenIssue        PausedReason = "last_transaction_stolen_issue"
	PausedCardExpired        PausedReason = "cc_expired"
	PausedInvalidNumber      PausedReason = "cc_invalid_number"
	PausedMissingCode        PausedReason = "cc_missing_security_code"
	PausedMethodInvalid      PausedReason = "payment_method_invalid"
	PausedMethodNotSupported PausedReason = "payment_method_not_supported"
)

// AmountLimits is the smallest and largest card payment a gateway takes, in minor units.
type AmountLimits struct{ Min, Max money.Amount }

// LimitsSource reads a gateway's card payment limits.
type LimitsSource interface {
	AmountLimits(ctx context.Context) (AmountLimits, error)
}

// CardMethod is a card brand an account takes, with the input rules its gateway states for it:
// which numbers are of the brand, their lengths, the security code's length and whether the
// number carries a Luhn check digit. The donation form and the server detect brands with these
// instead of a static prefix table, so a card is named as the gateway that charges it names it.
type CardMethod struct {
	ID          string // Aporta's brand name (internal/card): visa, mastercard, debvisa, debmaster…
	Name        string // the gateway's display name: "Mastercard Débito"
	PaymentType string // credit_card, debit_card, prepaid_card
	// BINPattern and ExclusionPattern are regular expressions (RE2 and JavaScript alike) over the
	// number's leading digits: a number is of the brand when it matches the first and not the
	// second. Empty BINPattern: the gateway does not publish one (brand by BIN lookup only).
	BINPattern         string
	ExclusionPattern   string
	Lengths            []int // valid number lengths
	SecurityCodeLength int   // 0: no security code
	Luhn               bool  // false: the issuer's numbers may fail the Luhn check
}

// CardMethods lists the card brands an account takes. Adapters cache the answer per account.
type CardMethods interface {
	PaymentMethods(ctx context.Context) ([]CardMethod, error)
}

// Account is everything Aporta does through an organisation's own gateway account: charges, cards
// and refunds, the brands it takes and its amount limits. Every adapter implements it.
type Account interface {
	Gateway
	CardMethods
	LimitsSource
}
