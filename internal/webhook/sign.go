package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader carries a delivery's signature: "t=<unix seconds>,v1=<hex HMAC-SHA256>" where the
// HMAC is keyed by the endpoint's secret over "<t>.<body>" (docs/webhooks.md shows how to check it).
const SignatureHeader = "Aporta-Signature"

// Tolerance is how old a signature a receiver should still accept (Verify): older ones are refused,
// so a captured delivery cannot be replayed later.
const Tolerance = 5 * time.Minute

// Sign is the hex HMAC-SHA256 of "<t>.<body>" under secret.
func Sign(secret []byte, t int64, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(strconv.FormatInt(t, 10)))
	mac.Write([]byte("."))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// Header is the SignatureHeader value for body sent at t.
func Header(secret []byte, t time.Time, body []byte) string {
	ts := t.Unix()
	return "t=" + strconv.FormatInt(ts, 10) + ",v1=" + Sign(secret, ts, body)
}

// Verification errors.
var (
	ErrMalformed = errors.New("webhook: malformed signature header")
	ErrTooOld    = errors.New("webhook: signature timestamp outside the tolerance")
	ErrMismatch  = errors.New("webhook: signature does not match")
)

// Verify checks a delivery as a receiver would: header is its SignatureHeader, body the raw body,
// now the receiver's clock. It refuses a timestamp more than Tolerance away from now.
func Verify(secret []byte, header string, body []byte, now time.Time) error {
	var ts int64
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return ErrMalformed
		}
		switch k {
		case "t":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return ErrMalformed
			}
			ts = n
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if ts == 0 || len(sigs) == 0 {
		return ErrMalformed
	}
	if d := now.Sub(time.Unix(ts, 0)); d > Tolerance || d < -Tolerance {
		return ErrTooOld
	}
	want := []byte(Sign(secret, ts, body))
	for _, s := range sigs {
		if hmac.Equal([]byte(s), want) {
			return nil
		}
	}
	return ErrMismatch
}
