package webhook

import (
	"context"
	"crypto/rand"
	"encoding/base64"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// SecretPrefix starts every endpoint secret, so one found in a log or a repository is recognisable.
const SecretPrefix = "whsec_"

// NewSecret is a new endpoint secret: 32 random bytes.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (it panics on a broken system)
	return SecretPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// Vault seals and opens endpoints' secrets with the box that seals gateway tokens.
type Vault struct{ Box *secrets.Box }

func aad(orgID, id uuid.UUID) []byte {
	return []byte("webhook-endpoint/" + orgID.String() + "/" + id.String())
}

// Seal encrypts an endpoint's secret, bound to its row.
func (v Vault) Seal(ctx context.Context, orgID, id uuid.UUID, secret string) (secrets.Sealed, error) {
	return v.Box.Seal(ctx, []byte(secret), aad(orgID, id))
}

// Secret opens an endpoint's secret.
func (v Vault) Secret(ctx context.Context, e sharddb.WebhookEndpoint) ([]byte, error) {
	return v.Box.Open(ctx, secrets.Sealed{KeyID: e.KeyID, Blob: e.Secret}, aad(e.OrganizationID, e.ID))
}

// RotateKeys re-wraps the secret of every endpoint of the organisation still under an older key
// (`aporta rotate-secrets`); it answers how many it moved.
func (v Vault) RotateKeys(ctx context.Context, scope tenants.Scope) (int, error) {
	rows, err := scope.Store().WebhookEndpoints(ctx, scope.OrgID)
	if err != nil {
		return 0, err
	}
	return secrets.RewrapEach(ctx, v.Box, rows, func(e sharddb.WebhookEndpoint) secrets.Sealed {
		return secrets.Sealed{KeyID: e.KeyID, Blob: e.Secret}
	}, func(e sharddb.WebhookEndpoint, sealed secrets.Sealed) (int64, error) {
		return scope.Store().RewrapWebhookEndpointSecret(ctx, sharddb.RewrapWebhookEndpointSecretParams{
			OrganizationID: scope.OrgID, ID: e.ID, Sealed: sealed.Blob, KeyID: sealed.KeyID, OldKeyID: e.KeyID})
	})
}
