package collectday

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestOfAndAfter(t *testing.T) {
	t.Parallel()
	d := Of(time.Date(2026, 1, 15, 10, 0, 0, 0, time.UTC))
	require.Equal(t, Day(15), d)
	require.Equal(t, Last, Of(time.Date(2026, 2, 28, 10, 0, 0, 0, time.UTC)), "the month's last day collects on every last day")
	require.Nil(t, Last.Column(), "stored as NULL")
	require.Nil(t, Last.Ptr(), "shown as null")
	require.Equal(t, Last, FromColumn(nil))
	require.Equal(t, Day(31), FromPtr(Day(31).Ptr()))
	require.Equal(t, "2026-02-28", Day(31).After(time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)).Format(time.DateOnly))
	require.Equal(t, "2026-03-31", Last.After(time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC)).Format(time.DateOnly))
	require.Equal(t, "2027-01-15", d.After(time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC)).Format(time.DateOnly))
}

func TestDateClampsToMonthEnd(t *testing.T) {
	t.Parallel()
	ba, err := time.LoadLocation("America/Argentina/Buenos_Aires")
	require.NoError(t, err)
	for _, tc := range []struct {
		period Period
		day    Day
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
		got := tc.day.Date(tc.period, ba)
		require.Equal(t, tc.want, got.Format(time.DateOnly), "%s day %d", tc.period, tc.day)
		require.Equal(t, ba, got.Location())
		require.Zero(t, got.Hour())
	}
	// The charge starts at local midnight: 03:00 UTC in Buenos Aires.
	require.Equal(t, time.Date(2027, 3, 15, 3, 0, 0, 0, time.UTC), Day(15).Date(Period{2027, time.March}, ba).UTC())
}

func TestFirstUsesTheOrganisationsDay(t *testing.T) {
	t.Parallel()
	ba, _ := time.LoadLocation("America/Argentina/Buenos_Aires")
	// 2027-03-15 01:00 UTC is still the 14th in Buenos Aires: a collect day 14 charges this month.
	now := time.Date(2027, 3, 15, 1, 0, 0, 0, time.UTC)
	require.Equal(t, Period{2027, time.March}, Day(14).First(now, ba))
	require.Equal(t, Period{2027, time.April}, Day(13).First(now, ba))
	require.Equal(t, Period{2027, time.April}, Day(14).First(now, time.UTC)) // the 15th in UTC
	require.Equal(t, Period{2027, time.March}, Day(0).First(now, ba))
	require.Equal(t, Period{2027, time.March}, Day(31).First(now, ba))
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
