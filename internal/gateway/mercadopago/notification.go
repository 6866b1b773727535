package mercadopago

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Notification is what MercadoPago posts to a payment's notification_url when the payment changes
// (a refund, a chargeback, a dispute): only the payment's id, which the receiver reads back with
// the account's credentials rather than trusting the body.
type Notification struct {
	Type   string `json:"type"` // "payment" for payments
	Action string `json:"action"`
	Data   struct {
		ID string `json:"id"`
	} `json:"data"`
}

// SignatureTolerance is how old a notification's signed timestamp may be: a replay after it is refused.
const SignatureTolerance = 15 * time.Minute

// ErrBadSignature is a notification whose x-signature does not verify.
var ErrBadSignature = errors.New("mercadopago: notification signature does not verify")

// Manifest is the text MercadoPago signs for a notification of dataID sent as requestID at ts
// (seconds): "id:<data.id>;request-id:<x-request-id>;ts:<ts>;", the id in lower case.
func Manifest(dataID, requestID, ts string) string {
	return "id:" + strings.ToLower(dataID) + ";request-id:" + requestID + ";ts:" + ts + ";"
}

// Sign is the x-signature header for a notification: "ts=<seconds>,v1=<hex HMAC-SHA256 of the manifest>".
func Sign(secret, dataID, requestID string, at time.Time) string {
	ts := strconv.FormatInt(at.Unix(), 10)
	return "ts=" + ts + ",v1=" + mac(secret, Manifest(dataID, requestID, ts))
}

// Verify checks a notification's x-signature header against the application's secret, and that it
// was signed within SignatureTolerance of now.
func Verify(secret, header, dataID, requestID string, now time.Time) error {
	var ts, v1 string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "ts":
			ts = v
		case "v1":
			v1 = v
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if secret == "" || err != nil || v1 == "" || dataID == "" {
		return ErrBadSignature
	}
	if age := now.Sub(time.Unix(sec, 0)); age > SignatureTolerance || age < -SignatureTolerance {
		return ErrBadSignature
	}
	if !hmac.Equal([]byte(v1), []byte(mac(secret, Manifest(dataID, requestID, ts)))) {
		return ErrBadSignature
	}
	return nil
}

func mac(secret, manifest string) string {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(manifest))
	return hex.EncodeToString(h.Sum(nil))
}
