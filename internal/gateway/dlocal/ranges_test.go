package dlocal_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/money"
)

// The local-payment ranges of donor-and-campaigns §9, and the default for a country it does not state.
func TestLocalRanges(t *testing.T) {
	for country, want := range map[string][2]int64{"AR": {10, 3000000}, "BR": {5, 15000}, "CO": {5000, 14000000},
		"MX": {5, 50000}, "PE": {2, 11000}, "UY": {5, 110000}, "CL": {1000, 1000000}} {
		lo, hi := dlocal.LocalRange(country)
		require.Equal(t, want, [2]int64{lo, hi}, country)
	}
}

// An account's range is ours: it holds while the processor does not answer (no request is made), in
// the minor units of its currency (COP has none).
func TestAmountLimitsNeedNoProcessor(t *testing.T) {
	a, err := dlocal.NewAccount(dlocal.Config{BaseURL: "http://127.0.0.1:1", Login: "l", TransKey: "k", Secret: "s"},
		dlocal.Merchant{Login: "m", TransKey: "k", Secret: "s", PublicKey: "p"}, "CO", "COP")
	require.NoError(t, err)
	l, err := a.AmountLimits(context.Background())
	require.NoError(t, err)
	require.Equal(t, gateway.AmountLimits{Min: money.New(5000, "COP"), Max: money.New(14000000, "COP")}, l)
}
