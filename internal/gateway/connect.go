package gateway

import (
	"context"
	"errors"
	"time"
)

// Credentials are what an organisation's connection to its own gateway account holds. AccessToken
// and RefreshToken are secrets: stored only encrypted, never returned by the API, never logged.
type Credentials struct {
	AccessToken  string
	RefreshToken string // empty when the gateway issues none
	PublicKey    string // the key donors' browsers tokenise cards with
	AccountID    string // the gateway's id of the connected account (MercadoPago user_id, CentralPos merchant)
	AccountName  string // shown on the gateways page
	Country      string // ISO 3166-1 alpha-2 of the account (MercadoPago: its site); empty when a refresh does not say
	LiveMode     bool
	ExpiresAt    time.Time // zero when the access token does not expire
}

// Authorization is one start of an OAuth 2.0 authorization-code flow with PKCE (RFC 7636, S256).
type Authorization struct {
	State         string // single use, bound to the session and organisation by the caller
	CodeChallenge string // base64url(SHA-256(verifier)), unpadded
	RedirectURI   string
}

// OAuth connects an account by the authorization-code flow (MercadoPago).
type OAuth interface {
	// AuthorizeURL is the gateway page the account holder approves or denies the connection on.
	AuthorizeURL(a Authorization) string
	// Exchange trades the code the gateway sent back to RedirectURI for credentials.
	Exchange(ctx context.Context, code, verifier, redirectURI string) (Credentials, error)
	// Refresh renews the credentials before they expire; the refresh token may rotate.
	Refresh(ctx context.Context, refreshToken string) (Credentials, error)
}

// CodeConnector connects an account by an authorization code the account holder copies from the
// gateway's own back office (CentralPos).
type CodeConnector interface {
	Connect(ctx context.Context, code string) (Credentials, error)
	// Revoke ends the connection at the gateway; deleting a connection calls it where it can.
	Revoke(ctx context.Context, c Credentials) error
}

// ErrInvalidGrant is a code or refresh token the gateway refuses for good (expired, used, revoked):
// retrying cannot help, the account holder must connect again.
var ErrInvalidGrant = errors.New("gateway: authorization refused")
