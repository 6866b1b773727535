package onboarding

import (
	"context"

	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// Activities hold the onboarding workflow's side effects.
type Activities struct {
	Tenants    *tenants.Tenants
	Mailer     Mailer
	StaffInbox string
}

// CompleteStep records a completed step in the organisation's shard. Idempotent.
func (a *Activities) CompleteStep(ctx context.Context, orgID, step string) error {
	scope, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return err
	}
	return scope.Store().CompleteOnboardingStep(ctx, sharddb.CompleteOnboardingStepParams{OrganizationID: scope.OrgID, Step: step})
}

// SetStatus moves the account to a new status in its shard and in the directory. Idempotent.
func (a *Activities) SetStatus(ctx context.Context, orgID, status string) error {
	scope, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return err
	}
	err = scope.Store().SetOrganizationShardStatus(ctx, sharddb.SetOrganizationShardStatusParams{OrganizationID: scope.OrgID, Status: status})
	if err != nil {
		return err
	}
	return dirdb.Store(a.Tenants.Directory()).SetOrganizationDirectoryStatus(ctx, dirdb.SetOrganizationDirectoryStatusParams{ID: scope.OrgID, Status: status})
}
