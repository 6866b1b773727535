package secrets

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

var (
	appSecret = []byte("0123456789abcdef0123456789abcdef-test")
	otherApp  = []byte("fedcba9876543210fedcba9876543210-test")
)

func TestSealOpen(t *testing.T) {
	ctx := context.Background()
	b, err := Open(ctx, appSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	plain := []byte(`{"access_token":"APP_USR-secret"}`)
	s, err := b.Seal(ctx, plain, []byte("org/conn"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(s.Blob, []byte("APP_USR")) || s.KeyID != b.KeyID() {
		t.Fatalf("sealed %+v", s)
	}
	got, err := b.Open(ctx, s, []byte("org/conn"))
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("open = %q, %v", got, err)
	}
	if _, err := b.Open(ctx, s, []byte("org/other")); err == nil {
		t.Fatal("a value moved to another row opened")
	}
	tampered := Sealed{KeyID: s.KeyID, Blob: bytes.Clone(s.Blob)}
	tampered.Blob[len(tampered.Blob)-1] ^= 1
	if _, err := b.Open(ctx, tampered, []byte("org/conn")); err == nil {
		t.Fatal("a tampered value opened")
	}
	// Two seals of the same value differ (a fresh data key and nonce each).
	s2, _ := b.Seal(ctx, plain, []byte("org/conn"))
	if bytes.Equal(s.Blob, s2.Blob) {
		t.Fatal("two seals are equal")
	}
}

// TestRotation moves from the key derived from the old APORTA_SECRET to a new one: during the
// move the new box opens both, Rewrap re-wraps only the data key, and afterwards the old key
// is no longer needed.
func TestRotation(t *testing.T) {
	ctx := context.Background()
	old, err := Open(ctx, appSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := old.Seal(ctx, []byte("refresh-token"), []byte("aad"))
	if err != nil {
		t.Fatal(err)
	}
	oldURL, err := LocalKeyURL(appSecret)
	if err != nil {
		t.Fatal(err)
	}
	rotating, err := Open(ctx, otherApp, "", oldURL)
	if err != nil {
		t.Fatal(err)
	}
	if rotating.KeyID() == old.KeyID() {
		t.Fatal("the new key has the old key's id")
	}
	if got, err := rotating.Open(ctx, s, []byte("aad")); err != nil || string(got) != "refresh-token" {
		t.Fatalf("old value during rotation = %q, %v", got, err)
	}
	moved, err := rotating.Rewrap(ctx, s)
	if err != nil || moved.KeyID != rotating.KeyID() {
		t.Fatalf("rewrap = %+v, %v", moved, err)
	}
	after, err := Open(ctx, otherApp, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := after.Open(ctx, moved, []byte("aad")); err != nil || string(got) != "refresh-token" {
		t.Fatalf("rewrapped value with the new key only = %q, %v", got, err)
	}
	if _, err := after.Open(ctx, s, []byte("aad")); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("old value without the old key: %v", err)
	}
}

// TestMovingToAKeyService: with APORTA_SECRETS_URL set, values sealed by the key derived from
// APORTA_SECRET still open (and re-wrap) with nothing else to list.
func TestMovingToAKeyService(t *testing.T) {
	ctx := context.Background()
	local, err := Open(ctx, appSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := local.Seal(ctx, []byte("access"), nil)
	if err != nil {
		t.Fatal(err)
	}
	kms, err := Open(ctx, appSecret, "base64key://smGbjm71Nxd1Ig5FS0wj9SlbzAIrnolCz9bQQ6uAhl4=")
	if err != nil {
		t.Fatal(err)
	}
	if kms.KeyID() == local.KeyID() {
		t.Fatal("the key service's key has the derived key's id")
	}
	moved, err := kms.Rewrap(ctx, s)
	if err != nil || moved.KeyID != kms.KeyID() {
		t.Fatalf("rewrap = %+v, %v", moved, err)
	}
	if got, err := kms.Open(ctx, moved, nil); err != nil || string(got) != "access" {
		t.Fatalf("open = %q, %v", got, err)
	}
}
