package collection

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/history"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// Activities hold collection's side effects. Every one is idempotent: charges are keyed by
// donation and period (and attempt), rows are upserted on the same keys.
type Activities struct {
	Tenants  *tenants.Tenants
	Gateways charge.Gateways
	Receipts receipt.Mailer // e-mails an approved period's receipt (no Outbox: none)
}

// Snapshot is a donation as the shard stores it, read when its workflow first starts.
type Snapshot struct {
	OrganizationID    string
	DonationID        string
	Amount            int64
	Currency          string
	CollectDay        collectday.Day
	Recurrence        int
	Status            string
	PausedReason      string
	Timezone          string
	Email             string
	ConsecutiveFailed int
	PaymentMethod     PaymentMethod
}

func (s Snapshot) state() *State {
	st := &State{
		OrganizationID: s.OrganizationID, DonationID: s.DonationID, Status: s.Status, PausedReason: s.PausedReason,
		Amount: s.Amount, Currency: s.Currency, CollectDay: s.CollectDay, Timezone: s.Timezone, Email: s.Email,
		PaymentMethod: s.PaymentMethod, ConsecutiveFailed: s.ConsecutiveFailed,
	}
	if st.Status == "" {
		st.Status = StatusActive
	}
	return st
}

// LoadDonation reads the donation, its organisation's timezone, its donor's e-mail and its card.
func (a *Activities) LoadDonation(ctx context.Context, orgID, donationID string) (Snapshot, error) {
	defer keepAlive(ctx)()
	s, _, err := a.loadDonation(ctx, orgID, donationID)
	return s, err
}

// OpenRequest opens a donation's workflow: Now is the workflow's clock.
type OpenRequest struct {
	OrganizationID string
	DonationID     string
	Now            time.Time
}

// OpenDonation loads the donation (LoadDonation), sets the first period to charge from now, writes
// its next charge date to the row (SyncDonation) unless the row says so already, and answers the
// state the workflow starts from: the first task of a new workflow in one local activity.
func (a *Activities) OpenDonation(ctx context.Context, r OpenRequest) (State, error) {
	defer keepAlive(ctx)()
	snap, row, err := a.loadDonation(ctx, r.OrganizationID, r.DonationID)
	if err != nil {
		return State{}, err
	}
	st, err := snap.opened(r.Now)
	if err != nil || holds(row, st) {
		return st, err
	}
	return st, a.syncDonation(ctx, st)
}

// holds says whether the row already holds what SyncDonation writes of st, the state opened from it
// (no upgrade, which only a running workflow adds): the columns st took from the row keep their
// values, so the rest decide, the next charge date st sets and the pause and discard marks it leaves
// empty. Then the UPDATE is skipped: a donation whose first charge the form or a planned charge
// settled, or a run that continued as new, has its next charge date written already.
func holds(row sharddb.CollectionDonationRow, st State) bool {
	if row.Status != st.Status || row.NextChargeDate == nil || row.PausedSince != nil || row.DiscardedAt != nil ||
		row.DiscardReason != nil || st.Upgrade != nil {
		return false
	}
	y, m, d := st.NextChargeDate.Date() // in the organisation's timezone, as syncDonation writes it
	ry, rm, rd := row.NextChargeDate.Date()
	return y == ry && m == rm && d == rd
}

// opened is the state a workflow that loaded s at now starts from: its first period to charge set.
func (s Snapshot) opened(now time.Time) (State, error) {
	st := s.state()
	loc, err := location(st.Timezone)
	if err != nil {
		return State{}, temporal.NewNonRetryableApplicationError("timezone "+st.Timezone, "invalid_timezone", err)
	}
	st.NextPeriod = st.CollectDay.First(now, loc)
	st.NextChargeDate = st.CollectDay.Date(st.NextPeriod, loc)
	return *st, nil
}

// loadDonation reads the donation: its snapshot, and the row it came from.
func (a *Activities) loadDonation(ctx context.Context, orgID, donationID string) (Snapshot, sharddb.CollectionDonationRow, error) {
	scope, did, err := orgscope.Row(ctx, a.Tenants, orgID, "id", donationID)
	if err != nil {
		return Snapshot{}, sharddb.CollectionDonationRow{}, err
	}
	r, err := scope.Store().CollectionDonation(ctx, sharddb.CollectionDonationParams{OrganizationID: scope.OrgID, ID: did})
	if errors.Is(err, dberr.ErrNotFound) {
		return Snapshot{}, r, temporal.NewNonRetryableApplicationError("donation not found", "not_found", err)
	}
	if err != nil {
		return Snapshot{}, r, err
	}
	s := Snapshot{OrganizationID: orgID, DonationID: donationID, Amount: r.AmountMinor, Currency: r.Currency,
		CollectDay: collectday.FromColumn(r.CollectDay), Recurrence: int(r.Recurrence), Status: r.Status, PausedReason: r.PausedReason,
		Timezone: r.Timezone, Email: r.Email, ConsecutiveFailed: int(r.ConsecutiveFailedPeriods),
		PaymentMethod: PaymentMethod{ID: r.PaymentMethodID, Gateway: r.Gateway, CustomerID: r.CustomerID, CardID: r.CardID, Brand: r.Brand, BIN: r.Bin,
			LastFour: r.LastFour, ExpiryMonth: int(r.ExpiryMonth), ExpiryYear: int(r.ExpiryYear), HolderName: r.HolderName}}
	if s.Recurrence != 1 {
		return s, r, temporal.NewNonRetryableApplicationError("donation is not monthly", "not_monthly", nil)
	}
	return s, r, nil
}

// ChargeRequest is one attempt at charging a period.
type ChargeRequest struct {
	OrganizationID string
	DonationID     string
	Period         string // YYYY-MM
	Attempt        int    // 1…len(RetrySchedule)
	Amount         int64
	Currency       string
	Email          string
	PaymentMethod  PaymentMethod
	// SyncOnApproval is the donation's state once this period is approved: written to its row when
	// the attempt is, instead of by a bookkeeping activity after it (nil: the workflow writes it).
	SyncOnApproval *State `json:",omitempty"`
}

// ChargeResult is what the gateway decided for the period.
type ChargeResult struct {
	Attempt      int    // the attempt whose payment this is (an earlier one when read back)
	Status       string // a transaction status (spec §4)
	StatusDetail string
	PausedReason string
	PaymentID    string
	// GatewayMissing: the organisation has no usable gateway connection; nothing was charged or
	// recorded, and the attempt waits for the connection.
	GatewayMissing bool `json:",omitempty"`
	// Synced: the approval's state (ChargeRequest.SyncOnApproval) is written to the donation's row.
	Synced bool `json:",omitempty"`
}

// Approved says whether the period is paid.
func (r ChargeResult) Approved() bool { return r.Status == string(gateway.StatusApproved) }

// Charge charges one attempt of a period, at most once and never after an approval:
//  1. it reads back the payments of every attempt of the period so far; an approved one settles
//     the period without a new charge, a pending one is waited for, and its own attempt's payment
//     (a crash after the gateway answered) is taken as the answer;
//  2. otherwise it charges the attempt (charge.Charge: its key, read back on an unknown outcome);
//     when the gateway has no record of an unknown outcome yet, the activity fails and Temporal
//     retries it, starting again at 1 with the same key.
//
// An approval then writes r.SyncOnApproval to the donation's row. That write failing leaves the
// result unsynced, and the workflow writes the row itself: the charge is settled either way.
func (a *Activities) Charge(ctx context.Context, r ChargeRequest) (ChargeResult, error) {
	defer keepAlive(ctx)()
	res, err := a.chargeAttempt(ctx, r)
	if err != nil || !res.Approved() || r.SyncOnApproval == nil {
		return res, err
	}
	if err := a.syncDonation(ctx, *r.SyncOnApproval); err != nil {
		activity.GetLogger(ctx).Warn("sync on approval", "error", err)
		return res, nil
	}
	res.Synced = true
	return res, nil
}

func (a *Activities) chargeAttempt(ctx context.Context, r ChargeRequest) (ChargeResult, error) {
	scope, did, err := orgscope.Row(ctx, a.Tenants, r.OrganizationID, "id", r.DonationID)
	if err != nil {
		return ChargeResult{}, err
	}
	// The card is charged where it is saved, whatever the organisation's forms use now.
	g, err := a.Gateways.Gateway(ctx, scope.OrgID, cmp.Or(r.PaymentMethod.Gateway, connections.MercadoPago), r.Currency)
	if errors.Is(err, connections.ErrNotConnected) {
		return ChargeResult{Attempt: r.Attempt, GatewayMissing: true}, nil
	}
	if err == nil {
		g, err = charge.Routed(ctx, scope, g, did, r.Currency) // a processor's, when the donation's route has one
	}
	if err != nil {
		return ChargeResult{}, err
	}
	for i := 1; i <= r.Attempt; i++ {
		t := r.transaction(scope.OrgID, did, i)
		p, ok, err := charge.Find(ctx, g, t.Key().Reference)
		if err != nil {
			return ChargeResult{}, fmt.Errorf("read back attempt %d: %w", i, err)
		}
		if !ok {
			continue
		}
		if o := charge.OutcomeFrom(g, p); o.Approved() || i == r.Attempt || o.Pending() {
			if o.Receipt, err = charge.RecordAnd(ctx, scope, t, o, nil); err != nil {
				return ChargeResult{}, err
			}
			a.mailReceipt(ctx, scope, t, o)
			return result(i, o), nil
		}
	}

	t := r.transaction(scope.OrgID, did, r.Attempt)
	o, err := charge.Charge(ctx, scope, g, t, gateway.Charge{
		Amount:      money.New(r.Amount, r.Currency),
		Description: i18n.T(i18n.ForCountry(scope.Country), CodeMonthlyDescription, r.Period),
		CustomerID:  r.PaymentMethod.CustomerID, CardID: r.PaymentMethod.CardID,
		PaymentMethodID: r.PaymentMethod.Brand, Email: r.Email,
		Metadata: map[string]string{"donation_id": r.DonationID, "period": r.Period},
	})
	var refused *gateway.Error
	if errors.As(err, &refused) && refused.Status < http.StatusInternalServerError {
		// Refused before any payment existed: the attempt is rejected, and some refusals mean the
		// card can never be charged.
		o = charge.Outcome{Status: gateway.StatusRejected, Detail: refused.Error(), PausedReason: refusalReason(refused)}
		return result(r.Attempt, o), charge.Record(ctx, scope, t, o)
	}
	if err != nil {
		return ChargeResult{}, err
	}
	a.mailReceipt(ctx, scope, t, o)
	return result(r.Attempt, o), nil
}

// mailReceipt e-mails the receipt charge.Record issued with an approval, once per receipt. A
// failure is logged, not retried with the charge: the charge stands and the portal lists the receipt.
func (a *Activities) mailReceipt(ctx context.Context, scope tenants.Scope, t charge.Transaction, o charge.Outcome) {
	if !o.Approved() {
		return
	}
	if err := a.Receipts.Send(ctx, scope, receipt.Charge{DonationID: t.DonationID, TransactionID: t.ID, Period: t.Period,
		Issued: o.Receipt}); err != nil {
		activity.GetLogger(ctx).Error("receipt e-mail", "donation_id", t.DonationID, "period", t.Period, "error", err)
	}
}

// transaction is the row of one attempt of the request's period.
func (r ChargeRequest) transaction(orgID, did uuid.UUID, attempt int) charge.Transaction {
	return charge.Transaction{OrgID: orgID, ID: charge.AttemptID(did, r.Period, attempt), DonationID: did, Period: r.Period,
		Attempt: attempt, Amount: r.Amount, Currency: r.Currency, PaymentMethodID: optionalUUID(r.PaymentMethod.ID)}
}

func result(attempt int, o charge.Outcome) ChargeResult {
	return ChargeResult{Attempt: attempt, Status: string(o.Status), StatusDetail: o.Detail, PausedReason: o.PausedReason, PaymentID: o.PaymentID}
}

func refusalReason(e *gateway.Error) string {
	switch {
	case e.Status == http.StatusNotFound:
		return string(gateway.PausedMethodInvalid) // the saved card or customer is gone
	case e.Key == gateway.KeyCardNumber:
		return string(gateway.PausedInvalidNumber)
	case e.Key == gateway.KeySecurityCode:
		return string(gateway.PausedMissingCode)
	case e.Key == gateway.KeyCheckExpiry:
		return string(gateway.PausedCardExpired)
	}
	return ""
}

// SyncDonation writes the workflow's state to the donation's row and its upgrade. Idempotent: it
// writes absolute values. Most syncs (a period charged, a change of amount, card or day) leave what
// the dashboard rollup reads as it is: the row is then written in one statement, without the
// rollup's lock of the organisation and its recount of the donation (sharddb.WithRollup), which
// every charge already pays for in charge.Record; a change of status or discard goes through it.
func (a *Activities) SyncDonation(ctx context.Context, st State) error {
	defer keepAlive(ctx)()
	return a.syncDonation(ctx, st)
}

// syncedRow is what SyncDonation writes of a state: two states with equal rows leave the donation's
// row alike. (With an upgrade they are never compared: its rows are the workflow's to write.)
type syncedRow struct {
	status, pausedReason, discardReason, paymentMethodID, timezone string
	pausedSince, discardedAt                                       time.Time
	nextPeriod                                                     collectday.Period
	collectDay                                                     collectday.Day
	consecutiveFailed                                              int
	amount                                                         int64
	upgrade                                                        bool
}

func (st *State) row() syncedRow {
	return syncedRow{status: st.Status, pausedReason: st.PausedReason, discardReason: st.DiscardReason,
		paymentMethodID: st.PaymentMethod.ID, timezone: st.Timezone, pausedSince: st.PausedSince, discardedAt: st.DiscardedAt,
		nextPeriod: st.NextPeriod, collectDay: st.CollectDay, consecutiveFailed: st.ConsecutiveFailed, amount: st.Amount,
		upgrade: st.Upgrade != nil}
}

func (a *Activities) syncDonation(ctx context.Context, st State) error {
	scope, did, err := orgscope.Row(ctx, a.Tenants, st.OrganizationID, "id", st.DonationID)
	if err != nil {
		return err
	}
	loc, err := location(st.Timezone)
	if err != nil {
		return temporal.NewNonRetryableApplicationError("timezone", "invalid_timezone", err)
	}
	var next *time.Time
	if !st.NextPeriod.IsZero() && st.Status != StatusDiscarded {
		n := st.CollectDay.Date(st.NextPeriod, loc)
		next = &n
	}
	row := sharddb.SyncCollectionDonationParams{OrganizationID: scope.OrgID, ID: did,
		Status: st.Status, PausedReason: st.PausedReason, PausedSince: optionalTime(st.PausedSince),
		DiscardedAt: optionalTime(st.DiscardedAt), DiscardReason: st.DiscardReason, NextChargeDate: next,
		ConsecutiveFailedPeriods: int32(st.ConsecutiveFailed), AmountMinor: st.Amount,
		PaymentMethodID: optionalUUID(st.PaymentMethod.ID), CollectDay: st.CollectDay.Column(), RollupUnchanged: true}
	if st.Upgrade == nil {
		if n, err := scope.Store().SyncCollectionDonation(ctx, row); err != nil || n == 1 {
			return err
		}
	}
	return scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		n, err := q.SyncCollectionDonation(ctx, row)
		if err != nil {
			return err
		}
		if n == 0 {
			relocked := row // row itself stays as it was: the transaction may run again
			relocked.RollupUnchanged = false
			if err := q.WithRollup(ctx, scope.OrgID, []uuid.UUID{did}, func() error {
				_, err := q.SyncCollectionDonation(ctx, relocked)
				return err
			}); err != nil {
				return err
			}
		}
		u := st.Upgrade
		if u == nil {
			return nil
		}
		uid, err := uuid.Parse(u.ID)
		if err != nil {
			return temporal.NewNonRetryableApplicationError("upgrade id", "invalid_input", err)
		}
		if err := q.UpsertCollectionUpgrade(ctx, sharddb.UpsertCollectionUpgradeParams{OrganizationID: scope.OrgID, ID: uid,
			DonationID: did, BasisPoints: u.BasisPoints, PeriodMonths: int16(u.PeriodMonths), OldAmountMinor: u.OldAmount,
			NewAmountMinor: u.NewAmount, NextDate: st.CollectDay.Date(u.NextPeriod, loc), Auto: u.Auto}); err != nil {
			return err
		}
		for _, h := range u.History {
			if err := q.AddCollectionUpgradeHistory(ctx, sharddb.AddCollectionUpgradeHistoryParams{OrganizationID: scope.OrgID,
				UpgradeID: uid, AppliedOn: st.CollectDay.Date(h.Period, loc), OldAmountMinor: h.OldAmount,
				NewAmountMinor: h.NewAmount}); err != nil {
				return err
			}
		}
		return nil
	})
}

// RemoveUpgrade marks the donation's upgrade removed (kept for history).
func (a *Activities) RemoveUpgrade(ctx context.Context, orgID, upgradeID string) error {
	defer keepAlive(ctx)()
	scope, uid, err := orgscope.Row(ctx, a.Tenants, orgID, "id", upgradeID)
	if err != nil {
		return err
	}
	return scope.Store().RemoveCollectionUpgrade(ctx, sharddb.RemoveCollectionUpgradeParams{OrganizationID: scope.OrgID, ID: uid})
}

// Version is one change in a donation's history (history.Version as the workflow sends it).
type Version struct {
	ID             string
	OrganizationID string
	DonationID     string
	Actor          string
	Field          string
	Before         any
	After          any
	At             time.Time
}

// RecordVersion writes a version once per id (the workflow's side effect chose it).
func (a *Activities) RecordVersion(ctx context.Context, v Version) error {
	defer keepAlive(ctx)()
	scope, did, err := orgscope.Row(ctx, a.Tenants, v.OrganizationID, "id", v.DonationID)
	if err != nil {
		return err
	}
	id, err := uuid.Parse(v.ID)
	if err != nil {
		return temporal.NewNonRetryableApplicationError("version id", "invalid_input", err)
	}
	return history.Record(ctx, scope.Store(), scope.OrgID, history.Version{ID: id, DonationID: did, Actor: v.Actor, Field: v.Field,
		Before: v.Before, After: v.After, At: v.At})
}

// keepAlive heartbeats every ActivityHeartbeatTimeout/5 until the returned stop is called, so
// the server notices within ActivityHeartbeatTimeout that the worker running an attempt is gone
// and retries it elsewhere. Outside a regular activity (a local one, whose worker's death is its
// workflow task's timeout, or a direct call in a test) it does nothing.
func keepAlive(ctx context.Context) (stop func()) {
	if !activity.IsActivity(ctx) || activity.GetInfo(ctx).IsLocalActivity {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(ActivityHeartbeatTimeout / 5)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

func optionalUUID(s string) *uuid.UUID {
	id, err := uuid.Parse(s)
	if err != nil {
		return nil
	}
	return &id
}

func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// CodeMonthlyDescription is what a monthly charge is called at the gateway, in the organisation's
// country's language: the donor may see it beside the descriptor.
const CodeMonthlyDescription = "collection.monthly_description"

func init() {
	i18n.Register(i18n.Catalog{
		CodeMonthlyDescription: {i18n.ES: "Donación mensual %s", i18n.EN: "Monthly donation %s", i18n.PT: "Doação mensal %s"},
	})
}
