package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/internal/bankdebit"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// ErrUnknownSubscription is the application error type of a subscription missing from its shard.
const ErrUnknownSubscription = "UnknownSubscription"

// Platform is the platform's own gateway account, the one every organisation's subscription is
// charged through (never the organisation's own account).
type Platform interface {
	Gateway(currency string) (charge.Gateway, error)
}

// Plans applies the plan on the organisation (the subscription workflow keeps the organisation's
// plan and restriction; workflows/subscription.Plans implements it).
type Plans interface {
	Apply(ctx context.Context, orgID uuid.UUID, plan string) error
	Lapse(ctx context.Context, orgID uuid.UUID) error
}

// DirectDebits is the bank-debit network the platform collects CBU debits through
// (*bankdebit.Client).
type DirectDebits interface {
	Submit(ctx context.Context, key string, d bankdebit.Debit) (bankdebit.Debit, error)
	Find(ctx context.Context, reference string) ([]bankdebit.Debit, error)
}

// Activities hold the billing workflow's side effects. The API's checkout charges the first period
// through the same ChargePeriod and Activate.
type Activities struct {
	Tenants   *tenants.Tenants
	Platform  Platform
	Debits    DirectDebits
	Plans     Plans
	Rates     Rates // the MEP rate ARS periods are charged at
	Mail      outbox.Mailer
	PublicURL string // links the e-mails to /manage/settings/subscription
}

// PeriodEnd is the end of the period that starts at start: a month or a year later.
func PeriodEnd(start time.Time, period string) time.Time {
	if period == "yearly" {
		return start.AddDate(1, 0, 0)
	}
	return start.AddDate(0, 1, 0)
}

// FirstPeriodStart is when a subscription's first period starts: its creation, to the second (the
// API's first charge and the workflow's read-back name the same period).
func FirstPeriodStart(createdAt time.Time) time.Time { return createdAt.UTC().Truncate(time.Second) }

// Reference is the gateway payment's external reference of one period of a subscription; each
// attempt's idempotency key is Reference + "/" + attempt.
func Reference(subscriptionID uuid.UUID, periodStart time.Time) string {
	return fmt.Sprintf("aporta-plan/%s/%s", subscriptionID, periodStart.UTC().Format("20060102T150405Z"))
}

func (a *Activities) scope(ctx context.Context, orgID, subID string) (tenants.Scope, sharddb.OrganizationSubscription, error) {
	s, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return s, sharddb.OrganizationSubscription{}, err
	}
	id, err := uuid.Parse(subID)
	if err != nil {
		return s, sharddb.OrganizationSubscription{}, temporal.NewNonRetryableApplicationError("subscription id", ErrUnknownSubscription, err)
	}
	sub, err := s.Store().OrganizationSubscription(ctx, sharddb.OrganizationSubscriptionParams{OrganizationID: s.OrgID, ID: &id})
	if errors.Is(err, dberr.ErrNotFound) {
		return s, sub, temporal.NewNonRetryableApplicationError("unknown subscription", ErrUnknownSubscription, err)
	}
	return s, sub, err
}

// Load reads the subscription.
func (a *Activities) Load(ctx context.Context, orgID, subID string) (State, error) {
	_, sub, err := a.scope(ctx, orgID, subID)
	if err != nil {
		return State{}, err
	}
	return State{Status: sub.Status, PaymentMode: sub.PaymentMode, PlanCode: sub.PlanCode, NextPlanCode: deref(sub.NextPlanCode),
		CreatedAt: FirstPeriodStart(sub.CreatedAt), PaidUntil: sub.PaidUntil}, nil
}

// ChargePeriod makes one attempt at the period starting at.PeriodStart and answers the outcome.
// Safe to run again: a paid period is never charged, an approved or undecided payment (or debit)
// under the period's reference is read back instead of charging, and a retried attempt sends the
// same idempotency key. A card is charged at once; a CBU debit is submitted to the bank, which
// decides it later (OutcomeSubmitted: call again to read it back); a bank transfer is pending until
// staff record it.
func (a *Activities) ChargePeriod(ctx context.Context, at Attempt) (string, error) {
	s, sub, err := a.scope(ctx, at.OrganizationID, at.SubscriptionID)
	if err != nil {
		return "", err
	}
	// A plan waiting for the next period (a downgrade) becomes the plan the period is charged at.
	if sub.NextPlanCode != nil && sub.PaidUntil != nil && !at.PeriodStart.Before(*sub.PaidUntil) {
		renewed, err := s.Store().RenewWithNextPlan(ctx, sharddb.RenewWithNextPlanParams{OrganizationID: s.OrgID, ID: sub.ID, PeriodStart: at.PeriodStart.UTC()})
		if err != nil && !errors.Is(err, dberr.ErrNotFound) {
			return "", err
		}
		if err == nil {
			sub = renewed
		}
	}
	start := at.PeriodStart.UTC()
	inv, err := s.Store().SubscriptionInvoice(ctx, sharddb.SubscriptionInvoiceParams{
		OrganizationID: s.OrgID, SubscriptionID: sub.ID, PeriodStart: start,
	})
	if errors.Is(err, dberr.ErrNotFound) {
		// The first attempt prices the period: in pesos at the MEP rate in force now, which the
		// invoice keeps for every retry.
		inv, err = a.openPeriod(ctx, s, sub, start)
	}
	if err != nil {
		return "", err
	}
	if inv.Status == OutcomePaid {
		return OutcomePaid, paidThrough(ctx, s, sub.ID, inv.PeriodStart, inv.PeriodEnd)
	}
	record := func(status, paymentID, detail string) (string, error) {
		p := sharddb.RecordSubscriptionInvoiceParams{OrganizationID: s.OrgID, SubscriptionID: sub.ID, PeriodStart: start,
			Status: status, Attempt: int32(at.Number), Now: time.Now()}
		if status == OutcomeSubmitted {
			p.Status = OutcomePending
		}
		if paymentID != "" {
			p.GatewayPaymentID = &paymentID
		}
		if detail != "" {
			p.StatusDetail = &detail
		}
		if _, err := s.Store().RecordSubscriptionInvoice(ctx, p); err != nil {
			return "", err
		}
		switch status {
		case OutcomeSubmitted: // the invoice is pending while the bank decides
			return status, nil
		case OutcomePaid:
			return status, paidThrough(ctx, s, sub.ID, inv.PeriodStart, inv.PeriodEnd)
		case OutcomeFailed:
			if sub.Status == StatusActive {
				_, err := s.Store().SetSubscriptionStatus(ctx, sharddb.SetSubscriptionStatusParams{OrganizationID: s.OrgID, ID: sub.ID, Status: StatusPastDue})
				return status, err
			}
		}
		return status, nil
	}
	ref := Reference(sub.ID, start)
	// A payment of the period already under way on another method (the method was changed while a
	// debit was with the bank, or while a card payment was in review) is followed to its end first:
	// changing the method never pays a period twice.
	if status, paymentID, ok, err := a.inFlight(ctx, sub.PaymentMode, inv.Currency, ref); err != nil {
		return "", err
	} else if ok {
		return record(status, paymentID, "")
	}
	var status, paymentID, detail string
	switch sub.PaymentMode {
	case "card":
		status, paymentID, detail, err = a.chargeCard(ctx, s, sub, inv, ref, at.Number)
	case "cbu":
		status, paymentID, detail, err = a.debitCBU(ctx, s, sub, inv, ref, at.Number)
	default:
		return record(OutcomePending, "", "")
	}
	if err != nil {
		return "", err
	}
	return record(status, paymentID, detail)
}

// openPeriod opens the invoice of the period starting at start, priced now.
func (a *Activities) openPeriod(ctx context.Context, s tenants.Scope, sub sharddb.OrganizationSubscription, start time.Time) (sharddb.SubscriptionInvoice, error) {
	country, err := reference.Get(ctx, s.Store(), s.Country)
	if err != nil {
		return sharddb.SubscriptionInvoice{}, err
	}
	plan, ok := country.Plan(sub.PlanCode)
	if !ok {
		return sharddb.SubscriptionInvoice{}, temporal.NewNonRetryableApplicationError("no price for "+sub.PlanCode+" in "+s.Country, ErrUnknownPlan, nil)
	}
	price, err := a.Price(ctx, country, plan)
	if err != nil {
		return sharddb.SubscriptionInvoice{}, err
	}
	if err := price.open(ctx, s.Store(), sharddb.OpenSubscriptionInvoiceParams{
		OrganizationID: s.OrgID, SubscriptionID: sub.ID, PeriodStart: start, PeriodEnd: PeriodEnd(start, plan.Period),
		PlanCode: sub.PlanCode, PaymentMode: sub.PaymentMode, Kind: "period",
	}); err != nil {
		return sharddb.SubscriptionInvoice{}, err
	}
	return s.Store().SubscriptionInvoice(ctx, sharddb.SubscriptionInvoiceParams{OrganizationID: s.OrgID, SubscriptionID: sub.ID, PeriodStart: start})
}

// inFlight finds a payment under ref made on a method other than mode that paid the invoice or may
// still pay it: a CBU debit confirmed (paid) or with the bank (submitted), a card payment approved
// (paid) or undecided (pending). Refused ones leave the period to mode.
func (a *Activities) inFlight(ctx context.Context, mode, currency, ref string) (string, string, bool, error) {
	if mode != "cbu" && a.Debits != nil {
		debits, err := a.Debits.Find(ctx, ref)
		if err != nil {
			return "", "", false, err
		}
		for _, d := range debits {
			switch d.Status {
			case bankdebit.Confirmed:
				return OutcomePaid, d.ID, true, nil
			case bankdebit.Submitted:
				return OutcomeSubmitted, d.ID, true, nil
			}
		}
	}
	if mode != "card" && a.Platform != nil {
		g, err := a.Platform.Gateway(currency)
		if err != nil {
			return "", "", false, nil // no card account in this currency: no card payment either
		}
		p, found, err := charge.Find(ctx, g, ref)
		if err != nil || !found {
			return "", "", false, err
		}
		switch o := charge.OutcomeOf(p); {
		case o.Approved():
			return OutcomePaid, o.PaymentID, true, nil
		case o.Pending():
			return OutcomePending, o.PaymentID, true, nil
		}
	}
	return "", "", false, nil
}

// chargeCard charges an invoice on the subscription's card at the platform's account under ref and
// answers the outcome (paid, pending or failed), the gateway payment and its detail. An approved or
// undecided payment already under ref is read back instead; attempt n sends the key ref/n, so a
// retried activity gets its payment back. An error is an unknown outcome: the caller retries.
func (a *Activities) chargeCard(ctx context.Context, s tenants.Scope, sub sharddb.OrganizationSubscription, inv sharddb.SubscriptionInvoice, ref string, n int) (string, string, string, error) {
	auth, err := s.Store().SubscriptionAuthorization(ctx, sharddb.SubscriptionAuthorizationParams{OrganizationID: s.OrgID, ID: sub.AuthorizationID})
	if err != nil {
		return "", "", "", err
	}
	g, err := a.Platform.Gateway(inv.Currency)
	if err != nil {
		return "", "", "", temporal.NewNonRetryableApplicationError("no platform account", "NoPlatformAccount", err)
	}
	p, found, err := charge.Find(ctx, g, ref)
	if err != nil {
		return "", "", "", err
	}
	if !found || !(charge.OutcomeOf(p).Approved() || charge.OutcomeOf(p).Pending()) {
		p, err = g.Charge(ctx, gateway.Charge{
			IdempotencyKey: fmt.Sprintf("%s/%d", ref, n), ExternalReference: ref,
			Amount:      money.New(inv.AmountMinor, inv.Currency),
			Description: "Aporta " + inv.PlanCode, CustomerID: deref(auth.CustomerID), CardID: deref(auth.CardID),
			PaymentMethodID: deref(auth.CardBrand),
			Metadata:        map[string]string{"organization_id": s.OrgID.String(), "subscription_id": sub.ID.String()},
		})
		// A lost answer or a 5xx may have moved money (an UnknownOutcomeError wraps the 5xx's
		// *gateway.Error, so it is told apart first): the retry reads the payment back. Only a
		// refusal is a failed attempt.
		var unknown *gateway.UnknownOutcomeError
		var refused *gateway.Error
		switch {
		case errors.As(err, &unknown):
			return "", "", "", err
		case errors.As(err, &refused):
			return OutcomeFailed, "", refused.Error(), nil
		case err != nil:
			return "", "", "", err
		}
	}
	switch o := charge.OutcomeOf(p); {
	case o.Approved():
		return OutcomePaid, o.PaymentID, o.Detail, nil
	case o.Pending():
		return OutcomePending, o.PaymentID, o.Detail, nil
	default:
		return OutcomeFailed, o.PaymentID, o.Detail, nil
	}
}

// debitCBU collects an invoice by direct debit against the subscription's CBU mandate under ref and
// answers the outcome (submitted, paid or failed), the debit and the bank's reason. One debit per
// attempt at most: a debit already confirmed pays the period, one the bank has not decided is
// awaited, and the latest one rejected is this attempt's failure once the invoice counts this
// attempt (it is recorded when submitted). Attempt n submits with the key ref/n, so a retried
// activity gets its debit back. An error is an unknown outcome: the caller retries.
func (a *Activities) debitCBU(ctx context.Context, s tenants.Scope, sub sharddb.OrganizationSubscription, inv sharddb.SubscriptionInvoice, ref string, n int) (string, string, string, error) {
	if a.Debits == nil {
		return "", "", "", temporal.NewNonRetryableApplicationError("no bank-debit network", "NoBankDebit", nil)
	}
	debits, err := a.Debits.Find(ctx, ref)
	if err != nil {
		return "", "", "", err
	}
	for _, d := range debits {
		if d.Status == bankdebit.Confirmed {
			return OutcomePaid, d.ID, "", nil
		}
	}
	if len(debits) > 0 {
		switch last := debits[len(debits)-1]; {
		case last.Status == bankdebit.Submitted:
			return OutcomeSubmitted, last.ID, "", nil
		case last.Status == bankdebit.Rejected && int(inv.Attempts) >= n:
			return OutcomeFailed, last.ID, last.Reason, nil
		}
	}
	auth, err := s.Store().SubscriptionAuthorization(ctx, sharddb.SubscriptionAuthorizationParams{OrganizationID: s.OrgID, ID: sub.AuthorizationID})
	if err != nil {
		return "", "", "", err
	}
	if auth.Cbu == nil || auth.MandateAcceptedAt == nil {
		return OutcomeFailed, "", "no CBU mandate", nil
	}
	d, err := a.Debits.Submit(ctx, fmt.Sprintf("%s/%d", ref, n), bankdebit.Debit{
		MandateID: auth.ID.String(), CBU: *auth.Cbu, AmountMinor: inv.AmountMinor, Currency: inv.Currency,
		Reference: ref, Description: "Aporta " + inv.PlanCode,
	})
	var refused *gateway.Error
	switch {
	case errors.As(err, new(*gateway.UnknownOutcomeError)):
		return "", "", "", err
	case errors.As(err, &refused):
		return OutcomeFailed, "", refused.Error(), nil
	case err != nil:
		return "", "", "", err
	}
	return OutcomeSubmitted, d.ID, "", nil
}

// RecordPayment records a payment made outside the gateway (staff saw the bank transfer, or a CBU
// debit collected outside the network) on the organisation's live subscription of plan: its oldest unpaid
// invoice is paid and the paid window moves. It reports whether there was one; the caller then
// wakes the workflow (Client.Changed), which applies the plan on its next look.
func RecordPayment(ctx context.Context, s tenants.Scope, plan string) (uuid.UUID, bool, error) {
	sub, err := s.Store().OrganizationSubscription(ctx, sharddb.OrganizationSubscriptionParams{OrganizationID: s.OrgID})
	if errors.Is(err, dberr.ErrNotFound) || err == nil && (sub.PlanCode != plan || sub.PaymentMode == "card") {
		return uuid.Nil, false, nil
	}
	if err != nil {
		return uuid.Nil, false, err
	}
	invs, err := s.Store().SubscriptionInvoices(ctx, sharddb.SubscriptionInvoicesParams{OrganizationID: s.OrgID, SubscriptionID: &sub.ID})
	if err != nil {
		return uuid.Nil, false, err
	}
	for i := len(invs) - 1; i >= 0; i-- { // oldest first
		inv := invs[i]
		if inv.Status == OutcomePaid {
			continue
		}
		if _, err := s.Store().RecordSubscriptionInvoice(ctx, sharddb.RecordSubscriptionInvoiceParams{OrganizationID: s.OrgID,
			SubscriptionID: sub.ID, PeriodStart: inv.PeriodStart, Status: OutcomePaid, Attempt: inv.Attempts,
			Now: time.Now()}); err != nil {
			return uuid.Nil, false, err
		}
		return sub.ID, true, paidThrough(ctx, s, sub.ID, inv.PeriodStart, inv.PeriodEnd)
	}
	return uuid.Nil, false, nil
}

func paidThrough(ctx context.Context, s tenants.Scope, subID uuid.UUID, start, end time.Time) error {
	_, err := s.Store().MarkSubscriptionPaidThrough(ctx, sharddb.MarkSubscriptionPaidThroughParams{
		OrganizationID: s.OrgID, ID: subID, PeriodStart: start, PeriodEnd: end,
	})
	return err
}

// Activate applies the subscription's plan to the organisation once its first period is paid.
func (a *Activities) Activate(ctx context.Context, orgID, subID string) error {
	s, sub, err := a.scope(ctx, orgID, subID)
	if err != nil {
		return err
	}
	return a.Plans.Apply(ctx, s.OrgID, sub.PlanCode)
}

// End ends the subscription (its paid period is over after a cancellation, or the last retry
// failed) and puts the organisation back under the restriction.
func (a *Activities) End(ctx context.Context, orgID, subID string, lapsed bool) error {
	s, sub, err := a.scope(ctx, orgID, subID)
	if err != nil {
		return err
	}
	if _, err := s.Store().SetSubscriptionStatus(ctx, sharddb.SetSubscriptionStatusParams{OrganizationID: s.OrgID, ID: sub.ID, Status: StatusEnded}); err != nil {
		return err
	}
	if sub.PaidUntil == nil && !lapsed {
		return nil // never paid: the plan was never applied
	}
	return a.Plans.Lapse(ctx, s.OrgID)
}

// PaymentFailed e-mails the administrators once per failed attempt, with a link to change the
// payment method.
func (a *Activities) PaymentFailed(ctx context.Context, at Attempt) error {
	s, sub, err := a.scope(ctx, at.OrganizationID, at.SubscriptionID)
	if err != nil {
		return err
	}
	facts, err := s.Store().OrganizationFacts(ctx, s.OrgID)
	if err != nil {
		return err
	}
	inv, err := s.Store().SubscriptionInvoice(ctx, sharddb.SubscriptionInvoiceParams{OrganizationID: s.OrgID, SubscriptionID: sub.ID, PeriodStart: at.PeriodStart.UTC()})
	if errors.Is(err, dberr.ErrNotFound) {
		return nil // nothing charged, nothing to tell
	}
	if err != nil {
		return err
	}
	lang, _ := i18n.Parse(facts.Locale)
	msg, err := outbox.Compose("", "subscription_payment_failed", lang, map[string]any{
		"Org": facts.Name, "Plan": sub.PlanCode, "Amount": money.New(inv.AmountMinor, inv.Currency).Format(),
		"URL": a.PublicURL + "/manage/settings/subscription",
	})
	if err != nil {
		return err
	}
	return a.Mail.ToAdministrators(ctx, s.OrgID, fmt.Sprintf("billing_failed/%s/%d", Reference(sub.ID, at.PeriodStart), at.Number), msg)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
