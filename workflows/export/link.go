package export

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"regexp"
	"strconv"
	"time"
)

// LinkValidity is how long an e-mailed download link works (donor-and-campaigns §9).
const LinkValidity = 24 * time.Hour

// tokenPattern is an export token: 32 random bytes, base64url.
var tokenPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// ValidToken reports whether s looks like an export token (checked before touching storage).
func ValidToken(s string) bool { return tokenPattern.MatchString(s) }

// ObjectKey is where an export's CSV is stored.
func ObjectKey(token string) string { return "exports/" + token + ".csv" }

// Sign is the link's signature: HMAC-SHA256 with the server secret over the token and expiry.
func Sign(secret []byte, token string, expires int64) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("aporta-export\n" + token + "\n" + strconv.FormatInt(expires, 10)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Verify checks a signature in constant time.
func Verify(secret []byte, token string, expires int64, sig string) bool {
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return false
	}
	want, _ := base64.RawURLEncoding.DecodeString(Sign(secret, token, expires))
	return hmac.Equal(got, want)
}

// Link is the signed download URL of an export, valid until expires.
func Link(publicURL string, secret []byte, token string, expires time.Time) string {
	e := expires.Unix()
	q := url.Values{"expires": {strconv.FormatInt(e, 10)}, "sig": {Sign(secret, token, e)}}
	return publicURL + "/api/exports/" + token + "?" + q.Encode()
}
