package donation

import (
	"context"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/workflows/collection"
)

// CollectionStarter starts a monthly donation's collection workflow (workflows/collection). The
// workflow id derives from the donation, so starting it again is a no-op.
type CollectionStarter struct{ Temporal client.Client }

// StartRecurring implements RecurringStarter.
func (s CollectionStarter) StartRecurring(ctx context.Context, orgID, donationID uuid.UUID) error {
	_, err := collection.Start(ctx, s.Temporal, collection.TaskQueue, collection.Input{
		OrganizationID: orgID.String(), DonationID: donationID.String()})
	return err
}
