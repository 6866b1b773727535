package collection

import (
	"fmt"
	"slices"
	"time"

	"github.com/aporta/aporta/internal/collectday"
)

// TaskQueue is the collection task queue.
const TaskQueue = "collection"

// WorkflowID is derived from the donation, so starting its workflow twice is a no-op.
func WorkflowID(donationID string) string { return "donation/" + donationID }

// Donation statuses (spec §4).
const (
	StatusActive    = "active"
	StatusPaused    = "paused"
	StatusDiscarded = "discarded"
)

// Paused reasons of the donation domain (spec §4); the gateway adds the ones a refusal justifies.
const (
	PausedAllNotApproved       = "all_not_approved"
	PausedByAPI                = "by_api"
	PausedByOrg                = "by_org"
	PausedCardExpired          = "cc_expired"
	PausedDonorStopDebit       = "donor_request_stop_debit"
	PausedInvalidAmount        = "invalid_amount"
	PausedLastXMonths          = "last_x_months_not_approved"
	PausedLastTransactions     = "last_transactions_not_approved"
	PausedPaymentMethodMissing = "payment_method_missing"
	PausedUnknown              = "unknown"
	// PausedGatewayDisconnected: the organisation's gateway connection was missing or needed
	// reconnecting for GatewayGrace while a charge was due.
	PausedGatewayDisconnected = "gateway_disconnected"
)

// PausedReasons lists every reason the spec allows.
var PausedReasons = []string{
	"all_not_approved", "by_api", "by_org", "cc_expired", "cc_invalid_number", "cc_missing_security_code",
	"donor_request_stop_debit", "gateway_disconnected", "invalid_amount", "last_transaction_card_cancelled",
	"last_transaction_charge_back", "last_transaction_high_risk", "last_transaction_stolen_issue",
	"last_transactions_not_approved", "last_x_months_not_approved", "payment_method_invalid",
	"payment_method_missing", "payment_method_not_supported", "unknown",
}

// DefaultMaxFailedPeriods is how many consecutive periods may fail before the donation pauses
// with last_x_months_not_approved.
const DefaultMaxFailedPeriods = 3

// UpgradePeriods are the periodic-increase periods in months (spec §9: 1, 2, 3, 4, 6 months or a year).
var UpgradePeriods = []int{1, 2, 3, 4, 6, 12}

// PaymentMethod is a card saved at the gateway: tokens and display data only, never a card
// number or a security code.
type PaymentMethod struct {
	// Gateway is where the card is saved (payment_methods.gateway); "" in states from before
	// CentralPos, all MercadoPago's.
	Gateway     string `json:"gateway,omitempty"`
	ID          string `json:"id"` // payment_methods.id
	CustomerID  string `json:"customer_id"`
	CardID      string `json:"card_id"`
	Brand       string `json:"brand"`
	BIN         string `json:"bin,omitempty"`
	LastFour    string `json:"last_four"`
	ExpiryMonth int    `json:"expiry_month"`
	ExpiryYear  int    `json:"expiry_year"`
	HolderName  string `json:"holder_name,omitempty"`
}

func (pm PaymentMethod) validate() error {
	switch {
	case pm.ID == "" || pm.CustomerID == "" || pm.CardID == "":
		return fmt.Errorf("payment method: id, customer id and card id are required")
	case len(pm.LastFour) != 4:
		return fmt.Errorf("payment method: last four must have four digits")
	case pm.ExpiryMonth < 1 || pm.ExpiryMonth > 12 || pm.ExpiryYear < 2000:
		return fmt.Errorf("payment method: invalid expiry %d/%d", pm.ExpiryMonth, pm.ExpiryYear)
	}
	return nil
}

// Upgrade is a periodic increase: every PeriodMonths the amount grows by BasisPoints/100 percent.
type Upgrade struct {
	ID           string            `json:"id"`
	BasisPoints  int64             `json:"basis_points"` // 1050 = 10.50%
	PeriodMonths int               `json:"period_months"`
	Auto         bool              `json:"auto"`
	NextPeriod   collectday.Period `json:"next_period"` // the first period charged with the increased amount
	OldAmount    int64             `json:"old_amount"`
	NewAmount    int64             `json:"new_amount"`
	// MaxAmount is the largest amount the increases may reach (0: only int64 bounds it, for
	// upgrades set before it existed).
	MaxAmount int64            `json:"max_amount,omitempty"`
	History   []UpgradeApplied `json:"history,omitempty"` // the last 12 applications
}

// UpgradeApplied is one application of an upgrade.
type UpgradeApplied struct {
	Period    collectday.Period `json:"period"`
	OldAmount int64             `json:"old_amount"`
	NewAmount int64             `json:"new_amount"`
}

// PeriodResult is how a period ended.
type PeriodResult struct {
	Period    collectday.Period `json:"period"`
	Approved  bool              `json:"approved"`
	Status    string            `json:"status"` // the last attempt's transaction status
	Attempts  int               `json:"attempts"`
	PaymentID string            `json:"payment_id,omitempty"`
	Amount    int64             `json:"amount"`
}

// State is the donation as its workflow holds it: the state query's answer and what
// continue-as-new carries.
type State struct {
	OrganizationID    string            `json:"organization_id"`
	DonationID        string            `json:"donation_id"`
	Status            string            `json:"status"`
	PausedReason      string            `json:"paused_reason,omitempty"`
	PausedSince       time.Time         `json:"paused_since,omitzero"`
	DiscardReason     string            `json:"discard_reason,omitempty"`
	DiscardedAt       time.Time         `json:"discarded_at,omitzero"`
	Amount            int64             `json:"amount"`
	Currency          string            `json:"currency"`
	CollectDay        collectday.Day    `json:"collect_day"` // collectday.Last (0): the last day of the month
	Timezone          string            `json:"timezone"`
	Email             string            `json:"email,omitempty"`
	PaymentMethod     PaymentMethod     `json:"payment_method"`
	Upgrade           *Upgrade          `json:"upgrade,omitempty"`
	NextPeriod        collectday.Period `json:"next_period"`
	NextChargeDate    time.Time         `json:"next_charge_date,omitzero"`
	ConsecutiveFailed int               `json:"consecutive_failed_periods"`
	MaxFailedPeriods  int               `json:"max_failed_periods"`
	// Recent holds the last 12 periods' results, so the state stays small across years.
	Recent []PeriodResult `json:"recent,omitempty"`
	// ChargedPeriods counts every settled period since the donation started, each once: a period a
	// new card retries after a decline paused it replaces its result instead of counting again.
	ChargedPeriods int `json:"charged_periods"`
	// ResumeAt is when a pause for some months ends on its own (zero: a pause until restored).
	ResumeAt time.Time `json:"resume_at,omitzero"`
	// RetryAttempt is the attempt number NextPeriod's charge starts at when the donor's new card
	// retries a period that already had attempts (0: from 1). Attempt numbers key the charges, so
	// a retried period never reuses an attempt's key, and every attempt reads back the earlier ones.
	RetryAttempt int `json:"retry_attempt,omitempty"`
}

func (s *State) addResult(r PeriodResult) {
	if n := len(s.Recent); n > 0 && s.Recent[n-1].Period == r.Period {
		s.Recent[n-1] = r // the same period settled again (retried after a card-decline pause)
		return
	}
	s.Recent = append(s.Recent, r)
	if len(s.Recent) > 12 {
		s.Recent = slices.Clone(s.Recent[len(s.Recent)-12:])
	}
	s.ChargedPeriods++
}

// Input starts (or continues) a donation's workflow.
type Input struct {
	OrganizationID string `json:"organization_id"`
	DonationID     string `json:"donation_id"`
	// MaxFailedPeriods overrides DefaultMaxFailedPeriods when > 0.
	MaxFailedPeriods int `json:"max_failed_periods,omitempty"`
	// State is set by continue-as-new; a first run loads the donation with LoadDonation.
	State *State `json:"state,omitempty"`
}
