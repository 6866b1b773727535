package thanks

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func TestFill(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Gracias Ana por $ 10,00 a X", Fill("Gracias {nombre} por {monto} a {campaña}", "Ana", "$ 10,00", "X"))
	require.Equal(t, "Thanks Ana", Fill("Thanks {name}", "Ana", "", ""))
}

func TestReceiptRefExpires(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r := Receipts{Secret: []byte("0123456789abcdef0123456789abcdef")}
	org, don := uuid.New(), uuid.New()
	ref := r.Ref(org, don, now)
	gotOrg, gotDon, ok := r.Parse(ref, now)
	require.True(t, ok)
	require.Equal(t, org, gotOrg)
	require.Equal(t, don, gotDon)

	_, _, ok = r.Parse(ref, now.Add(ReceiptTTL-time.Second))
	require.True(t, ok)
	_, _, ok = r.Parse(ref, now.Add(ReceiptTTL))
	require.False(t, ok, "expired")

	other := Receipts{Secret: []byte("another secret of thirty-two bytes!")}
	_, _, ok = r.Parse(other.Ref(org, don, now), now)
	require.False(t, ok, "signed with another secret")
}
