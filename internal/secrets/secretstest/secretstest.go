// Package secretstest opens secrets boxes for tests.
package secretstest

import (
	"context"
	"testing"

	"github.com/aporta/aporta/internal/secrets"
)

// Box opens a box on the key derived from appSecret (no KMS), which also opens what the previous keepers' URLs
// sealed; it fails the test when it cannot.
func Box(t testing.TB, appSecret []byte, previous ...string) *secrets.Box {
	t.Helper()
	box, err := secrets.Open(context.Background(), appSecret, "", previous...)
	if err != nil {
		t.Fatal(err)
	}
	return box
}
