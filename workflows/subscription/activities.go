package subscription

import (
	"context"
	"embed"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

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

func scanState(row pgx.Row) (State, error) {
	var st State
	err := row.Scan(&st.PlanCode, &st.Status, &st.TrialStartedAt, &st.TrialEndsAt, &st.CommissionBps, &st.Accepting)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, temporal.NewNonRetryableApplicationError("unknown organization", "UnknownOrganization", err)
	}
	return st, err
}

func (a *Activities) scope(ctx context.Context, orgID string) (tenants.Scope, error) {
	id, err := uuid.Parse(orgID)
	if err != nil {
		return tenants.Scope{}, temporal.NewNonRetryableApplicationError("organization id", "BadInput", err)
	}
	s, err := a.Tenants.ForOrganization(ctx, id)
	if errors.Is(err, tenants.ErrUnknownOrganization) {
		return s, temporal.NewNonRetryableApplicationError("unknown organization", "UnknownOrganization", err)
	}
	return s, err
}

// Begin starts the trial of an original customer (once: trial dates are never moved) or marks a
// paying organisation active, and answers the subscription.
func (a *Activities) Begin(ctx context.Context, orgID string, now time.Time, length time.Duration) (State, error) {
	s, err := a.scope(ctx, orgID)
	if err != nil {
		return State{}, err
	}
	return scanState(s.QueryRow(ctx, queries.Get("Begin"), s.OrgID, now, now.Add(length)))
}

// EndTrial applies the post-trial restriction unless a plan was bought.
func (a *Activities) EndTrial(ctx context.Context, orgID string) (State, error) {
	s, err := a.scope(ctx, orgID)
	if err != nil {
		return State{}, err
	}
	return scanState(s.QueryRow(ctx, queries.Get("EndTrial"), s.OrgID, CommissionBps))
}

// ApplyPlan stores a bought plan: the restriction (if any) ends.
func (a *Activities) ApplyPlan(ctx context.Context, orgID, plan string, now time.Time) (State, error) {
	s, err := a.scope(ctx, orgID)
	if err != nil {
		return State{}, err
	}
	var ok bool
	if err := s.QueryRow(ctx, queries.Get("PlanExists"), plan).Scan(&ok); err != nil {
		return State{}, err
	}
	if !ok {
		return State{}, temporal.NewNonRetryableApplicationError("unknown plan "+plan, ErrUnknownPlan, nil)
	}
	return scanState(s.QueryRow(ctx, queries.Get("ApplyPlan"), s.OrgID, plan, now))
}

// RecordCommissions is the daily commission sweep of runs recorded before collection recorded
// commissions at charge time (versionCommissionAtCharge): it records the commission of every
// approved charge since the trial ended that has none yet. Idempotent.
func (a *Activities) RecordCommissions(ctx context.Context, orgID string) (int, error) {
	s, err := a.scope(ctx, orgID)
	if err != nil {
		return 0, err
	}
	rows, err := s.Query(ctx, queries.Get("ApprovedSinceTrial"), s.OrgID)
	if err != nil {
		return 0, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if err := s.Store().RecordTransactionCommission(ctx, sharddb.RecordTransactionCommissionParams{OrganizationID: s.OrgID, TransactionID: id}); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// AcceptingDonations reports whether the organisation may take new donations (false during the
// post-trial restriction). The public donation API should refuse a new donation when false; the
// same value is organizations.accepting_donations in the shard.
func AcceptingDonations(ctx context.Context, s tenants.Scope) (bool, error) {
	var ok bool
	err := s.QueryRow(ctx, queries.Get("AcceptingDonations"), s.OrgID).Scan(&ok)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, tenants.ErrUnknownOrganization
	}
	return ok, err
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
	var sum Summary
	err := s.QueryRow(ctx, queries.Get("Get"), s.OrgID).Scan(&sum.PlanCode, &sum.Status, &sum.TrialStartedAt,
		&sum.TrialEndsAt, &sum.CommissionBps, &sum.Accepting, &sum.Locale, &sum.Name, &sum.CommissionMinor)
	if errors.Is(err, pgx.ErrNoRows) {
		return sum, tenants.ErrUnknownOrganization
	}
	return sum, err
}

// PlanExists checks a plan code against the plans table (the original plan cannot be bought).
func PlanExists(ctx context.Context, s tenants.Scope, code string) (bool, error) {
	var ok bool
	err := s.QueryRow(ctx, queries.Get("PlanExists"), code).Scan(&ok)
	return ok, err
}

// EmailAdministrators queues the message, in the organisation's language, to each administrator.
func (a *Activities) EmailAdministrators(ctx context.Context, orgID string, e Email) error {
	s, err := a.scope(ctx, orgID)
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
