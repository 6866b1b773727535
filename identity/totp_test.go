package identity

import (
	"encoding/base32"
	"testing"
	"time"
)

// RFC 6238 appendix B, SHA-1 vectors (the last six digits of the eight-digit codes).
func TestTOTPMatchesRFC6238(t *testing.T) {
	secret := base32.StdEncoding.EncodeToString([]byte("12345678901234567890"))
	for unix, want := range map[int64]string{59: "287082", 1111111109: "081804", 1234567890: "005924", 2000000000: "279037"} {
		got, err := TOTP(secret, time.Unix(unix, 0))
		if err != nil || got != want {
			t.Errorf("TOTP at %d = %q, %v; want %s", unix, got, err, want)
		}
	}
}
