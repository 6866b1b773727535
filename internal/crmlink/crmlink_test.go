package crmlink

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/secrets/secretstest"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants/tenantstest"
)

func vault(t *testing.T, appSecret []byte, previous ...string) *Vault {
	return &Vault{Box: secretstest.Box(t, appSecret, previous...)}
}

// TestRotateKeys: an integration's client secret sealed under one APORTA_SECRET's key moves to
// another's and still opens with the new key alone (rotate-secrets runs this beside the gateway
// tokens' and bank account numbers' rotation).
func TestRotateKeys(t *testing.T) {
	ctx := context.Background()
	tt := tenantstest.Open(t)
	scope := tenantstest.ArgentineOrganization(t, tt, "Rotación CRM", "enabled", "original")
	oldSecret := tenantstest.Config(t).Secret
	id := uuid.New()
	sealed, err := vault(t, oldSecret).Seal(ctx, scope.OrgID, id, "s3cret-of-the-connected-app")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scope.Store().CreateCRMIntegration(ctx, sharddb.CreateCRMIntegrationParams{OrganizationID: scope.OrgID, ID: id,
		Name: "CRM", LoginUrl: "https://login.salesforce.com", ClientID: "client", ClientSecret: sealed.Blob, KeyID: sealed.KeyID,
		ExternalIDField: "Aporta_Id__c", Describes: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	oldURL, err := secrets.LocalKeyURL(oldSecret)
	if err != nil {
		t.Fatal(err)
	}
	newSecret := []byte(strings.Repeat("c", 8) + "0123456789abcdefghijklmnopqrstuv")
	rotating := vault(t, newSecret, oldURL)
	if n, err := rotating.RotateKeys(ctx, scope); err != nil || n != 1 {
		t.Fatalf("rotate = %d, %v", n, err)
	}
	if n, err := rotating.RotateKeys(ctx, scope); err != nil || n != 0 {
		t.Fatalf("second rotation = %d, %v", n, err)
	}
	row, err := scope.Store().CRMIntegration(ctx, sharddb.CRMIntegrationParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		t.Fatal(err)
	}
	creds, err := vault(t, newSecret).Credentials(ctx, row)
	if err != nil || creds.ClientSecret != "s3cret-of-the-connected-app" {
		t.Fatalf("after rotation with the new key only: %q %v", creds.ClientSecret, err)
	}
	if _, err := vault(t, oldSecret).Credentials(ctx, row); err == nil {
		t.Fatal("the old key alone still opens the rotated secret")
	}
}
