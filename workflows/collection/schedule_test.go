package collection

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestCardExpiry(t *testing.T) {
	t.Parallel()
	require.False(t, CardExpired(2, 2028, time.Date(2028, 2, 29, 23, 0, 0, 0, time.UTC)), "valid through its month")
	require.True(t, CardExpired(2, 2028, time.Date(2028, 3, 1, 0, 0, 0, 0, time.UTC)))
	require.True(t, CardExpired(12, 2027, time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC)))
	require.False(t, CardExpired(0, 0, time.Now()), "unknown expiry is left to the gateway")
}

func TestIncreaseAmountRoundsToMinorUnit(t *testing.T) {
	t.Parallel()
	require.Equal(t, int64(110000), IncreaseAmount(100000, 1000, 0)) // ARS 1000,00 + 10% = 1100,00
	require.Equal(t, int64(121000), IncreaseAmount(110000, 1000, 0))
	require.Equal(t, int64(1055), IncreaseAmount(1000, 550, 0))    // 10,00 + 5.5% = 10,55
	require.Equal(t, int64(1006), IncreaseAmount(1001, 50, 0))     // 10,01 × 1.005 = 10,05995 → 10,06
	require.Equal(t, int64(5175), IncreaseAmount(5000, 350, 0))    // CLP 5000 + 3.5% = 5175 pesos
	require.Equal(t, int64(10334), IncreaseAmount(9999, 335, 0))   // CLP 9999 × 1.0335 = 10333.97 → 10334
	require.Equal(t, int64(15000), IncreaseAmount(10000, 5000, 0)) // COP, +50%
}

// TestIncreaseNearInt64MaxDoesNotOverflow: an amount whose product with the percentage passes
// int64 used to wrap to a negative charge; it now stops at the cap (or int64's largest value).
func TestIncreaseNearInt64MaxDoesNotOverflow(t *testing.T) {
	t.Parallel()
	const huge = math.MaxInt64 - 10
	require.Equal(t, int64(math.MaxInt64), IncreaseAmount(huge, 1000, 0))
	require.Equal(t, int64(math.MaxInt64), IncreaseAmount(math.MaxInt64/2, 100_000, 0), "+1000% of half of int64 stops at its largest value")
	require.Equal(t, int64(1_100_000_000_000_000), IncreaseAmount(1_000_000_000_000_000, 1000, 0), "exact above 2^63/11000")
	require.Equal(t, int64(800_000), IncreaseAmount(750_000, 1000, 800_000), "capped at the campaign's and gateway's max")
	require.Equal(t, int64(900_000), IncreaseAmount(900_000, 1000, 800_000), "never lowered to the cap, never raised past it")
}
