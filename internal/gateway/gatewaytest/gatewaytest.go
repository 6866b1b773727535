// Package gatewaytest holds the checks every gateway adapter's tests make of the Charger contract.
package gatewaytest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
)

// ChargeOnce charges c, which g must approve for its whole amount; charges it again and requires
// the first payment back (its token is spent by then); and finds that payment alone under c's
// external reference. It answers the payment.
func ChargeOnce(t testing.TB, g gateway.Charger, c gateway.Charge) gateway.Payment {
	t.Helper()
	ctx := context.Background()
	p, err := g.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, p.Status)
	require.Equal(t, c.Amount, p.Amount)

	again, err := g.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, p.ID, again.ID, "the same idempotency key answers the first payment")

	found, err := g.FindPayments(ctx, c.ExternalReference)
	require.NoError(t, err)
	require.Len(t, found, 1)
	require.Equal(t, p.ID, found[0].ID)
	return p
}
