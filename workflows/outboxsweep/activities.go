package outboxsweep

import (
	"context"
	"time"

	"github.com/aporta/aporta/internal/outbox"
)

// Activities hold the outbox the sweep works on.
type Activities struct {
	Outbox *outbox.Outbox
}

// DeliverPending retries up to limit pending messages and answers how many went out.
func (a *Activities) DeliverPending(ctx context.Context, limit int) (int, error) {
	return a.Outbox.DeliverPending(ctx, limit)
}

// Purge deletes the messages recorded before the cut-off and answers how many.
func (a *Activities) Purge(ctx context.Context, before time.Time) (int64, error) {
	return a.Outbox.Purge(ctx, before)
}
