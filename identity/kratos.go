// Package identity talks to Ory Kratos (who a person is: identities, sessions, one-time codes) and
// Ory Keto (what they may do). It also holds the identity schema and the Keto namespaces.
package identity

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	kratos "github.com/ory/kratos-client-go"
)

// Kratos is the admin side of Kratos.
type Kratos struct {
	admin *kratos.APIClient
}

// NewKratos builds an admin client for the given admin URL.
func NewKratos(adminURL string, hc *http.Client) *Kratos {
	return &Kratos{admin: kratosClient(adminURL, hc)}
}

// NewHTTPClient is the HTTP client the API server asks Kratos and Keto with: one session resolution and at least
// one permission check per manage request. Its connections stay open for reuse by as many concurrent requests
// as the pool holds: net/http's default keeps 2 per host, so under more concurrent requests than that most
// calls dialled Kratos or Keto anew and closed the connection after one answer.
func NewHTTPClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = 256, 128
	return &http.Client{Timeout: timeout, Transport: t}
}

// kratosClient is the generated client of the Kratos API (admin or public) at url.
func kratosClient(url string, hc *http.Client) *kratos.APIClient {
	cfg := kratos.NewConfiguration()
	cfg.Servers = kratos.ServerConfigurations{{URL: url}}
	cfg.HTTPClient = hc
	return kratos.NewAPIClient(cfg)
}

// SchemaID is the identity schema of organisation users (identity/identity.schema.json).
const SchemaID = "organization_user"

// NewUser is an identity to create.
type NewUser struct {
	Email, Phone, FirstName, LastName, RoleArea, Password string
	// Verified marks the e-mail and phone as already verified (seeded and staff accounts).
	Verified bool
}

// ErrExists is returned when an identity with the same e-mail exists.
var ErrExists = errors.New("identity: already exists")

// CreateUser creates an identity with a password and no admin metadata.
func (k *Kratos) CreateUser(ctx context.Context, u NewUser) (uuid.UUID, error) {
	return k.CreateWithMetadata(ctx, u, nil)
}

// FindByEmail returns the identity whose password identifier is the e-mail, or ok=false.
func (k *Kratos) FindByEmail(ctx context.Context, email string) (uuid.UUID, bool, error) {
	ids, _, err := k.admin.IdentityAPI.ListIdentities(ctx).CredentialsIdentifier(email).Execute()
	if err != nil {
		return uuid.Nil, false, fmt.Errorf("kratos list identities: %w", err)
	}
	if len(ids) == 0 {
		return uuid.Nil, false, nil
	}
	id, err := uuid.Parse(ids[0].Id)
	return id, err == nil, err
}
