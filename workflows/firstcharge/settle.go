package firstcharge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// A first charge's outcome as the donation form reports it.
const (
	StatusApproved  = "approved"
	StatusPlanned   = "planned" // monthly, charged on its collect day by collection
	StatusInProcess = "in_process"
	StatusRejected  = "rejected"
	StatusUnknown   = "unknown" // the gateway's answer was lost and is not found yet
)

// Donation is a donation whose first charge is being settled.
type Donation struct {
	OrgID      uuid.UUID
	ID         uuid.UUID
	Recurrence int // 0 one-time, 1 monthly
	Amount     int64
	Currency   string
	CollectDay collectday.Day
}

// First is a donation's first transaction: written with the donation, pending until charged (or
// planned, for a monthly donation charged on its collect day).
type First struct {
	charge.Transaction
	Status string
	Detail string
}

// Settled says whether the first charge has its final answer (in_process waits for the gateway).
func (f First) Settled() bool { return f.Status != "pending" && f.Status != "in_process" }

// FirstOf reads a donation's first transaction.
func FirstOf(ctx context.Context, scope tenants.Scope, d Donation) (First, error) {
	id := charge.FirstTransactionID(d.ID)
	row, err := scope.Store().FirstTransaction(ctx, sharddb.FirstTransactionParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return First{}, fmt.Errorf("first transaction: %w", err)
	}
	f := Written(d, row.Period, row.Status, row.PaymentMethodID)
	f.Detail = row.StatusDetail
	return f, nil
}

// Written is a donation's first transaction as its writer left it (newdonation.Write): in period ("" for a
// one-time donation), with its status and saved card.
func Written(d Donation, period, status string, pmID *uuid.UUID) First {
	return First{Transaction: charge.Transaction{OrgID: d.OrgID, ID: charge.FirstTransactionID(d.ID), DonationID: d.ID, Period: period,
		Attempt: 1, Amount: d.Amount, Currency: d.Currency, PaymentMethodID: pmID}, Status: status}
}

// RecurringStarter starts a monthly donation's collection; starting it again is a no-op
// (collection.Starter).
type RecurringStarter interface {
	StartRecurring(ctx context.Context, orgID, donationID uuid.UUID) error
}

// Settler moves a donation on from its first charge. The donation form and this package's
// activity share it, so a first charge is settled the same way whoever finds its outcome.
type Settler struct {
	Recurring RecurringStarter // nil: no monthly collection is started
	Receipts  receipt.Mailer   // e-mails the approved charge's receipt (no Outbox: none)
	Log       *slog.Logger
}

// Charge charges a donation's first transaction (charge.Charge) and settles it, or, when it is
// planned, activates the donation for collection to charge on its collect day. known is the first
// transaction as the caller just wrote it (nil: it is read). c is the charge without amount, key and
// reference. today is the date in the organisation's timezone. It answers how the charge ended; the
// gateway's refusal is returned as it is.
func (s Settler) Charge(ctx context.Context, scope tenants.Scope, g charge.Gateway, d Donation, known *First, c gateway.Charge,
	today time.Time) (Charged, error) {
	var first First
	var err error
	if known != nil {
		first = *known
	} else if first, err = FirstOf(ctx, scope, d); err != nil {
		return Charged{}, err
	}
	if first.Status == "planned" {
		return Charged{Status: StatusPlanned}, s.activate(ctx, scope, d, today)
	}
	c.Amount = money.New(d.Amount, d.Currency)
	o, err := charge.ChargeAnd(ctx, scope, g, first.Transaction, c, settleDonation(d, today))
	var unknown *gateway.UnknownOutcomeError
	if errors.As(err, &unknown) {
		s.log().WarnContext(ctx, "donation: charge outcome unknown", "donation_id", d.ID, "error", err)
		return Charged{Status: StatusUnknown}, nil // the guard settles it later
	}
	if err != nil {
		return Charged{}, err
	}
	return Charged{Status: s.settled(ctx, scope, d, o), Detail: o.Detail, Receipt: o.Receipt}, nil
}

// Charged is how a first charge ended: the form's status, the gateway's detail when refused, and the receipt
// its record issued (charge.Outcome.Receipt, for the caller that e-mails it; nil: none).
type Charged struct {
	Status, Detail string
	Receipt        json.RawMessage
}

// Settle records a first charge's outcome (charge.Record) and settles the donation.
func (s Settler) Settle(ctx context.Context, scope tenants.Scope, d Donation, first First, o charge.Outcome, today time.Time) (string, error) {
	var err error
	if o.Receipt, err = charge.RecordAnd(ctx, scope, first.Transaction, o, settleDonation(d, today)); err != nil {
		return "", err
	}
	return s.settled(ctx, scope, d, o), nil
}

// settleDonation moves the pending donation on from its first charge, in the statement that records the
// charge: approved, it is active (a monthly one charged next in the following month, by its collection);
// refused, rejected; otherwise the gateway decides later and the donation stays pending.
func settleDonation(d Donation, today time.Time) charge.Settle {
	return func(o charge.Outcome) (string, *time.Time) {
		switch o.Status {
		case gateway.StatusApproved:
			if d.Recurrence == 1 {
				n := d.CollectDay.After(today)
				return "active", &n
			}
			return "active", nil
		case gateway.StatusRejected, gateway.StatusCancelled:
			return "rejected", nil
		}
		return "", nil
	}
}

// settled follows a first charge recorded with settleDonation: an approved one's receipt is e-mailed and
// an active monthly donation's collection started. It answers the form's status.
func (s Settler) settled(ctx context.Context, scope tenants.Scope, d Donation, o charge.Outcome) string {
	switch o.Status {
	case gateway.StatusApproved:
		// The receipt was issued with the approval (charge.Record); its e-mail is sent once per
		// receipt, and a failure is logged: the portal lists the receipt all the same.
		if err := s.Receipts.Send(ctx, scope, receipt.Charge{DonationID: d.ID, TransactionID: charge.FirstTransactionID(d.ID),
			Issued: o.Receipt}); err != nil {
			s.log().ErrorContext(ctx, "donation: receipt e-mail", "donation_id", d.ID, "error", err)
		}
		if d.Recurrence == 1 {
			s.StartCollection(ctx, scope.OrgID, d.ID)
		}
		return StatusApproved
	case gateway.StatusRejected, gateway.StatusCancelled:
		return StatusRejected
	default:
		return StatusInProcess
	}
}

// activate moves the pending donation of a planned first charge to active, its first charge due today
// (the collect day), and starts its collection.
func (s Settler) activate(ctx context.Context, scope tenants.Scope, d Donation, today time.Time) error {
	if err := scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		return q.WithRollup(ctx, scope.OrgID, []uuid.UUID{d.ID}, func() error {
			return q.SettleFirstChargeDonation(ctx, sharddb.SettleFirstChargeDonationParams{OrganizationID: scope.OrgID,
				ID: d.ID, Status: "active", NextChargeDate: &today})
		})
	}); err != nil {
		return err
	}
	if err := crmlink.Enqueue(ctx, scope.Store(), scope.OrgID, crmlink.Donation, d.ID); err != nil {
		return err // the activity retries: settling again is a no-op
	}
	if d.Recurrence == 1 {
		s.StartCollection(ctx, scope.OrgID, d.ID)
	}
	return nil
}

// StartCollection starts the collection of an active monthly donation. A failure is logged: the
// donation is stored and charged, and the next submission with the same key starts it again.
func (s Settler) StartCollection(ctx context.Context, orgID, donationID uuid.UUID) {
	if s.Recurring == nil {
		return
	}
	if err := s.Recurring.StartRecurring(ctx, orgID, donationID); err != nil {
		s.log().ErrorContext(ctx, "donation: start recurring collection", "donation_id", donationID, "error", err)
	}
}

func (s Settler) log() *slog.Logger {
	if s.Log == nil {
		return slog.Default()
	}
	return s.Log
}
