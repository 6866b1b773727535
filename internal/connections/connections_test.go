package connections

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/secrets/secretstest"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

func newStore(t *testing.T, appSecret []byte, previous ...string) *Store {
	return &Store{Box: secretstest.Box(t, appSecret, previous...)}
}

var creds = gateway.Credentials{AccessToken: "APP_USR-access-7f3a9c", RefreshToken: "TG-refresh-51bd0e", PublicKey: "APP_USR-public-1",
	AccountID: "123456", AccountName: "TESTUSER1", Country: "AR", ExpiresAt: time.Now().Add(180 * 24 * time.Hour).Truncate(time.Second)}

// rowsText is every column of the organisation's connection and state rows, as text: what a
// database dump would show of them.
func rowsText(t *testing.T, scope tenants.Scope) string {
	t.Helper()
	var b strings.Builder
	for _, table := range []string{"gateway_connections", "gateway_oauth_states"} {
		rows, err := scope.Query(context.Background(), "SELECT t::text FROM "+table+" t WHERE organization_id = $1", scope.OrgID)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			b.WriteString(s + "\n")
		}
		rows.Close()
	}
	return b.String()
}

func TestSaveSealsTheTokens(t *testing.T) {
	ctx := context.Background()
	tt := tenantstest.Open(t)
	cfg := tenantstest.Config(t)
	scope := tenantstest.ArgentineOrganization(t, tt, "Conexiones", "enabled", "essential_monthly")
	s := newStore(t, cfg.Secret)

	c, err := s.Save(ctx, scope, MercadoPago, creds)
	if err != nil {
		t.Fatal(err)
	}
	_, st, err := s.BeginOAuth(ctx, scope, MercadoPago, uuid.New(), "settings")
	if err != nil {
		t.Fatal(err)
	}
	dump := rowsText(t, scope)
	for _, secret := range []string{creds.AccessToken, creds.RefreshToken, st.State, st.Verifier} {
		if strings.Contains(dump, secret) {
			t.Errorf("the database holds %q in clear:\n%s", secret, dump)
		}
	}
	if !strings.Contains(dump, "TESTUSER1") {
		t.Fatalf("dump has not the connection: %s", dump)
	}

	got, gotCreds, err := s.Active(ctx, scope, MercadoPago)
	if err != nil || got.ID != c.ID || gotCreds.AccessToken != creds.AccessToken || gotCreds.RefreshToken != creds.RefreshToken ||
		!gotCreds.ExpiresAt.Equal(creds.ExpiresAt) || gotCreds.Country != "AR" {
		t.Fatalf("active = %+v %+v, %v", got, gotCreds, err)
	}
	if _, _, err := s.Active(ctx, scope, CentralPos); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("centralpos without a connection: %v", err)
	}

	// A sealed blob copied onto another organisation's row does not open there.
	other := tenantstest.ArgentineOrganization(t, tt, "Otra", "enabled", "essential_monthly")
	oc, err := s.Save(ctx, other, MercadoPago, gateway.Credentials{AccessToken: "other", AccountID: "9", AccountName: "OTHER", Country: "AR"})
	if err != nil {
		t.Fatal(err)
	}
	// Read, then write: the two organisations' rows may lie on different Citus shards.
	var secret []byte
	var keyID string
	if err := scope.QueryRow(ctx, `SELECT secret, key_id FROM gateway_connections WHERE organization_id = $1 AND id = $2`,
		scope.OrgID, c.ID).Scan(&secret, &keyID); err != nil {
		t.Fatal(err)
	}
	if err := other.Exec(ctx, `UPDATE gateway_connections SET secret = $3, key_id = $4 WHERE organization_id = $1 AND id = $2`,
		other.OrgID, oc.ID, secret, keyID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Active(ctx, other, MercadoPago); err == nil {
		t.Fatal("another organisation's sealed tokens opened on a copied row")
	}
}

func TestRefreshReconnectAndDelete(t *testing.T) {
	ctx := context.Background()
	tt := tenantstest.Open(t)
	scope := tenantstest.ArgentineOrganization(t, tt, "Renovación", "enabled", "essential_monthly")
	s := newStore(t, tenantstest.Config(t).Secret)
	c, err := s.Save(ctx, scope, MercadoPago, creds)
	if err != nil {
		t.Fatal(err)
	}
	renewed := creds
	renewed.AccessToken, renewed.RefreshToken, renewed.PublicKey = "APP_USR-access-2", "TG-refresh-2", ""
	c2, ok, err := s.Refreshed(ctx, scope, c, renewed)
	if err != nil || !ok || c2.Version != c.Version+1 || c2.PublicKey != creds.PublicKey {
		t.Fatalf("refreshed = %+v %v %v", c2, ok, err)
	}
	// A refresh of a version that is gone stores nothing.
	if _, ok, err := s.Refreshed(ctx, scope, c, creds); err != nil || ok {
		t.Fatalf("stale refresh: %v %v", ok, err)
	}
	if _, ok, err := s.NeedsReconnection(ctx, scope, c); err != nil || ok {
		t.Fatalf("stale needs-reconnection: %v %v", ok, err)
	}
	c3, ok, err := s.NeedsReconnection(ctx, scope, c2)
	if err != nil || !ok || c3.Status != StatusNeedsReconnection {
		t.Fatalf("needs reconnection = %+v %v %v", c3, ok, err)
	}
	if _, _, err := s.Active(ctx, scope, MercadoPago); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("a connection needing reconnection is active: %v", err)
	}
	// Reconnecting keeps the id, activates again.
	c4, err := s.Save(ctx, scope, MercadoPago, creds)
	if err != nil || c4.ID != c.ID || !c4.Active() || c4.Version <= c3.Version {
		t.Fatalf("reconnected = %+v, %v", c4, err)
	}
	gone, gotCreds, err := s.Delete(ctx, scope, c.ID)
	if err != nil || gone.ID != c.ID || gotCreds.AccessToken != creds.AccessToken {
		t.Fatalf("delete = %+v, %v", gone, err)
	}
	if list, err := s.List(ctx, scope); err != nil || len(list) != 0 {
		t.Fatalf("after delete: %+v, %v", list, err)
	}
}

func TestOAuthStateIsSingleUseAndBound(t *testing.T) {
	ctx := context.Background()
	tt := tenantstest.Open(t)
	scope := tenantstest.ArgentineOrganization(t, tt, "Estado", "enabled", "essential_monthly")
	other := tenantstest.ArgentineOrganization(t, tt, "Ajena", "enabled", "essential_monthly")
	s := newStore(t, tenantstest.Config(t).Secret)
	me, someoneElse := uuid.New(), uuid.New()

	a, st, err := s.BeginOAuth(ctx, scope, MercadoPago, me, "onboarding")
	if err != nil || a.State != st.State || len(st.Verifier) != 43 || a.CodeChallenge == "" {
		t.Fatalf("begin = %+v %+v %v", a, st, err)
	}
	for name, use := range map[string]func() error{
		"another identity":     func() error { _, _, err := s.UseOAuthState(ctx, scope, MercadoPago, someoneElse, st.State); return err },
		"another organisation": func() error { _, _, err := s.UseOAuthState(ctx, other, MercadoPago, me, st.State); return err },
		"another gateway":      func() error { _, _, err := s.UseOAuthState(ctx, scope, CentralPos, me, st.State); return err },
		"an unknown state":     func() error { _, _, err := s.UseOAuthState(ctx, scope, MercadoPago, me, "nope"); return err },
		"no state":             func() error { _, _, err := s.UseOAuthState(ctx, scope, MercadoPago, me, ""); return err },
	} {
		if err := use(); !errors.Is(err, ErrStateInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	verifier, returnTo, err := s.UseOAuthState(ctx, scope, MercadoPago, me, st.State)
	if err != nil || verifier != st.Verifier || returnTo != "onboarding" {
		t.Fatalf("use = %q %q %v", verifier, returnTo, err)
	}
	if _, _, err := s.UseOAuthState(ctx, scope, MercadoPago, me, st.State); !errors.Is(err, ErrStateInvalid) {
		t.Fatalf("replayed state: %v", err)
	}
	// Ten minutes later a state is dead.
	_, old, err := s.BeginOAuth(ctx, scope, MercadoPago, me, "settings")
	if err != nil {
		t.Fatal(err)
	}
	if err := scope.Exec(ctx, "UPDATE gateway_oauth_states SET created_at = now() - interval '11 minutes' WHERE organization_id = $1 AND used_at IS NULL", scope.OrgID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.UseOAuthState(ctx, scope, MercadoPago, me, old.State); !errors.Is(err, ErrStateInvalid) {
		t.Fatalf("expired state: %v", err)
	}
}

// TestRotateKeys moves from the key derived from one APORTA_SECRET to another's while the old one
// is still listed as previous: every connection keeps opening, and afterwards only the new key is needed.
func TestRotateKeys(t *testing.T) {
	ctx := context.Background()
	tt := tenantstest.Open(t)
	scope := tenantstest.ArgentineOrganization(t, tt, "Rotación", "enabled", "essential_monthly")
	oldSecret := tenantstest.Config(t).Secret
	newSecret := []byte(strings.Repeat("r", 8) + "0123456789abcdefghijklmnopqrstuv")
	if _, err := newStore(t, oldSecret).Save(ctx, scope, MercadoPago, creds); err != nil {
		t.Fatal(err)
	}
	oldURL, err := secrets.LocalKeyURL(oldSecret)
	if err != nil {
		t.Fatal(err)
	}
	rotating := newStore(t, newSecret, oldURL)
	if _, c, err := rotating.Active(ctx, scope, MercadoPago); err != nil || c.AccessToken != creds.AccessToken {
		t.Fatalf("before rotation with both keys: %v", err)
	}
	n, err := rotating.RotateKeys(ctx, scope)
	if err != nil || n != 1 {
		t.Fatalf("rotate = %d, %v", n, err)
	}
	if n, err := rotating.RotateKeys(ctx, scope); err != nil || n != 0 {
		t.Fatalf("second rotation = %d, %v", n, err)
	}
	if _, c, err := newStore(t, newSecret).Active(ctx, scope, MercadoPago); err != nil || c.RefreshToken != creds.RefreshToken {
		t.Fatalf("after rotation with the new key only: %+v %v", c, err)
	}
}
