package onboarding

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Activities hold the onboarding workflow's side effects.
type Activities struct {
	Tenants    *tenants.Tenants
	Mailer     Mailer
	StaffInbox string
}

// CompleteStep records a completed step in the organisation's shard. Idempotent.
func (a *Activities) CompleteStep(ctx context.Context, orgID, step string) error {
	scope, err := a.scope(ctx, orgID)
	if err != nil {
		return err
	}
	return scope.Store().CompleteOnboardingStep(ctx, sharddb.CompleteOnboardingStepParams{OrganizationID: scope.OrgID, Step: step})
}

// SetStatus moves the account to a new status in its shard and in the directory. Idempotent.
func (a *Activities) SetStatus(ctx context.Context, orgID, status string) error {
	scope, err := a.scope(ctx, orgID)
	if err != nil {
		return err
	}
	err = scope.Store().SetOrganizationShardStatus(ctx, sharddb.SetOrganizationShardStatusParams{OrganizationID: scope.OrgID, Status: status})
	if err != nil {
		return err
	}
	return dirdb.Store(a.Tenants.Directory()).SetOrganizationDirectoryStatus(ctx, dirdb.SetOrganizationDirectoryStatusParams{ID: scope.OrgID, Status: status})
}

func (a *Activities) scope(ctx context.Context, orgID string) (tenants.Scope, error) {
	id, err := uuid.Parse(orgID)
	if err != nil {
		return tenants.Scope{}, temporal.NewNonRetryableApplicationError("organization id", "invalid_input", err)
	}
	scope, err := a.Tenants.ForOrganization(ctx, id)
	if errors.Is(err, tenants.ErrUnknownOrganization) {
		return scope, temporal.NewNonRetryableApplicationError("unknown organization", "not_found", err)
	}
	return scope, err
}
