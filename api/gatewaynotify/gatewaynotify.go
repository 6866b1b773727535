// Package gatewaynotify takes the payment notifications MercadoPago posts when a payment changes
// after it was charged (a refund, a chargeback, a dispute) and brings the organisation's
// transaction up to the gateway's word (charge.Sync): its status, the dashboard, the receipt and
// the organisation's webhooks. The notification only names the payment: it must carry
// MercadoPago's signature, and the payment is then read back with the organisation's own account,
// so a forged or replayed one changes nothing the gateway does not say.
package gatewaynotify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/tenants"
)

// Accounts gives an organisation's MercadoPago account (connections.Clients does).
type Accounts interface {
	ForScope(ctx context.Context, scope tenants.Scope, gw, currency string) (gateway.Account, connections.Connection, error)
}

// Organizations resolves an organisation's shard.
type Organizations interface {
	ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
}

// Handler answers the notifications.
type Handler struct {
	Accounts      Accounts
	Organizations Organizations
	Secret        string // the application's secret signature (config.MPWebhookSecret)
	Log           *slog.Logger
	Now           func() time.Time // time.Now when nil
}

// Mount mounts POST /api/public/gateways/mercadopago/notifications/:organization (no session:
// MercadoPago posts it).
func (h *Handler) Mount(g endpoint.Groups) {
	g.Public.POST(connections.NotificationPath+":organization", endpoint.Handle(h.Notify))
}

// Notification is MercadoPago's webhook as it reaches us: the payment's id and the topic in the
// query string, the signature in the headers. Its body repeats them and is not read.
type Notification struct {
	OrganizationID uuid.UUID `path:"organization" json:"-"`
	DataID         string    `query:"data.id" json:"-"`
	Type           string    `query:"type" json:"-"`
	Signature      string    `header:"x-signature" json:"-"`
	RequestID      string    `header:"x-request-id" json:"-"`
}

// Received is the answer MercadoPago wants (200; anything else and it posts again later).
type Received struct {
	Changed bool `json:"changed"`
}

// Notify verifies the notification, then syncs the payment it names.
func (h *Handler) Notify(ctx context.Context, n *Notification) (*Received, error) {
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	if err := mercadopago.Verify(h.Secret, n.Signature, n.DataID, n.RequestID, now()); err != nil {
		return nil, apierror.New(http.StatusUnauthorized, "gateway.notification_unsigned")
	}
	if n.Type != "payment" {
		return &Received{}, nil // other topics (merchant orders, plans…) are not ours to follow
	}
	scope, err := h.Organizations.ForOrganization(ctx, n.OrganizationID)
	if errors.Is(err, tenants.ErrUnknownOrganization) {
		return nil, apierror.NotFound()
	}
	if err != nil {
		return nil, err
	}
	country, err := reference.Get(ctx, scope.Store(), scope.Country)
	if err != nil {
		return nil, err
	}
	account, _, err := h.Accounts.ForScope(ctx, scope, connections.MercadoPago, country.Currency)
	if errors.Is(err, connections.ErrNotConnected) {
		return &Received{}, nil // disconnected since: its payments are no longer ours to read
	}
	if err != nil {
		return nil, err
	}
	changed, err := charge.Sync(ctx, scope, account, n.DataID)
	if err != nil {
		// MercadoPago posts it again later: the gateway or the database may be back by then.
		return nil, &apierror.Error{Status: http.StatusBadGateway, Code: "gateway.notification_failed",
			Err: fmt.Errorf("sync payment %s of %s: %w", n.DataID, scope.OrgID, err)}
	}
	if changed && h.Log != nil {
		h.Log.InfoContext(ctx, "gateway notification changed a transaction", "organization_id", scope.OrgID, "payment_id", n.DataID)
	}
	return &Received{Changed: changed}, nil
}

func init() {
	i18n.Register(i18n.Catalog{
		"gateway.notification_unsigned": {i18n.ES: "La notificación no está firmada por la pasarela.",
			i18n.EN: "The notification is not signed by the gateway.", i18n.PT: "A notificação não está assinada pelo gateway."},
		"gateway.notification_failed": {i18n.ES: "No pudimos procesar la notificación; vuelve a enviarla más tarde.",
			i18n.EN: "We could not process the notification; send it again later.", i18n.PT: "Não conseguimos processar a notificação; envie-a novamente mais tarde."},
	})
}
