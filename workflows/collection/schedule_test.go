package collection

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestChargeDateClampsToMonthEnd(t *testing.T) {
	t.Parallel()
	ba, err := time.LoadLocation("America/Argentina/Buenos_Aires")
	require.NoError(t, err)
	for _, tc := range []struct {
		period Period
		day    int
		want   string
	}{
		{Period{2028, time.January}, 31, "2028-01-31"},
		{Period{2028, time.February}, 31, "2028-02-29"}, // leap year
		{Period{2027, time.February}, 31, "2027-02-28"},
		{Period{2100, time.February}, 29, "2100-02-28"}, // divisible by 100: not leap
		{Period{2000, time.February}, 30, "2000-02-29"}, // divisible by 400: leap
		{Period{2027, time.April}, 31, "2027-04-30"},
		{Period{2027, time.June}, 31, "2027-06-30"},
		{Period{2027, time.September}, 31, "2027-09-30"},
		{Period{2027, time.November}, 31, "2027-11-30"},
		{Period{2027, time.December}, 31, "2027-12-31"},
		{Period{2027, time.April}, 30, "2027-04-30"},
		{Period{2027, time.March}, 15, "2027-03-15"},
		{Period{2027, time.February}, 0, "2027-02-28"}, // 0: last day
		{Period{2028, time.February}, 0, "2028-02-29"},
		{Period{2027, time.July}, 0, "2027-07-31"},
	} {
		got := ChargeDate(tc.period, tc.day, ba)
		require.Equal(t, tc.want, got.Format(time.DateOnly), "%s day %d", tc.period, tc.day)
		require.Equal(t, ba, got.Location())
		require.Zero(t, got.Hour())
	}
	// The charge starts at local midnight: 03:00 UTC in Buenos Aires.
	require.Equal(t, time.Date(2027, 3, 15, 3, 0, 0, 0, time.UTC), ChargeDate(Period{2027, time.March}, 15, ba).UTC())
}

func TestFirstPeriodUsesTheOrganisationsDay(t *testing.T) {
	t.Parallel()
	ba, _ := time.LoadLocation("America/Argentina/Buenos_Aires")
	// 2027-03-15 01:00 UTC is still the 14th in Buenos Aires: a collect day 14 charges this month.
	now := time.Date(2027, 3, 15, 1, 0, 0, 0, time.UTC)
	require.Equal(t, Period{2027, time.March}, FirstPeriod(now, 14, ba))
	require.Equal(t, Period{2027, time.April}, FirstPeriod(now, 13, ba))
	require.Equal(t, Period{2027, time.April}, FirstPeriod(now, 14, time.UTC)) // the 15th in UTC
	require.Equal(t, Period{2027, time.March}, FirstPeriod(now, 0, ba))
	require.Equal(t, Period{2027, time.March}, FirstPeriod(now, 31, ba))
}

func TestPeriodArithmetic(t *testing.T) {
	t.Parallel()
	p := Period{2027, time.November}
	require.Equal(t, "2027-11", p.String())
	require.Equal(t, Period{2028, time.January}, p.AddMonths(2))
	require.Equal(t, Period{2026, time.December}, p.AddMonths(-11))
	require.Equal(t, Period{2028, time.November}, p.AddMonths(12))
	require.True(t, p.Before(p.Next()))
	q, err := ParsePeriod("2027-03")
	require.NoError(t, err)
	require.Equal(t, Period{2027, time.March}, q)
}

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
