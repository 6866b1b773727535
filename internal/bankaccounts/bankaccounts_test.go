package bankaccounts

import (
	"context"
	"strings"
	"testing"

	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/secrets/secretstest"
	"github.com/aporta/aporta/tenants/tenantstest"
)

func store(t *testing.T, appSecret []byte, previous ...string) *Store {
	return &Store{Box: secretstest.Box(t, appSecret, previous...)}
}

// TestRotateKeys: an account number sealed under one APORTA_SECRET's key moves to another's, and
// still opens (rotate-secrets runs this beside the gateway tokens' rotation).
func TestRotateKeys(t *testing.T) {
	ctx := context.Background()
	tt := tenantstest.Open(t)
	scope := tenantstest.ArgentineOrganization(t, tt, "Rotación banco", "enabled", "essential_monthly")
	params, err := reference.Banks(ctx, scope.Store(), "AR")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Check("AR", params, Form{BankCode: "285", BankName: "x", AccountNumber: "2850590940090418135201",
		ContactFirstName: "Ana", ContactLastName: "Pérez", ContactEmail: "ana@example.org", ContactPhone: "+5411 5555 1234"}, false)
	if err != nil {
		t.Fatal(err)
	}
	oldSecret := tenantstest.Config(t).Secret
	a, err := store(t, oldSecret).Create(ctx, scope, c, "ARS")
	if err != nil {
		t.Fatal(err)
	}
	oldURL, err := secrets.LocalKeyURL(oldSecret)
	if err != nil {
		t.Fatal(err)
	}
	newSecret := []byte(strings.Repeat("b", 8) + "0123456789abcdefghijklmnopqrstuv")
	rotating := store(t, newSecret, oldURL)
	if n, err := rotating.RotateKeys(ctx, scope); err != nil || n != 1 {
		t.Fatalf("rotate = %d, %v", n, err)
	}
	if n, err := rotating.RotateKeys(ctx, scope); err != nil || n != 0 {
		t.Fatalf("second rotation = %d, %v", n, err)
	}
	moved, err := store(t, newSecret).Get(ctx, scope, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := store(t, newSecret).Number(ctx, moved); err != nil || n != "2850590940090418135201" {
		t.Fatalf("after rotation with the new key only: %q %v", n, err)
	}
}
