package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
)

// UpdateChangePlan is the workflow update that changes the subscription's plan (Change in,
// ChangeResult out). The rule (README "Subscription"): a dearer plan of the same period is an
// upgrade, applied at once with the price difference charged pro rata for the rest of the paid
// period (Prorata); any other plan (cheaper, or of the other period) waits for the next period,
// which is then charged at its price. Asking for the current plan drops a waiting change.
const UpdateChangePlan = "change_plan"

// Application error types of a refused change.
const (
	ErrNotChangeable = "NotChangeable" // not active with a paid period running (pending, past due, cancelled)
	ErrUnknownPlan   = "UnknownPlan"   // not a paid plan of the organisation's country
)

// Change kinds.
const (
	ChangeUpgrade   = "upgrade"   // applied now, the difference charged
	ChangeScheduled = "scheduled" // from the next period
	ChangeKept      = "kept"      // the current plan: a waiting change was dropped
)

// Change asks for another plan. ChangeID names the change (the API's update id): with the period it
// keys the pro-rata charge, so one change is never charged twice. At is the workflow's time of the
// change; OrganizationID and SubscriptionID are the workflow's.
type Change struct {
	OrganizationID string    `json:"organization_id"`
	SubscriptionID string    `json:"subscription_id"`
	ChangeID       string    `json:"change_id"`
	PlanCode       string    `json:"plan_code"`
	At             time.Time `json:"at"`
}

// ChangeResult is what became of a change; Outcome is an upgrade's charge (paid, pending for a
// debit or transfer to be collected, failed when the card was refused and nothing changed).
type ChangeResult struct {
	Kind        string `json:"kind"`
	Outcome     string `json:"outcome,omitempty"`
	AmountMinor int64  `json:"amount_minor,omitempty"`
	Currency    string `json:"currency,omitempty"`
}

// Prorata is what an upgrade from a plan priced oldMinor to one priced newMinor costs at `at` for the
// rest of the paid period [from, until): the difference times the share of the period left, rounded
// up to the minor unit. Nothing for a cheaper plan or outside the period.
func Prorata(oldMinor, newMinor int64, from, until, at time.Time) int64 {
	if newMinor <= oldMinor || !until.After(from) || !at.Before(until) {
		return 0
	}
	if at.Before(from) {
		at = from
	}
	left, total := int64(until.Sub(at)/time.Second), int64(until.Sub(from)/time.Second)
	if total == 0 {
		return 0
	}
	n := (newMinor - oldMinor) * left
	return (n + total - 1) / total
}

// ProrataReference is the gateway reference of a change's pro-rata charge: the subscription, its
// paid period and the change.
func ProrataReference(subscriptionID uuid.UUID, periodStart time.Time, changeID uuid.UUID) string {
	return fmt.Sprintf("%s/change/%s", Reference(subscriptionID, periodStart), changeID)
}

// ChangePlan carries out a change (the rule at UpdateChangePlan). Safe to run again: the pro-rata
// invoice is keyed by the change's time, its payment by ProrataReference, and the switch happens
// only from the plan it was priced against.
func (a *Activities) ChangePlan(ctx context.Context, c Change) (ChangeResult, error) {
	s, sub, err := a.scope(ctx, c.OrganizationID, c.SubscriptionID)
	if err != nil {
		return ChangeResult{}, err
	}
	changeID, err := uuid.Parse(c.ChangeID)
	if err != nil {
		return ChangeResult{}, temporal.NewNonRetryableApplicationError("change id", ErrNotChangeable, err)
	}
	// The change's time keys its pro-rata invoice, as a period's start keys the period's. Periods start
	// on whole seconds (FirstPeriodStart), so the change is kept to the millisecond and off the whole
	// second: an upgrade in a period's first second still gets an invoice of its own.
	at := c.At.UTC().Truncate(time.Millisecond)
	if at.Equal(at.Truncate(time.Second)) {
		at = at.Add(time.Millisecond)
	}
	if sub.Status != StatusActive || sub.PaidFrom == nil || sub.PaidUntil == nil || !at.Before(*sub.PaidUntil) {
		return ChangeResult{}, temporal.NewNonRetryableApplicationError("subscription not active", ErrNotChangeable, nil)
	}
	country, err := reference.Get(ctx, s.Store(), s.Country)
	if err != nil {
		return ChangeResult{}, err
	}
	cur, _ := country.Plan(sub.PlanCode)
	to, ok := country.Plan(c.PlanCode)
	if !ok || to.Code == "original" || to.LocalizePrice.Minor <= 0 {
		return ChangeResult{}, temporal.NewNonRetryableApplicationError("unknown plan "+c.PlanCode, ErrUnknownPlan, nil)
	}
	schedule := func(next *string, kind string) (ChangeResult, error) {
		_, err := s.Store().SetNextSubscriptionPlan(ctx, sharddb.SetNextSubscriptionPlanParams{OrganizationID: s.OrgID, ID: sub.ID, NextPlanCode: next})
		if errors.Is(err, dberr.ErrNotFound) {
			return ChangeResult{}, temporal.NewNonRetryableApplicationError("subscription not active", ErrNotChangeable, err)
		}
		return ChangeResult{Kind: kind}, err
	}
	if to.Code == sub.PlanCode {
		// Also where a retried upgrade finds itself switched already: the plan is applied again.
		if res, err := schedule(nil, ChangeKept); err != nil {
			return res, err
		}
		return ChangeResult{Kind: ChangeKept}, a.Plans.Apply(ctx, s.OrgID, to.Code)
	}
	if to.Period != cur.Period || to.LocalizePrice.Minor <= cur.LocalizePrice.Minor {
		return schedule(&to.Code, ChangeScheduled)
	}

	// Both plans priced now (in pesos, at the same MEP rate); the difference charged pro rata.
	q, err := a.quote(ctx, country)
	if err != nil {
		return ChangeResult{}, err
	}
	curPrice, err := priceAt(cur, q)
	if err != nil {
		return ChangeResult{}, err
	}
	toPrice, err := priceAt(to, q)
	if err != nil {
		return ChangeResult{}, err
	}
	res := ChangeResult{Kind: ChangeUpgrade, Outcome: OutcomePaid, Currency: toPrice.Amount.Currency,
		AmountMinor: Prorata(curPrice.Amount.Minor, toPrice.Amount.Minor, *sub.PaidFrom, *sub.PaidUntil, at)}
	if res.AmountMinor > 0 {
		diff := toPrice
		diff.Amount = money.New(res.AmountMinor, res.Currency)
		if err := diff.open(ctx, s.Store(), sharddb.OpenSubscriptionInvoiceParams{
			OrganizationID: s.OrgID, SubscriptionID: sub.ID, PeriodStart: at, PeriodEnd: *sub.PaidUntil, PlanCode: to.Code,
			PaymentMode: sub.PaymentMode, Kind: "prorata", ChangeID: &changeID,
		}); err != nil {
			return res, err
		}
		inv, err := s.Store().SubscriptionInvoice(ctx, sharddb.SubscriptionInvoiceParams{OrganizationID: s.OrgID, SubscriptionID: sub.ID, PeriodStart: at})
		if err != nil {
			return res, err
		}
		if inv.ChangeID == nil || *inv.ChangeID != changeID {
			// Another invoice holds the key: never read its payment as this change's.
			return res, temporal.NewNonRetryableApplicationError("the change's invoice key is taken", ErrNotChangeable, nil)
		}
		res.Outcome = inv.Status
		if inv.Status != OutcomePaid && sub.PaymentMode == "card" {
			status, paymentID, detail, err := a.chargeCard(ctx, s, sub, inv, ProrataReference(sub.ID, *sub.PaidFrom, changeID), 1)
			if err != nil {
				return res, err
			}
			p := sharddb.RecordSubscriptionInvoiceParams{OrganizationID: s.OrgID, SubscriptionID: sub.ID, PeriodStart: at,
				Status: status, Attempt: 1, Now: time.Now()}
			if paymentID != "" {
				p.GatewayPaymentID = &paymentID
			}
			if detail != "" {
				p.StatusDetail = &detail
			}
			if _, err := s.Store().RecordSubscriptionInvoice(ctx, p); err != nil {
				return res, err
			}
			res.Outcome = status
		}
		// A debit or transfer stays pending until collected (RecordPayment); the upgrade applies
		// meanwhile, as it would for a card payment still being decided.
		if res.Outcome == OutcomeFailed {
			return res, nil
		}
	}
	if _, err := s.Store().SwitchSubscriptionPlan(ctx, sharddb.SwitchSubscriptionPlanParams{
		OrganizationID: s.OrgID, ID: sub.ID, PlanCode: to.Code, FromPlan: sub.PlanCode}); err != nil && !errors.Is(err, dberr.ErrNotFound) {
		return res, err
	}
	return res, a.Plans.Apply(ctx, s.OrgID, to.Code)
}
