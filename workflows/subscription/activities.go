package subscription

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// ErrUnknownPlan is the application error type of a plan code missing from the plans table.
const ErrUnknownPlan = "UnknownPlan"

// Email is one message to the organisation's administrators. Key makes a retried activity queue it
// once.
type Email struct {
	Key         string    `json:"key"`
	Kind        string    `json:"kind"`
	TrialEndsAt time.Time `json:"trial_ends_at,omitempty"`
	PlanCode    string    `json:"plan_code,omitempty"`
}

// Activities hold the subscription workflow's side effects.
type Activities struct {
	Tenants *tenants.Tenants
	Mail    outbox.Mailer
	// PublicURL links the e-mails to the plans page.
	PublicURL string
}

// state is the subscription part of an organisation's row.
func state(o sharddb.Organization) State {
	return State{
		PlanCode: o.PlanCode, Status: o.SubscriptionStatus, TrialStartedAt: o.TrialStartedAt, TrialEndsAt: o.TrialEndsAt,
		CommissionBps: int(o.CommissionBps), Accepting: o.AcceptingDonations,
	}
}

// stateAfter answers an activity's update of the organisation row (err: the update's) with the
// subscription it left.
func stateAfter(ctx context.Context, s tenants.Scope, err error) (State, error) {
	if errors.Is(err, dberr.ErrNotFound) {
		return State{}, temporal.NewNonRetryableApplicationError("unknown organization", "UnknownOrganization", err)
	}
	if err != nil {
		return State{}, err
	}
	sum, err := Get(ctx, s)
	return sum.State, err
}

// Begin starts the trial of an original customer (once: trial dates are never moved) or marks a
// paying organisation active, and answers the subscription.
func (a *Activities) Begin(ctx context.Context, orgID string, now time.Time, length time.Duration) (State, error) {
	s, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return State{}, err
	}
	_, err = s.Store().BeginSubscription(ctx, sharddb.BeginSubscriptionParams{
		OrganizationID: s.OrgID, TrialStarts: now, TrialEnds: now.Add(length),
	})
	return stateAfter(ctx, s, err)
}

// EndTrial applies the post-trial restriction unless a plan was bought.
func (a *Activities) EndTrial(ctx context.Context, orgID string) (State, error) {
	s, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return State{}, err
	}
	_, err = s.Store().EndSubscriptionTrial(ctx, sharddb.EndSubscriptionTrialParams{
		OrganizationID: s.OrgID, CommissionBps: CommissionBps,
	})
	return stateAfter(ctx, s, err)
}

// ApplyPlan stores a bought plan: the restriction (if any) ends.
func (a *Activities) ApplyPlan(ctx context.Context, orgID, plan string, now time.Time) (State, error) {
	s, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return State{}, err
	}
	ok, err := PlanExists(ctx, s, plan)
	if err != nil {
		return State{}, err
	}
	if !ok {
		return State{}, temporal.NewNonRetryableApplicationError("unknown plan "+plan, ErrUnknownPlan, nil)
	}
	_, err = s.Store().ApplySubscriptionPlan(ctx, sharddb.ApplySubscriptionPlanParams{
		OrganizationID: s.OrgID, PlanCode: plan, PurchasedAt: now,
	})
	return stateAfter(ctx, s, err)
}

// LapsePlan ends a bought plan (unpaid after the last retry, or cancelled and over): the original
// plan under the restriction.
func (a *Activities) LapsePlan(ctx context.Context, orgID string) (State, error) {
	s, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return State{}, err
	}
	_, err = s.Store().LapseSubscriptionPlan(ctx, sharddb.LapseSubscriptionPlanParams{OrganizationID: s.OrgID, CommissionBps: CommissionBps})
	return stateAfter(ctx, s, err)
}

// RecordCommissions is the daily commission sweep of runs recorded before collection recorded
// commissions at charge time (versionCommissionAtCharge): it records the commission of every
// approved charge since the trial ended that has none yet. Idempotent.
func (a *Activities) RecordCommissions(ctx context.Context, orgID string) (int, error) {
	s, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return 0, err
	}
	ids, err := s.Store().ApprovedWithoutCommission(ctx, s.OrgID)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if _, err := s.Store().RecordTransactionCommission(ctx, sharddb.RecordTransactionCommissionParams{OrganizationID: s.OrgID,
			TransactionID: id}); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// AcceptingDonations reports whether the organisation may take new donations (false during the
// post-trial restriction). The public donation API should refuse a new donation when false; the
// same value is organizations.accepting_donations in the shard.
func AcceptingDonations(ctx context.Context, s tenants.Scope) (bool, error) {
	org, err := s.Store().OrganizationFacts(ctx, s.OrgID)
	if errors.Is(err, dberr.ErrNotFound) {
		return false, tenants.ErrUnknownOrganization
	}
	return org.AcceptingDonations, err
}

// Summary is the subscription as the API shows it.
type Summary struct {
	State
	Locale          string `json:"-"`
	Name            string `json:"-"`
	CommissionMinor int64  `json:"commission_total_minor"`
}

// Get reads an organisation's subscription from its shard.
func Get(ctx context.Context, s tenants.Scope) (Summary, error) {
	row, err := s.Store().SubscriptionSummary(ctx, s.OrgID)
	if errors.Is(err, dberr.ErrNotFound) {
		return Summary{}, tenants.ErrUnknownOrganization
	}
	if err != nil {
		return Summary{}, err
	}
	return Summary{State: state(row.Organization), Locale: row.MailLocale, Name: row.Organization.Name, CommissionMinor: row.CommissionMinor}, nil
}

// PlanExists checks a plan code against the plans table (the original plan cannot be bought).
func PlanExists(ctx context.Context, s tenants.Scope, code string) (bool, error) {
	return s.Store().PurchasablePlanExists(ctx, code)
}

// EmailAdministrators queues the message, in the organisation's language, to each administrator.
func (a *Activities) EmailAdministrators(ctx context.Context, orgID string, e Email) error {
	s, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return err
	}
	sum, err := Get(ctx, s)
	if err != nil {
		return err
	}
	msg, err := compose("", sum.Locale, e, sum.Name, a.PublicURL, time.Now())
	if err != nil {
		return err
	}
	return a.Mail.ToAdministrators(ctx, s.OrgID, e.Key, msg)
}
