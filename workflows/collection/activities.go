package collection

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/subscription"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// Charger is what collection needs from a payment gateway.
type Charger interface {
	Charge(ctx context.Context, c gateway.Charge) (gateway.Payment, error)
	FindPayments(ctx context.Context, externalReference string) ([]gateway.Payment, error)
}

// Chargers gives the gateway account an organisation collects with.
type Chargers interface {
	Charger(ctx context.Context, orgID uuid.UUID, currency string) (Charger, error)
}

// ChargersFunc adapts a function to Chargers.
type ChargersFunc func(ctx context.Context, orgID uuid.UUID, currency string) (Charger, error)

// Charger calls f.
func (f ChargersFunc) Charger(ctx context.Context, orgID uuid.UUID, currency string) (Charger, error) {
	return f(ctx, orgID, currency)
}

// Activities hold collection's side effects. Every one is idempotent: charges are keyed by
// donation and period (and attempt), rows are upserted on the same keys.
type Activities struct {
	Tenants  *tenants.Tenants
	Chargers Chargers
}

// Snapshot is a donation as the shard stores it, read when its workflow first starts.
type Snapshot struct {
	OrganizationID    string
	DonationID        string
	Amount            int64
	Currency          string
	CollectDay        int
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
	scope, did, err := a.scope(ctx, orgID, donationID)
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{OrganizationID: orgID, DonationID: donationID}
	pm := &s.PaymentMethod
	err = scope.QueryRow(ctx, queries.Get("LoadDonation"), scope.OrgID, did).Scan(
		&s.Amount, &s.Currency, &s.CollectDay, &s.Recurrence, &s.Status, &s.PausedReason, &s.Timezone, &s.Email,
		&s.ConsecutiveFailed, &pm.ID, &pm.CustomerID, &pm.CardID, &pm.Brand, &pm.BIN, &pm.LastFour,
		&pm.ExpiryMonth, &pm.ExpiryYear, &pm.HolderName)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, temporal.NewNonRetryableApplicationError("donation not found", "not_found", err)
	}
	if err != nil {
		return s, err
	}
	if s.Recurrence != 1 {
		return s, temporal.NewNonRetryableApplicationError("donation is not monthly", "not_monthly", nil)
	}
	return s, nil
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
}

// ChargeResult is what the gateway decided for the period.
type ChargeResult struct {
	Attempt      int    // the attempt whose payment this is (an earlier one when read back)
	Status       string // a transaction status (spec §4)
	StatusDetail string
	PausedReason string
	PaymentID    string
}

// Approved says whether the period is paid.
func (r ChargeResult) Approved() bool { return r.Status == string(gateway.StatusApproved) }

// ChargeKey is the idempotency key and external reference of an attempt: "<donation>/<YYYY-MM>"
// for the first, "<donation>/<YYYY-MM>/<n>" for the retries of the schedule. A retried activity
// reuses its attempt's key, so the gateway answers the first payment instead of charging again.
func ChargeKey(donationID, period string, attempt int) string {
	if attempt <= 1 {
		return donationID + "/" + period
	}
	return fmt.Sprintf("%s/%s/%d", donationID, period, attempt)
}

// Charge charges one attempt of a period, at most once and never after an approval:
//  1. it reads back the payments of every attempt of the period so far; an approved one settles
//     the period without a new charge, a pending one is waited for, and its own attempt's payment
//     (a crash after the gateway answered) is taken as the answer;
//  2. otherwise it charges with the attempt's idempotency key;
//  3. an unknown outcome (timeout, 5xx) is read back by external reference; when the gateway has no
//     record yet, the activity fails and Temporal retries it, starting again at 1 with the same key.
func (a *Activities) Charge(ctx context.Context, r ChargeRequest) (ChargeResult, error) {
	defer keepAlive(ctx)()
	scope, did, err := a.scope(ctx, r.OrganizationID, r.DonationID)
	if err != nil {
		return ChargeResult{}, err
	}
	g, err := a.Chargers.Charger(ctx, scope.OrgID, r.Currency)
	if err != nil {
		return ChargeResult{}, err
	}
	for i := 1; i <= r.Attempt; i++ {
		ps, err := g.FindPayments(ctx, ChargeKey(r.DonationID, r.Period, i))
		if err != nil {
			return ChargeResult{}, fmt.Errorf("read back attempt %d: %w", i, err)
		}
		if len(ps) == 0 {
			continue
		}
		p := ps[0] // newest first
		for _, q := range ps {
			if q.Status == gateway.StatusApproved {
				p = q
				break
			}
		}
		if p.Status == gateway.StatusApproved || i == r.Attempt || pending(p.Status) {
			return a.settle(ctx, scope, did, r, i, p)
		}
	}

	key := ChargeKey(r.DonationID, r.Period, r.Attempt)
	p, err := g.Charge(ctx, gateway.Charge{
		IdempotencyKey: key, ExternalReference: key,
		Amount:      money.Amount{Minor: r.Amount, Currency: r.Currency},
		Description: "Donación mensual " + r.Period,
		CustomerID:  r.PaymentMethod.CustomerID, CardID: r.PaymentMethod.CardID,
		PaymentMethodID: r.PaymentMethod.Brand, Email: r.Email,
		Metadata: map[string]string{"donation_id": r.DonationID, "period": r.Period},
	})
	var unknown *gateway.UnknownOutcomeError
	var refused *gateway.Error
	switch {
	case errors.As(err, &unknown):
		ps, ferr := g.FindPayments(ctx, key)
		if ferr != nil || len(ps) == 0 {
			return ChargeResult{}, fmt.Errorf("charge %s: outcome unknown and not found yet: %w", key, err)
		}
		p = ps[0]
	case errors.As(err, &refused) && refused.Status < http.StatusInternalServerError:
		// Refused before any payment existed: the attempt is rejected, and some refusals mean the
		// card can never be charged.
		res := ChargeResult{Attempt: r.Attempt, Status: string(gateway.StatusRejected), StatusDetail: refused.Error(),
			PausedReason: refusalReason(refused)}
		return res, a.upsertTransaction(ctx, scope, did, r, r.Attempt, res, time.Now())
	case err != nil:
		return ChargeResult{}, err
	}
	return a.settle(ctx, scope, did, r, r.Attempt, p)
}

func pending(s gateway.Status) bool {
	return s == gateway.StatusPending || s == gateway.StatusInProcess || s == gateway.StatusInMediation
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

var transactionStatuses = map[gateway.Status]bool{
	gateway.StatusApproved: true, gateway.StatusCancelled: true, gateway.StatusChargedBack: true,
	gateway.StatusInMediation: true, gateway.StatusInProcess: true, gateway.StatusPending: true,
	gateway.StatusRefunded: true, gateway.StatusRejected: true, gateway.StatusPlanned: true,
	gateway.StatusNonExistent: true,
}

func (a *Activities) settle(ctx context.Context, scope tenants.Scope, did uuid.UUID, r ChargeRequest, attempt int, p gateway.Payment) (ChargeResult, error) {
	status := p.Status
	if !transactionStatuses[status] {
		status = gateway.StatusPending // a provider state we do not model yet (authorized…): not paid
	}
	res := ChargeResult{Attempt: attempt, Status: string(status), StatusDetail: p.StatusDetail,
		PausedReason: string(p.PausedReason), PaymentID: p.ID}
	at := p.CreatedAt
	if at.IsZero() {
		at = time.Now()
	}
	return res, a.upsertTransaction(ctx, scope, did, r, attempt, res, at)
}

// upsertTransaction stores an attempt's outcome; an approval is stored with Aporta's post-trial
// commission (if the organisation owes one) in the same database transaction.
func (a *Activities) upsertTransaction(ctx context.Context, scope tenants.Scope, did uuid.UUID, r ChargeRequest, attempt int, res ChargeResult, at time.Time) error {
	id := uuid.NewSHA1(did, []byte(fmt.Sprintf("transaction/%s/%d", r.Period, attempt)))
	args := []any{scope.OrgID, id, did, r.Period, attempt, r.Amount,
		r.Currency, res.Status, res.StatusDetail, res.PaymentID, optionalUUID(r.PaymentMethod.ID), at}
	if !res.Approved() {
		return scope.Exec(ctx, queries.Get("UpsertTransaction"), args...)
	}
	return scope.Tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, queries.Get("UpsertTransaction"), args...); err != nil {
			return err
		}
		return subscription.RecordCommission(ctx, tx, scope.OrgID, id)
	})
}

// SyncDonation writes the workflow's state to the donation's row and its upgrade. Idempotent: it
// writes absolute values.
func (a *Activities) SyncDonation(ctx context.Context, st State) error {
	defer keepAlive(ctx)()
	scope, did, err := a.scope(ctx, st.OrganizationID, st.DonationID)
	if err != nil {
		return err
	}
	loc, err := location(st.Timezone)
	if err != nil {
		return temporal.NewNonRetryableApplicationError("timezone", "invalid_timezone", err)
	}
	return scope.Tx(ctx, func(tx pgx.Tx) error {
		next := ""
		if !st.NextPeriod.IsZero() && st.Status != StatusDiscarded {
			next = ChargeDate(st.NextPeriod, st.CollectDay, loc).Format(time.DateOnly)
		}
		if _, err := tx.Exec(ctx, queries.Get("SyncDonation"), scope.OrgID, did, st.Status, st.PausedReason,
			optionalTime(st.PausedSince), optionalTime(st.DiscardedAt), st.DiscardReason, next,
			st.ConsecutiveFailed, st.Amount, optionalUUID(st.PaymentMethod.ID), st.CollectDay); err != nil {
			return err
		}
		u := st.Upgrade
		if u == nil {
			return nil
		}
		uid, err := uuid.Parse(u.ID)
		if err != nil {
			return temporal.NewNonRetryableApplicationError("upgrade id", "invalid_input", err)
		}
		if _, err := tx.Exec(ctx, queries.Get("UpsertUpgrade"), scope.OrgID, uid, did, u.BasisPoints, u.PeriodMonths,
			u.OldAmount, u.NewAmount, ChargeDate(u.NextPeriod, st.CollectDay, loc).Format(time.DateOnly), u.Auto); err != nil {
			return err
		}
		for _, h := range u.History {
			if _, err := tx.Exec(ctx, queries.Get("AddUpgradeHistory"), scope.OrgID, uid,
				ChargeDate(h.Period, st.CollectDay, loc).Format(time.DateOnly), h.OldAmount, h.NewAmount); err != nil {
				return err
			}
		}
		return nil
	})
}

// RemoveUpgrade marks the donation's upgrade removed (kept for history).
func (a *Activities) RemoveUpgrade(ctx context.Context, orgID, upgradeID string) error {
	defer keepAlive(ctx)()
	scope, uid, err := a.scope(ctx, orgID, upgradeID)
	if err != nil {
		return err
	}
	return scope.Exec(ctx, queries.Get("RemoveUpgrade"), scope.OrgID, uid)
}

// Version is one change in a donation's history: who changed which field, from what, to what, when.
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

// RecordVersion inserts a version row once per id.
func (a *Activities) RecordVersion(ctx context.Context, v Version) error {
	defer keepAlive(ctx)()
	scope, did, err := a.scope(ctx, v.OrganizationID, v.DonationID)
	if err != nil {
		return err
	}
	id, err := uuid.Parse(v.ID)
	if err != nil {
		return temporal.NewNonRetryableApplicationError("version id", "invalid_input", err)
	}
	before, err := jsonOrNil(v.Before)
	if err != nil {
		return err
	}
	after, err := jsonOrNil(v.After)
	if err != nil {
		return err
	}
	return scope.Exec(ctx, queries.Get("RecordVersion"), scope.OrgID, id, did, v.Actor, v.Field, before, after, v.At)
}

func jsonOrNil(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	return json.Marshal(v)
}

// keepAlive heartbeats every ActivityHeartbeatTimeout/5 until the returned stop is called, so
// the server notices within ActivityHeartbeatTimeout that the worker running an attempt is gone
// and retries it elsewhere. Outside an activity (a direct call in a test) it does nothing.
func keepAlive(ctx context.Context) (stop func()) {
	if !activity.IsActivity(ctx) {
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

func (a *Activities) scope(ctx context.Context, orgID, id string) (tenants.Scope, uuid.UUID, error) {
	oid, err := uuid.Parse(orgID)
	if err != nil {
		return tenants.Scope{}, uuid.Nil, temporal.NewNonRetryableApplicationError("organization id", "invalid_input", err)
	}
	did, err := uuid.Parse(id)
	if err != nil {
		return tenants.Scope{}, uuid.Nil, temporal.NewNonRetryableApplicationError("id", "invalid_input", err)
	}
	scope, err := a.Tenants.ForOrganization(ctx, oid)
	if errors.Is(err, tenants.ErrUnknownOrganization) {
		return scope, did, temporal.NewNonRetryableApplicationError("unknown organization", "not_found", err)
	}
	return scope, did, err
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
