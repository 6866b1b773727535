// Package crmlink is what the API and the sync workflow share about organisations' CRM
// integrations (issue #16): the outbox every change of a donor, donation or campaign is written to
// (Enqueue, in the changing transaction), the attributes an organisation may map and the check of
// a mapping against the CRM's describe, the sealed client secret, and the records a batch sends.
package crmlink

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/crm"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Kinds of records that sync; they are also the rules' class names.
const (
	Donor    = "donor"
	Donation = "donation"
	Campaign = "campaign"
)

// Enqueue writes that a record changed, for every CRM integration of the organisation, on q: the
// store of the transaction that makes the change, so the change and its sync commit together.
// Without integrations it writes nothing.
func Enqueue(ctx context.Context, q *sharddb.Queries, orgID uuid.UUID, kind string, id uuid.UUID) error {
	return q.EnqueueCRMChange(ctx, sharddb.EnqueueCRMChangeParams{OrganizationID: orgID, Kind: kind, RecordID: id})
}

// Vault seals and opens integrations' client secrets and builds their CRM clients.
type Vault struct {
	Box *secrets.Box
	// AnyHost lets a client call any http(s) address (dev and test, for the sandbox CRM); otherwise
	// only Salesforce's own hosts over https, so an organisation cannot aim our servers elsewhere.
	AnyHost bool
	Timeout time.Duration // per call; 30s when zero
}

// NewVault builds the vault from the configuration (the same keys as gateway tokens).
func NewVault(ctx context.Context, cfg *config.Config) (*Vault, error) {
	box, err := secrets.Open(ctx, cfg.Secret, cfg.SecretsURL, cfg.SecretsPreviousURLs...)
	if err != nil {
		return nil, err
	}
	return &Vault{Box: box, AnyHost: cfg.IsDev()}, nil
}

func aad(orgID, id uuid.UUID) []byte {
	return []byte("crm-integration/" + orgID.String() + "/" + id.String())
}

// Seal encrypts an integration's client secret, bound to its row.
func (v *Vault) Seal(ctx context.Context, orgID, id uuid.UUID, secret string) (secrets.Sealed, error) {
	return v.Box.Seal(ctx, []byte(secret), aad(orgID, id))
}

// RotateKeys re-wraps the client secret of every integration of the organisation still under an
// older key (`aporta rotate-secrets`); it answers how many it moved.
func (v *Vault) RotateKeys(ctx context.Context, scope tenants.Scope) (int, error) {
	rows, err := scope.Store().CRMIntegrations(ctx, scope.OrgID)
	if err != nil {
		return 0, err
	}
	return secrets.RewrapEach(ctx, v.Box, rows, func(r sharddb.CrmIntegration) secrets.Sealed {
		return secrets.Sealed{KeyID: r.KeyID, Blob: r.ClientSecret}
	}, func(r sharddb.CrmIntegration, sealed secrets.Sealed) (int64, error) {
		return scope.Store().RewrapCRMIntegrationSecret(ctx, sharddb.RewrapCRMIntegrationSecretParams{
			OrganizationID: scope.OrgID, ID: r.ID, Sealed: sealed.Blob, KeyID: sealed.KeyID, OldKeyID: r.KeyID})
	})
}

// Credentials opens an integration's credentials.
func (v *Vault) Credentials(ctx context.Context, in sharddb.CrmIntegration) (crm.Credentials, error) {
	secret, err := v.Box.Open(ctx, secrets.Sealed{KeyID: in.KeyID, Blob: in.ClientSecret}, aad(in.OrganizationID, in.ID))
	if err != nil {
		return crm.Credentials{}, err
	}
	return crm.Credentials{LoginURL: in.LoginUrl, ClientID: in.ClientID, ClientSecret: string(secret)}, nil
}

// Client is a CRM client for creds; onCall may be nil.
func (v *Vault) Client(creds crm.Credentials, onCall func(crm.Call)) *crm.Client {
	timeout := v.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	return &crm.Client{HTTP: &http.Client{Timeout: timeout}, Creds: creds, AllowHost: v.allowHost, OnCall: onCall}
}

func (v *Vault) allowHost(u *url.URL) bool {
	if v.AnyHost {
		return true
	}
	h := strings.ToLower(u.Hostname())
	return u.Scheme == "https" && (strings.HasSuffix(h, ".salesforce.com") || strings.HasSuffix(h, ".force.com"))
}
