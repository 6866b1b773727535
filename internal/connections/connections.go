// Package connections keeps organisations' connections to their own payment gateway accounts: the
// credentials, sealed at rest (internal/secrets), and the OAuth states of connections under way.
// The API (api/gateways) connects and deletes; charging (internal/charge) and the refresh workflow
// (workflows/gatewayrefresh) read and renew through the same Store.
package connections

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/requestonce"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Gateways an organisation may connect.
const (
	MercadoPago = "mercadopago"
	CentralPos  = "centralpos"
)

// Statuses of a connection.
const (
	StatusActive            = "active"
	StatusNeedsReconnection = "needs_reconnection"
)

// StateTTL is how long an OAuth state may be used (the migration's 10 minutes).
const StateTTL = 10 * time.Minute

// ErrNotConnected is an organisation without a usable connection to the gateway.
var ErrNotConnected = errors.New("connections: the organisation has no active connection to the gateway")

// ErrStateInvalid is an OAuth state that is unknown, used, expired, or another identity's.
var ErrStateInvalid = errors.New("connections: oauth state invalid")

// Connection is a stored connection without its secrets.
type Connection struct {
	ID          uuid.UUID
	OrgID       uuid.UUID
	Gateway     string
	Status      string
	AccountID   string
	AccountName string
	Country     string
	LiveMode    bool
	PublicKey   string
	Version     int32
	ExpiresAt   *time.Time
	ActivatedAt time.Time
	RefreshedAt *time.Time

	sealed secrets.Sealed
}

// Active says whether charges may go through the connection.
func (c Connection) Active() bool { return c.Status == StatusActive }

// Store reads and writes connections; its Box seals the tokens.
type Store struct {
	Box *secrets.Box
	Now func() time.Time // time.Now when nil
}

// tokens is the sealed part of a connection.
type tokens struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token,omitempty"`
}

// aad binds a sealed value to its row: a blob copied to another organisation's row does not open.
func aad(orgID, id uuid.UUID, what string) []byte {
	return []byte(what + "/" + orgID.String() + "/" + id.String())
}

func fromRow(r sharddb.GatewayConnection) Connection {
	c := Connection{ID: r.ID, OrgID: r.OrganizationID, Gateway: r.Gateway, Status: r.Status, AccountID: r.AccountID,
		AccountName: r.AccountName, LiveMode: r.LiveMode, PublicKey: r.PublicKey, Version: r.Version,
		ExpiresAt: r.ExpiresAt, ActivatedAt: r.ActivatedAt, RefreshedAt: r.RefreshedAt,
		sealed: secrets.Sealed{KeyID: r.KeyID, Blob: r.Secret}}
	if r.Site != nil {
		c.Country = *r.Site
	}
	return c
}

// List is the organisation's connections.
func (s *Store) List(ctx context.Context, scope tenants.Scope) ([]Connection, error) {
	rows, err := scope.Store().GatewayConnections(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	out := make([]Connection, len(rows))
	for i, r := range rows {
		out[i] = fromRow(r)
	}
	return out, nil
}

// Get is one connection (dberr.ErrNotFound when the organisation has none by that id).
func (s *Store) Get(ctx context.Context, scope tenants.Scope, id uuid.UUID) (Connection, error) {
	r, err := scope.Store().GatewayConnection(ctx, sharddb.GatewayConnectionParams{OrganizationID: scope.OrgID, ID: &id})
	return fromRow(r), err
}

// Active is the organisation's active connection to gw with its credentials; ErrNotConnected when
// there is none or it needs reconnection.
func (s *Store) Active(ctx context.Context, scope tenants.Scope, gw string) (Connection, gateway.Credentials, error) {
	c, err := s.ActiveConnection(ctx, scope, gw)
	if err != nil {
		return c, gateway.Credentials{}, err
	}
	creds, err := s.Credentials(ctx, c)
	return c, creds, err
}

// connectionOf names a connection read in a request (requestonce).
type connectionOf struct {
	org uuid.UUID
	gw  string
}

// ActiveConnection is Active without opening the credentials (no call to the key service). With gw
// empty it is the organisation's active connection activated last, whichever its gateway: the one
// its donation forms charge through.
func (s *Store) ActiveConnection(ctx context.Context, scope tenants.Scope, gw string) (Connection, error) {
	p := sharddb.GatewayConnectionParams{OrganizationID: scope.OrgID}
	if gw != "" {
		p.Gateway = &gw
	}
	// Read once per request: the public form's limits and its charge both ask.
	r, err := requestonce.Read(ctx, connectionOf{scope.OrgID, gw}, func() (sharddb.GatewayConnection, error) {
		return scope.Store().GatewayConnection(ctx, p)
	})
	if errors.Is(err, dberr.ErrNotFound) {
		return Connection{}, ErrNotConnected
	}
	if err != nil {
		return Connection{}, err
	}
	c := fromRow(r)
	if !c.Active() {
		return c, ErrNotConnected
	}
	return c, nil
}

// Credentials opens a connection's tokens.
func (s *Store) Credentials(ctx context.Context, c Connection) (gateway.Credentials, error) {
	plain, err := s.Box.Open(ctx, c.sealed, aad(c.OrgID, c.ID, "connection"))
	if err != nil {
		return gateway.Credentials{}, fmt.Errorf("connection %s: %w", c.ID, err)
	}
	var t tokens
	if err := json.Unmarshal(plain, &t); err != nil {
		return gateway.Credentials{}, fmt.Errorf("connection %s: %w", c.ID, err)
	}
	creds := gateway.Credentials{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, PublicKey: c.PublicKey,
		AccountID: c.AccountID, AccountName: c.AccountName, Country: c.Country, LiveMode: c.LiveMode}
	if c.ExpiresAt != nil {
		creds.ExpiresAt = *c.ExpiresAt
	}
	return creds, nil
}

func (s *Store) seal(ctx context.Context, orgID, id uuid.UUID, creds gateway.Credentials) (secrets.Sealed, error) {
	plain, err := json.Marshal(tokens{AccessToken: creds.AccessToken, RefreshToken: creds.RefreshToken})
	if err != nil {
		return secrets.Sealed{}, err
	}
	return s.Box.Seal(ctx, plain, aad(orgID, id, "connection"))
}

// Save stores a new connection to gw, or replaces the credentials of the existing one (a
// reconnection keeps its id).
func (s *Store) Save(ctx context.Context, scope tenants.Scope, gw string, creds gateway.Credentials) (Connection, error) {
	// The id is decided before sealing (the seal is bound to it): the existing connection's, or new.
	id := uuid.New()
	if r, err := scope.Store().GatewayConnection(ctx, sharddb.GatewayConnectionParams{OrganizationID: scope.OrgID, Gateway: &gw}); err == nil {
		id = r.ID
	} else if !errors.Is(err, dberr.ErrNotFound) {
		return Connection{}, err
	}
	sealed, err := s.seal(ctx, scope.OrgID, id, creds)
	if err != nil {
		return Connection{}, err
	}
	r, err := scope.Store().UpsertGatewayConnection(ctx, sharddb.UpsertGatewayConnectionParams{
		OrganizationID: scope.OrgID, ID: id, Gateway: gw, AccountID: creds.AccountID, AccountName: creds.AccountName,
		Site: &creds.Country, LiveMode: creds.LiveMode, PublicKey: creds.PublicKey, Secret: sealed.Blob, KeyID: sealed.KeyID,
		ExpiresAt: timePtr(creds.ExpiresAt)})
	if err != nil {
		return Connection{}, err
	}
	if r.ID != id { // a concurrent first connection won the row: seal again for its id
		return s.Save(ctx, scope, gw, creds)
	}
	return fromRow(r), nil
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// Refreshed stores renewed credentials on the version they were renewed from; ok is false when the
// connection changed meanwhile (reconnected, deleted) and nothing was stored.
func (s *Store) Refreshed(ctx context.Context, scope tenants.Scope, c Connection, creds gateway.Credentials) (Connection, bool, error) {
	sealed, err := s.seal(ctx, scope.OrgID, c.ID, creds)
	if err != nil {
		return Connection{}, false, err
	}
	publicKey := creds.PublicKey
	if publicKey == "" {
		publicKey = c.PublicKey
	}
	r, err := scope.Store().RefreshGatewayConnection(ctx, sharddb.RefreshGatewayConnectionParams{OrganizationID: scope.OrgID,
		ID: c.ID, Version: c.Version, Secret: sealed.Blob, KeyID: sealed.KeyID, ExpiresAt: timePtr(creds.ExpiresAt), PublicKey: publicKey})
	if errors.Is(err, dberr.ErrNotFound) {
		return Connection{}, false, nil
	}
	return fromRow(r), err == nil, err
}

// NeedsReconnection marks an active connection as refused by the gateway; ok is false when it was
// not that version or not active any more.
func (s *Store) NeedsReconnection(ctx context.Context, scope tenants.Scope, c Connection) (Connection, bool, error) {
	r, err := scope.Store().MarkGatewayConnectionNeedsReconnection(ctx, sharddb.MarkGatewayConnectionNeedsReconnectionParams{
		OrganizationID: scope.OrgID, ID: c.ID, Version: c.Version})
	if errors.Is(err, dberr.ErrNotFound) {
		return Connection{}, false, nil
	}
	return fromRow(r), err == nil, err
}

// Delete removes a connection for good and answers what it held, so the caller can revoke it at
// the gateway.
func (s *Store) Delete(ctx context.Context, scope tenants.Scope, id uuid.UUID) (Connection, gateway.Credentials, error) {
	r, err := scope.Store().DeleteGatewayConnection(ctx, sharddb.DeleteGatewayConnectionParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return Connection{}, gateway.Credentials{}, err
	}
	c := fromRow(r)
	creds, err := s.Credentials(ctx, c)
	return c, creds, err
}

// RotateKeys re-wraps every connection of the organisation sealed by another key than the Box's
// current one; it answers how many it moved. Values keep opening throughout (the Box holds the old
// keys as previous ones), so it runs while the platform serves.
func (s *Store) RotateKeys(ctx context.Context, scope tenants.Scope) (int, error) {
	rows, err := scope.Store().GatewayConnectionsWithKey(ctx, sharddb.GatewayConnectionsWithKeyParams{OrganizationID: scope.OrgID, CurrentKeyID: s.Box.KeyID()})
	if err != nil {
		return 0, err
	}
	return secrets.RewrapEach(ctx, s.Box, rows, func(r sharddb.GatewayConnectionsWithKeyRow) secrets.Sealed {
		return secrets.Sealed{KeyID: r.KeyID, Blob: r.Secret}
	}, func(r sharddb.GatewayConnectionsWithKeyRow, sealed secrets.Sealed) (int64, error) {
		// The version guard skips a row refreshed meanwhile (sealed by the current key already).
		return scope.Store().RewrapGatewayConnection(ctx, sharddb.RewrapGatewayConnectionParams{OrganizationID: scope.OrgID,
			ID: r.ID, Version: r.Version, Secret: sealed.Blob, KeyID: sealed.KeyID})
	})
}

// State is an OAuth start: what to send to the gateway.
type State struct {
	State    string
	Verifier string
}

// BeginOAuth records a new state for identity's connection of gw (PKCE verifier sealed), bound to
// the organisation and the identity; returnTo is where the callback goes back to.
func (s *Store) BeginOAuth(ctx context.Context, scope tenants.Scope, gw string, identity uuid.UUID, returnTo string) (gateway.Authorization, State, error) {
	st, verifier := randomToken(), randomToken()
	h := sha256.Sum256([]byte(st))
	sealed, err := s.Box.Seal(ctx, []byte(verifier), aad(scope.OrgID, identity, "oauth-state/"+st))
	if err != nil {
		return gateway.Authorization{}, State{}, err
	}
	if err := scope.Store().InsertGatewayOAuthState(ctx, sharddb.InsertGatewayOAuthStateParams{OrganizationID: scope.OrgID,
		StateHash: h[:], Gateway: gw, IdentityID: identity, Verifier: sealed.Blob, KeyID: sealed.KeyID, ReturnTo: returnTo}); err != nil {
		return gateway.Authorization{}, State{}, err
	}
	// Old states are kept a day for the record, then go; this start sweeps them.
	if err := scope.Store().PurgeGatewayOAuthStates(ctx, scope.OrgID); err != nil {
		return gateway.Authorization{}, State{}, err
	}
	challenge := sha256.Sum256([]byte(verifier))
	return gateway.Authorization{State: st, CodeChallenge: base64.RawURLEncoding.EncodeToString(challenge[:])},
		State{State: st, Verifier: verifier}, nil
}

// UseOAuthState takes a state once: it answers the PKCE verifier and where to return, or
// ErrStateInvalid when the state is unknown, used, older than StateTTL, of another gateway, or
// started by another identity or organisation.
func (s *Store) UseOAuthState(ctx context.Context, scope tenants.Scope, gw string, identity uuid.UUID, state string) (verifier, returnTo string, err error) {
	if state == "" {
		return "", "", ErrStateInvalid
	}
	h := sha256.Sum256([]byte(state))
	r, err := scope.Store().UseGatewayOAuthState(ctx, sharddb.UseGatewayOAuthStateParams{OrganizationID: scope.OrgID,
		StateHash: h[:], Gateway: gw, IdentityID: identity})
	if errors.Is(err, dberr.ErrNotFound) {
		return "", "", ErrStateInvalid
	}
	if err != nil {
		return "", "", err
	}
	plain, err := s.Box.Open(ctx, secrets.Sealed{KeyID: r.KeyID, Blob: r.Verifier}, aad(scope.OrgID, identity, "oauth-state/"+state))
	if err != nil {
		return "", "", err
	}
	return string(plain), r.ReturnTo, nil
}

// randomToken is 32 random bytes, base64url: a state or a PKCE verifier (43 characters, RFC 7636).
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
