package connections

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/centralpos"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/tenants"
)

// Open builds the store from the configuration: the key-encryption key of APORTA_SECRETS_URL (or
// the one derived from APORTA_SECRET) and the previous keys of a rotation.
func Open(ctx context.Context, cfg *config.Config) (*Store, error) {
	box, err := secrets.Open(ctx, cfg.Secret, cfg.SecretsURL, cfg.SecretsPreviousURLs...)
	if err != nil {
		return nil, err
	}
	return &Store{Box: box}, nil
}

// Organizations resolves an organisation's shard (*tenants.Tenants does).
type Organizations interface {
	ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
}

// Clients hands out the client of an organisation's active connection: every charge, card and
// refund of the organisation goes through its own account, at whichever gateway it connected. A
// client is built once per connection version (a refresh or reconnection makes a new one) and
// currency.
type Clients struct {
	Store      *Store
	Tenants    Organizations
	BaseURL    string            // MercadoPago's API (the sandbox in dev and test)
	CentralPos centralpos.Config // the platform's CentralPos partnership (its BaseURL and PartnerKey)
	Timeout    time.Duration     // per request; the adapter's default when zero
	// PublicURL is Aporta's own address, where MercadoPago posts a payment's later changes
	// (NotificationURL); empty: no notifications.
	PublicURL string
	// Refresh is told whenever the gateway refuses a connection's access token (HTTP 401: the
	// app was revoked or the token expired), whichever call got the refusal: a charge, or the
	// customer and card calls before it. Nil: nobody is told.
	Refresh Refresher
	Log     *slog.Logger // where a failure to tell Refresh goes; slog.Default() when nil

	mu    sync.Mutex
	cache map[clientKey]gateway.Account
}

// NotificationPath is the route MercadoPago posts an organisation's payment notifications to
// (api/gatewaynotify), the organisation's id after it.
const NotificationPath = "/api/public/gateways/mercadopago/notifications/"

// NotificationURL is the notification address of an organisation's MercadoPago payments.
func NotificationURL(publicURL string, orgID uuid.UUID) string {
	return publicURL + NotificationPath + orgID.String()
}

// Refresher renews a connection's credentials at once (gatewayrefresh.Client): the gateway
// refused the access token of the connection's version.
type Refresher interface {
	RefreshNow(ctx context.Context, orgID, connectionID uuid.UUID, version int32) error
}

type clientKey struct {
	connection uuid.UUID
	version    int32
	currency   string
}

// ForOrganization returns the client of the organisation's active connection to gw (MercadoPago,
// CentralPos; "": the connection its forms charge through, Store.ActiveConnection) and the
// connection; ErrNotConnected when it has none.
func (c *Clients) ForOrganization(ctx context.Context, orgID uuid.UUID, gw, currency string) (gateway.Account, Connection, error) {
	scope, err := c.Tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, Connection{}, err
	}
	return c.ForScope(ctx, scope, gw, currency)
}

// ForScope is ForOrganization for an organisation whose scope the caller holds.
func (c *Clients) ForScope(ctx context.Context, scope tenants.Scope, gw, currency string) (gateway.Account, Connection, error) {
	conn, err := c.Store.ActiveConnection(ctx, scope, gw)
	if err != nil {
		return nil, conn, err
	}
	key := clientKey{conn.ID, conn.Version, currency}
	c.mu.Lock()
	cl, ok := c.cache[key]
	c.mu.Unlock()
	if ok {
		return cl, conn, nil
	}
	// Opening the credentials may call a key service: never under the lock, which every
	// organisation's lookups share. Two first lookups may both build; the first stored is kept.
	creds, err := c.Store.Credentials(ctx, conn)
	if err != nil {
		return nil, conn, err
	}
	built, err := c.build(scope.OrgID, conn, creds.AccessToken, currency)
	if err != nil {
		return nil, conn, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.cache[key]; ok {
		return cl, conn, nil
	}
	if c.cache == nil {
		c.cache = map[clientKey]gateway.Account{}
	}
	for k := range c.cache { // the connection's older versions are done with
		if k.connection == conn.ID && k.version != conn.Version {
			delete(c.cache, k)
		}
	}
	c.cache[key] = built
	return built, conn, nil
}

// build is the adapter of the connection's gateway, acting with its access token.
func (c *Clients) build(orgID uuid.UUID, conn Connection, accessToken, currency string) (gateway.Account, error) {
	switch conn.Gateway {
	case MercadoPago:
		cfg := mercadopago.Config{BaseURL: c.BaseURL, AccessToken: accessToken, Currency: currency,
			Timeout: c.Timeout, HTTPClient: c.httpClient(orgID, conn)}
		if c.PublicURL != "" {
			cfg.NotificationURL = NotificationURL(c.PublicURL, orgID)
		}
		return mercadopago.New(cfg)
	case CentralPos:
		cfg := c.CentralPos
		cfg.Timeout, cfg.HTTPClient = c.Timeout, c.httpClient(orgID, conn)
		return centralpos.NewAccount(cfg, accessToken, currency)
	}
	return nil, fmt.Errorf("connections: connection %s is to an unknown gateway %q", conn.ID, conn.Gateway)
}

// httpClient is the connection's HTTP client: it tells Refresh of every 401 answer.
func (c *Clients) httpClient(orgID uuid.UUID, conn Connection) *http.Client {
	if c.Refresh == nil {
		return nil
	}
	return &http.Client{Transport: refusals{base: http.DefaultTransport, tell: func(ctx context.Context) {
		// The caller's request may end with the refusal; the signal must still go out.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := c.Refresh.RefreshNow(ctx, orgID, conn.ID, conn.Version); err != nil {
			log := c.Log
			if log == nil {
				log = slog.Default()
			}
			log.ErrorContext(ctx, "gateway refused a connection's token; could not ask for a refresh",
				"organization_id", orgID, "connection_id", conn.ID, "error", err)
		}
	}}}
}

// refusals calls tell when the gateway answers 401 Unauthorized.
type refusals struct {
	base http.RoundTripper
	tell func(ctx context.Context)
}

func (r refusals) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := r.base.RoundTrip(req)
	if err == nil && res.StatusCode == http.StatusUnauthorized {
		r.tell(req.Context())
	}
	return res, err
}

// RotateAll re-wraps the tokens of every organisation's connections with the store's current key
// (`aporta rotate-secrets`, after APORTA_SECRETS_URL changed and the old key was listed among
// APORTA_SECRETS_PREVIOUS_URLS), and whatever else others rotate per organisation (bank account
// numbers); it answers how many it moved.
func (s *Store) RotateAll(ctx context.Context, t *tenants.Tenants, others ...func(context.Context, tenants.Scope) (int, error)) (int, error) {
	ids, err := dirdb.Store(t.Directory()).OrganizationIDs(ctx)
	if err != nil {
		return 0, err
	}
	moved := 0
	for _, id := range ids {
		scope, err := t.ForOrganization(ctx, id)
		if err != nil {
			return moved, err
		}
		for _, rotate := range append([]func(context.Context, tenants.Scope) (int, error){s.RotateKeys}, others...) {
			n, err := rotate(ctx, scope)
			moved += n
			if err != nil {
				return moved, fmt.Errorf("organization %s: %w", id, err)
			}
		}
	}
	return moved, nil
}
