package mercadopago

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/money"
)

// causeCustomerExists is MercadoPago's answer to creating a customer whose e-mail is taken.
const causeCustomerExists = "101"

type identification struct {
	Type   string `json:"type"`
	Number string `json:"number"`
}

type customer struct {
	ID             string          `json:"id,omitempty"`
	Email          string          `json:"email"`
	FirstName      string          `json:"first_name,omitempty"`
	LastName       string          `json:"last_name,omitempty"`
	Identification *identification `json:"identification,omitempty"`
}

func (c customer) toGateway() gateway.Customer {
	out := gateway.Customer{ID: c.ID, Email: c.Email, FirstName: c.FirstName, LastName: c.LastName}
	if c.Identification != nil {
		out.IDType, out.IDNumber = c.Identification.Type, c.Identification.Number
	}
	return out
}

type card struct {
	ID              string `json:"id"`
	CustomerID      string `json:"customer_id"`
	ExpirationMonth int    `json:"expiration_month"`
	ExpirationYear  int    `json:"expiration_year"`
	FirstSixDigits  string `json:"first_six_digits"`
	LastFourDigits  string `json:"last_four_digits"`
	PaymentMethod   struct {
		ID string `json:"id"`
	} `json:"payment_method"`
	Cardholder struct {
		Name string `json:"name"`
	} `json:"cardholder"`
}

func (c card) toGateway() gateway.Card {
	return gateway.Card{
		ID:              c.ID,
		CustomerID:      c.CustomerID,
		PaymentMethodID: brandFromMP(c.PaymentMethod.ID),
		FirstSix:        c.FirstSixDigits,
		LastFour:        c.LastFourDigits,
		ExpirationMonth: c.ExpirationMonth,
		ExpirationYear:  c.ExpirationYear,
		HolderName:      c.Cardholder.Name,
	}
}

type payer struct {
	Type  string `json:"type,omitempty"`
	ID    string `json:"id,omitempty"`
	Email string `json:"email,omitempty"`
}

type paymentRequest struct {
	TransactionAmount json.Number       `json:"transaction_amount"`
	Token             string            `json:"token"`
	Description       string            `json:"description,omitempty"`
	Installments      int               `json:"installments"`
	PaymentMethodID   string            `json:"payment_method_id,omitempty"`
	Payer             payer             `json:"payer"`
	ExternalReference string            `json:"external_reference"`
	Metadata          map[string]string `json:"metadata,omitempty"`
	NotificationURL   string            `json:"notification_url,omitempty"`
}

type payment struct {
	ID                json.Number `json:"id"`
	Status            string      `json:"status"`
	StatusDetail      string      `json:"status_detail"`
	TransactionAmount json.Number `json:"transaction_amount"`
	CurrencyID        string      `json:"currency_id"`
	ExternalReference string      `json:"external_reference"`
	DateCreated       time.Time   `json:"date_created"`
}

func (p payment) toGateway() (gateway.Payment, error) {
	amount, err := money.ParseWire(p.TransactionAmount.String(), p.CurrencyID)
	if err != nil {
		return gateway.Payment{}, fmt.Errorf("mercadopago: payment %s: %w", p.ID, err)
	}
	status, ok := statuses[p.Status]
	if !ok {
		// A status added after this was written is treated as not final yet,
		// so the caller reads the payment again later instead of acting on it.
		status = gateway.StatusInProcess
	}
	return gateway.Payment{
		ID:                p.ID.String(),
		Status:            status,
		StatusDetail:      p.StatusDetail,
		PausedReason:      pausedReason(status, p.StatusDetail),
		Amount:            amount,
		ExternalReference: p.ExternalReference,
		CreatedAt:         p.DateCreated,
	}, nil
}

type refund struct {
	ID          json.Number `json:"id"`
	PaymentID   json.Number `json:"payment_id"`
	Amount      json.Number `json:"amount"`
	DateCreated time.Time   `json:"date_created"`
}

func (r refund) toGateway(currency string) (gateway.Refund, error) {
	amount, err := money.ParseWire(r.Amount.String(), currency)
	if err != nil {
		return gateway.Refund{}, fmt.Errorf("mercadopago: refund %s: %w", r.ID, err)
	}
	return gateway.Refund{ID: r.ID.String(), PaymentID: r.PaymentID.String(), Amount: amount, CreatedAt: r.DateCreated}, nil
}

type paymentMethod struct {
	ID            string    `json:"id"`
	Name          string    `json:"name"`
	PaymentTypeID string    `json:"payment_type_id"`
	Status        string    `json:"status"`
	Settings      []setting `json:"settings"`
}

// setting is one group of a brand's numbers. Since late 2024 MercadoPago leaves bin out of its
// answers (the brand is then told by the BIN search); the sandbox still serves it.
type setting struct {
	BIN *struct {
		Pattern          string `json:"pattern"`
		ExclusionPattern string `json:"exclusion_pattern"`
	} `json:"bin"`
	CardNumber struct {
		Length     int    `json:"length"`
		Validation string `json:"validation"` // standard: Luhn; none
	} `json:"card_number"`
	SecurityCode struct {
		Length int `json:"length"`
	} `json:"security_code"`
}

// MercadoPago calls Mastercard "master"; the adapter speaks Aporta's brand names (internal/card,
// the donation form) to the rest of the code and MercadoPago's on the wire. Debit brands keep
// their own names (debmaster, debvisa): a saved card is charged under the brand its token carries.
func brandFromMP(id string) string {
	if id == "master" {
		return "mastercard"
	}
	return id
}

func brandToMP(brand string) string {
	if brand == "mastercard" {
		return "master"
	}
	return brand
}

func (m paymentMethod) toGateway() gateway.PaymentMethod {
	out := gateway.PaymentMethod{ID: brandFromMP(m.ID), Name: m.Name, PaymentType: m.PaymentTypeID}
	if len(m.Settings) > 0 {
		out.CardNumberLength = m.Settings[0].CardNumber.Length
		out.SecurityCodeLength = m.Settings[0].SecurityCode.Length
	}
	return out
}

// cardMethods are the method's card rules, one per group of settings that share a pattern, so a
// brand listed once per valid length becomes one rule with several lengths.
func (m paymentMethod) cardMethods() []gateway.CardMethod {
	var out []gateway.CardMethod
	for _, st := range m.Settings {
		cm := gateway.CardMethod{ID: brandFromMP(m.ID), Name: m.Name, PaymentType: m.PaymentTypeID,
			SecurityCodeLength: st.SecurityCode.Length, Luhn: st.CardNumber.Validation != "none"}
		if st.BIN != nil {
			cm.BINPattern, cm.ExclusionPattern = st.BIN.Pattern, st.BIN.ExclusionPattern
		}
		i := slices.IndexFunc(out, func(o gateway.CardMethod) bool {
			return o.BINPattern == cm.BINPattern && o.ExclusionPattern == cm.ExclusionPattern &&
				o.SecurityCodeLength == cm.SecurityCodeLength && o.Luhn == cm.Luhn
		})
		if i < 0 {
			out, i = append(out, cm), len(out)
		}
		if n := st.CardNumber.Length; n > 0 && !slices.Contains(out[i].Lengths, n) {
			out[i].Lengths = append(out[i].Lengths, n)
		}
	}
	return out
}

// statuses maps MercadoPago's payment statuses to the spec's. "authorized" is a
// reserved but uncaptured card payment: money has not moved, so it is in process.
var statuses = map[string]gateway.Status{
	"approved":     gateway.StatusApproved,
	"authorized":   gateway.StatusInProcess,
	"pending":      gateway.StatusPending,
	"in_process":   gateway.StatusInProcess,
	"in_mediation": gateway.StatusInMediation,
	"rejected":     gateway.StatusRejected,
	"cancelled":    gateway.StatusCancelled,
	"refunded":     gateway.StatusRefunded,
	"charged_back": gateway.StatusChargedBack,
}

// pausedDetails are the rejections that will fail the same way next month, so
// collection pauses the donation and asks the donor for another card. The
// others (insufficient funds, call for authorisation, other reason, max attempts,
// duplicated payment…) are soft declines that are worth retrying.
var pausedDetails = map[string]gateway.PausedReason{
	"cc_rejected_card_disabled":            gateway.PausedCardCancelled,
	"cc_rejected_high_risk":                gateway.PausedHighRisk,
	"cc_rejected_blacklist":                gateway.PausedStolenIssue,
	"cc_rejected_bad_filled_date":          gateway.PausedCardExpired,
	"cc_rejected_bad_filled_security_code": gateway.PausedMissingCode,
	"cc_rejected_bad_filled_card_number":   gateway.PausedInvalidNumber,
	"cc_rejected_bad_filled_other":         gateway.PausedMethodInvalid,
	"cc_rejected_card_type_not_allowed":    gateway.PausedMethodNotSupported,
}

func pausedReason(status gateway.Status, detail string) gateway.PausedReason {
	switch status {
	case gateway.StatusChargedBack:
		return gateway.PausedChargeBack
	case gateway.StatusRejected:
		return pausedDetails[detail]
	}
	return ""
}
