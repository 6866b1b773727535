package apitest

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/tenants"
)

// PublishedCampaign creates a campaign in the organisation and publishes it: the donation form's
// tests start from one.
func PublishedCampaign(t testing.TB, tt *tenants.Tenants, orgID uuid.UUID, in campaign.Input) *campaign.Campaign {
	t.Helper()
	ctx := context.Background()
	svc := campaign.NewService(tt)
	c, err := svc.CreateFromInput(ctx, orgID, in)
	if err != nil {
		t.Fatalf("create campaign: %v", err)
	}
	if c, err = svc.SetPublished(ctx, orgID, c.ID, true); err != nil {
		t.Fatalf("publish campaign: %v", err)
	}
	return c
}
