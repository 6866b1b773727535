package mercadopago_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway/mercadopago"
)

func TestNotificationSignature(t *testing.T) {
	at := time.Unix(1742505638, 0)
	// HMAC-SHA256("id:123456;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1742505638;") with key
	// "your_secret", computed apart with `openssl dgst -sha256 -hmac your_secret`.
	sig := mercadopago.Sign("your_secret", "123456", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", at)
	require.Equal(t, "ts=1742505638,v1=56b985f712984852f49aa57ac0baaa2280789060e9bcae057827146d7d0587ce", sig)
	require.Equal(t, "id:abc123;request-id:r;ts:1;", mercadopago.Manifest("ABC123", "r", "1"))
	require.NoError(t, mercadopago.Verify("your_secret", sig, "123456", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", at.Add(time.Minute)))
	for name, c := range map[string]struct {
		secret, header, id, rid string
		now                     time.Time
	}{
		"other secret":   {"other", sig, "123456", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", at},
		"other payment":  {"your_secret", sig, "123457", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", at},
		"other request":  {"your_secret", sig, "123456", "another", at},
		"replayed later": {"your_secret", sig, "123456", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", at.Add(time.Hour)},
		"no signature":   {"your_secret", "", "123456", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", at},
		"no secret set":  {"", sig, "123456", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", at},
		"garbled":        {"your_secret", "ts=x,v1=", "123456", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", at},
	} {
		require.ErrorIs(t, mercadopago.Verify(c.secret, c.header, c.id, c.rid, c.now), mercadopago.ErrBadSignature, name)
	}
}
