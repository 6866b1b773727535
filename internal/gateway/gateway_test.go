package gateway_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
)

func TestErrorKeyFirstKnownCauseWins(t *testing.T) {
	t.Parallel()
	for code, key := range map[string]gateway.MessageKey{
		"212": gateway.KeyDocumentRequired, "214": gateway.KeyDocumentNumberRequired, "316": gateway.KeyInvalidName,
		"322": gateway.KeyCheckDocument, "323": gateway.KeyCheckDocument, "324": gateway.KeyCheckDocument,
		"325": gateway.KeyCheckExpiry, "E301": gateway.KeyCardNumber, "E302": gateway.KeySecurityCode,
		"E423": gateway.KeyResourceBlocked, "E702": gateway.KeyCardVerification, "9999": gateway.KeySubmitFailed,
	} {
		require.Equal(t, key, gateway.NewError(400, "bad", []gateway.Cause{{Code: code}}).Key, code)
	}
	causes := []gateway.Cause{{Code: "2006"}, {Code: "E302"}, {Code: "E301"}}
	require.Equal(t, gateway.KeySecurityCode, gateway.NewError(400, "bad", causes).Key)
	require.Equal(t, gateway.KeySubmitFailed, gateway.NewError(401, "unauthorized", nil).Key)
}

func TestErrorMatching(t *testing.T) {
	t.Parallel()
	notFound := fmt.Errorf("read back: %w", gateway.NewError(404, "Payment not found", nil))
	require.ErrorIs(t, notFound, gateway.ErrNotFound)
	require.NotErrorIs(t, gateway.NewError(400, "bad", nil), gateway.ErrNotFound)

	var unknown *gateway.UnknownOutcomeError
	err := error(&gateway.UnknownOutcomeError{Err: errors.New("i/o timeout")})
	require.ErrorAs(t, err, &unknown)
	require.Contains(t, err.Error(), "i/o timeout")
}
