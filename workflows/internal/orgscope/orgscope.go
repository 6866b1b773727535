// Package orgscope resolves the organisation an activity works for. An id that does not parse, or
// one the directory does not know, fails the activity for good: no retry can fix either.
package orgscope

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/tenants"
)

// Organizations resolves an organisation's shard (*tenants.Tenants does).
type Organizations interface {
	ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
}

// For returns the scope of the organisation whose id is orgID.
func For(ctx context.Context, tt Organizations, orgID string) (tenants.Scope, error) {
	id, err := uuid.Parse(orgID)
	if err != nil {
		return tenants.Scope{}, temporal.NewNonRetryableApplicationError("organization id", "invalid_input", err)
	}
	scope, err := tt.ForOrganization(ctx, id)
	if errors.Is(err, tenants.ErrUnknownOrganization) {
		return scope, temporal.NewNonRetryableApplicationError("unknown organization", "not_found", err)
	}
	return scope, err
}

// Row returns the scope of the organisation whose id is orgID and the id of one of its rows, id; what names the
// row's id in the error when it does not parse ("payout id").
func Row(ctx context.Context, tt Organizations, orgID, what, id string) (tenants.Scope, uuid.UUID, error) {
	scope, err := For(ctx, tt, orgID)
	if err != nil {
		return scope, uuid.Nil, err
	}
	u, err := uuid.Parse(id)
	if err != nil {
		return scope, uuid.Nil, temporal.NewNonRetryableApplicationError(what, "invalid_input", err)
	}
	return scope, u, nil
}
