package gateway

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ErrNotFound is matched (errors.Is) by any provider 404 and by lookups that find nothing.
var ErrNotFound = errors.New("gateway: not found")

// MessageKey names the donor-facing message (web/lang) for a provider refusal.
type MessageKey string

const (
	KeySubmitFailed           MessageKey = "gateway.submit_failed"
	KeyDocumentRequired       MessageKey = "gateway.document_required"
	KeyDocumentNumberRequired MessageKey = "gateway.document_number_required"
	KeyInvalidName            MessageKey = "gateway.invalid_name"
	KeyCheckDocument          MessageKey = "gateway.check_document"
	KeyCheckExpiry            MessageKey = "gateway.check_expiry"
	KeyCardNumber             MessageKey = "gateway.card_number_invalid"
	KeySecurityCode           MessageKey = "gateway.security_code_invalid"
	KeyResourceBlocked        MessageKey = "gateway.resource_blocked_retry"
	KeyCardVerification       MessageKey = "gateway.card_verification_retry"
)

// causeKeys is the spec's §8 catalogue of provider cause codes. 326 (invalid
// expiry year) is not in the spec; it is 325's twin for the year, so it shares
// the expiry message.
var causeKeys = map[string]MessageKey{
	"212":  KeyDocumentRequired,
	"214":  KeyDocumentNumberRequired,
	"316":  KeyInvalidName,
	"322":  KeyCheckDocument,
	"323":  KeyCheckDocument,
	"324":  KeyCheckDocument,
	"325":  KeyCheckExpiry,
	"326":  KeyCheckExpiry,
	"E301": KeyCardNumber,
	"E302": KeySecurityCode,
	"E423": KeyResourceBlocked,
	"E702": KeyCardVerification,
}

// Cause is one reason a provider gives for refusing a request.
type Cause struct {
	Code        string
	Description string
}

// Error is a request the provider answered and refused: it did not happen, so
// the caller may fix the input and try again.
type Error struct {
	Status  int    // HTTP status of the answer
	Message string // the provider's own text; vault failures show it as is (§8)
	Causes  []Cause
	Key     MessageKey // what to tell the donor
}

// NewError builds an Error whose Key comes from the first cause the catalogue
// knows ("first cause wins"); unknown codes before it are skipped so the donor
// still gets the specific hint, and with none known the generic failure is shown.
func NewError(status int, message string, causes []Cause) *Error {
	key := KeySubmitFailed
	for _, c := range causes {
		if k, ok := causeKeys[c.Code]; ok {
			key = k
			break
		}
	}
	return &Error{Status: status, Message: message, Causes: causes, Key: key}
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gateway: %d %s", e.Status, e.Message)
	for _, c := range e.Causes {
		fmt.Fprintf(&b, "; %s %s", c.Code, c.Description)
	}
	return b.String()
}

// Is lets errors.Is(err, ErrNotFound) hold for provider 404s.
func (e *Error) Is(target error) bool {
	return target == ErrNotFound && e.Status == http.StatusNotFound
}

// UnknownOutcomeError means a charge or refund may or may not have happened (a
// timeout, a dropped connection, a provider 5xx). Read the payment back, or retry
// with the same idempotency key; never retry with a new one.
type UnknownOutcomeError struct {
	Err error
}

func (e *UnknownOutcomeError) Error() string {
	return "gateway: outcome unknown, read the payment back: " + e.Err.Error()
}

func (e *UnknownOutcomeError) Unwrap() error { return e.Err }

// UnknownUnlessRefused is an adapter's charge or refund error as the caller must read it: a 4xx
// stays the refusal it is; anything else (a timeout, a dropped connection, a 5xx) may have moved
// money, so it is an *UnknownOutcomeError.
func UnknownUnlessRefused(err error) error {
	var gerr *Error
	if errors.As(err, &gerr) && gerr.Status < http.StatusInternalServerError {
		return err
	}
	return &UnknownOutcomeError{Err: err}
}
