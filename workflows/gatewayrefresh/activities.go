package gatewayrefresh

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// EmailNeedsReconnection is the e-mail administrators get when the gateway refused a refresh.
const EmailNeedsReconnection = "gateway_needs_reconnection"

// Activities refresh connections.
type Activities struct {
	Tenants orgscope.Organizations
	Store   *connections.Store
	// OAuth renews a gateway's credentials, by gateway name (MercadoPago's; CentralPos keys do not expire).
	OAuth     map[string]gateway.OAuth
	Mail      Mailer
	PublicURL string
}

// Mailer e-mails an organisation's administrators once per key (outbox.Mailer).
type Mailer interface {
	ToAdministrators(ctx context.Context, orgID uuid.UUID, key string, msg outbox.Message) error
}

// State is what the workflow needs of a connection.
type State struct {
	Exists    bool      `json:"exists"`
	Active    bool      `json:"active"`
	Version   int32     `json:"version"`
	ExpiresAt time.Time `json:"expires_at"` // zero: does not expire
}

// Refreshable says whether there is anything to keep fresh.
func (s State) Refreshable() bool { return s.Exists && s.Active && !s.ExpiresAt.IsZero() }

// Outcome is how a refresh ended.
type Outcome string

const (
	OutcomeRefreshed Outcome = "refreshed"
	OutcomeRefused   Outcome = "refused" // the gateway will not renew: the account holder must reconnect
	OutcomeChanged   Outcome = "changed" // the connection changed meanwhile (reconnected, deleted): nothing to do
)

func (a *Activities) connection(ctx context.Context, in Input) (tenants.Scope, connections.Connection, error) {
	scope, id, err := orgscope.Row(ctx, a.Tenants, in.OrganizationID, "connection id", in.ConnectionID)
	if err != nil {
		return scope, connections.Connection{}, err
	}
	c, err := a.Store.Get(ctx, scope, id)
	return scope, c, err
}

// Load reads the connection's state.
func (a *Activities) Load(ctx context.Context, in Input) (State, error) {
	_, c, err := a.connection(ctx, in)
	if errors.Is(err, dberr.ErrNotFound) {
		return State{}, nil
	}
	if err != nil {
		return State{}, err
	}
	st := State{Exists: true, Active: c.Active(), Version: c.Version}
	if c.ExpiresAt != nil {
		st.ExpiresAt = *c.ExpiresAt
	}
	return st, nil
}

// Refresh renews the credentials of the connection's version. A refusal is an outcome, not an
// error: retrying cannot help. Any other failure is retried by the workflow's policy.
func (a *Activities) Refresh(ctx context.Context, in Input, version int32) (Outcome, error) {
	scope, c, err := a.connection(ctx, in)
	if errors.Is(err, dberr.ErrNotFound) {
		return OutcomeChanged, nil
	}
	if err != nil {
		return "", err
	}
	if c.Version != version || !c.Active() {
		return OutcomeChanged, nil
	}
	oauth, ok := a.OAuth[c.Gateway]
	if !ok {
		// Nothing renews this gateway's credentials (CentralPos's API key): its refusal is final.
		return OutcomeRefused, nil
	}
	creds, err := a.Store.Credentials(ctx, c)
	if err != nil {
		return "", err
	}
	if creds.RefreshToken == "" {
		return OutcomeRefused, nil
	}
	renewed, err := oauth.Refresh(ctx, creds.RefreshToken)
	if errors.Is(err, gateway.ErrInvalidGrant) {
		return OutcomeRefused, nil
	}
	if err != nil {
		return "", fmt.Errorf("refresh: %w", err)
	}
	if _, ok, err := a.Store.Refreshed(ctx, scope, c, renewed); err != nil || !ok {
		return OutcomeChanged, err
	}
	return OutcomeRefreshed, nil
}

// MarkNeedsReconnection marks the refused connection and e-mails the organisation's
// administrators (once per connection version, however often it is retried).
func (a *Activities) MarkNeedsReconnection(ctx context.Context, in Input, version int32) error {
	scope, c, err := a.connection(ctx, in)
	if errors.Is(err, dberr.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if c.Version == version {
		if _, _, err := a.Store.NeedsReconnection(ctx, scope, c); err != nil {
			return err
		}
	} else if c.Status != connections.StatusNeedsReconnection || c.Version != version+1 {
		return nil // reconnected or refreshed meanwhile: nothing to tell
	}
	org, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
	if err != nil {
		return err
	}
	lang, _ := i18n.Parse(org.Locale)
	msg, err := outbox.Compose("", EmailNeedsReconnection, lang, map[string]any{
		"Org": org.Name, "Gateway": i18n.T(lang, "gateway."+c.Gateway+".name"), "Account": c.AccountName,
		"URL": a.PublicURL + "/manage/settings/gateways"})
	if err != nil {
		return err
	}
	return a.Mail.ToAdministrators(ctx, scope.OrgID, fmt.Sprintf("%s/%s/%d", EmailNeedsReconnection, c.ID, version), msg)
}

func init() {
	i18n.Register(i18n.Catalog{
		"gateway.mercadopago.name": {i18n.ES: "MercadoPago", i18n.EN: "MercadoPago", i18n.PT: "MercadoPago"},
		"gateway.centralpos.name":  {i18n.ES: "CentralPos", i18n.EN: "CentralPos", i18n.PT: "CentralPos"},
	})
}
