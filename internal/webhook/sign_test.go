package webhook_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/webhook"
)

// The vector is computed independently (Python's hmac): HMAC-SHA256("whsec_test", "1700000000." + body).
func TestSignatureKnownVector(t *testing.T) {
	t.Parallel()
	body := []byte(`{"id":"evt","type":"donation.created"}`)
	const want = "188c8ea75a4fdf567f8ecac4e074a877bfbbdea5399481c944aa4112b8979c99"
	require.Equal(t, want, webhook.Sign([]byte("whsec_test"), 1700000000, body))
	at := time.Unix(1700000000, 0)
	header := webhook.Header([]byte("whsec_test"), at, body)
	require.Equal(t, "t=1700000000,v1="+want, header)

	require.NoError(t, webhook.Verify([]byte("whsec_test"), header, body, at.Add(time.Minute)))
	require.ErrorIs(t, webhook.Verify([]byte("whsec_other"), header, body, at), webhook.ErrMismatch)
	require.ErrorIs(t, webhook.Verify([]byte("whsec_test"), header, []byte(`{"id":"evt","type":"donation.cancelled"}`), at), webhook.ErrMismatch)
	// A replay outside the tolerance, either way, is refused even with a good signature.
	require.ErrorIs(t, webhook.Verify([]byte("whsec_test"), header, body, at.Add(webhook.Tolerance+time.Second)), webhook.ErrTooOld)
	require.ErrorIs(t, webhook.Verify([]byte("whsec_test"), header, body, at.Add(-webhook.Tolerance-time.Second)), webhook.ErrTooOld)
	// A signature whose timestamp was changed no longer matches.
	require.ErrorIs(t, webhook.Verify([]byte("whsec_test"), "t=1700000030,v1="+want, body, at), webhook.ErrMismatch)
	for _, h := range []string{"", "v1=" + want, "t=1700000000", "t=abc,v1=" + want, "garbage"} {
		require.ErrorIs(t, webhook.Verify([]byte("whsec_test"), h, body, at), webhook.ErrMalformed, h)
	}
}

func TestNewSecretIsRandomAndPrefixed(t *testing.T) {
	t.Parallel()
	a, b := webhook.NewSecret(), webhook.NewSecret()
	require.NotEqual(t, a, b)
	require.Regexp(t, `^whsec_[A-Za-z0-9_-]{43}$`, a)
}

func TestEventTypes(t *testing.T) {
	t.Parallel()
	require.Equal(t, webhook.DonationCancelled, webhook.ChangeType("status", []byte(`{"status":"discarded","discard_reason":"x"}`)))
	require.Equal(t, webhook.DonationUpdated, webhook.ChangeType("status", []byte(`{"status":"paused"}`)))
	require.Equal(t, webhook.DonationUpdated, webhook.ChangeType("amount", []byte(`{"status":"discarded"}`)))
	require.Equal(t, webhook.ChargeApproved, webhook.ChargeType("approved"))
	require.Equal(t, webhook.ChargeDeclined, webhook.ChargeType("rejected"))
	require.Empty(t, webhook.ChargeType("pending"))
	require.Equal(t, webhook.ChargeRefunded, webhook.ChargeType("refunded"))
	require.Equal(t, webhook.ChargeChargedBack, webhook.ChargeType("charged_back"))
	require.True(t, webhook.Known("charge.declined"))
	require.True(t, webhook.Known("charge.refunded"))
	require.False(t, webhook.Known("charge.disputed"))
}
