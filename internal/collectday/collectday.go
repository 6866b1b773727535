// Package collectday is the calendar of monthly donations: the day of the month a donation is
// collected on, the collection months (periods) and the date each period is charged. The donation
// form, the first-charge guard, collection and the manage area all read dates from here.
//
// "The last day of the month" has one encoding in Go: Last (0). At the edges it is NULL in the
// donations.collect_day column (Column, FromColumn) and null in the JSON API (Ptr, FromPtr).
package collectday

import (
	"fmt"
	"time"
)

// Day is the day of the month a monthly donation is collected: 1–31, or Last. A month without
// that day (31 in April, 29–31 in February) is collected on its last day.
type Day int

// Last is the last day of every month.
const Last Day = 0

// Of is the collect day of a monthly donation made on t (read in t's location): t's day, or Last
// when t is the month's last day, so a donation made on 30 April is collected on 31 May.
func Of(t time.Time) Day {
	if t.Day() == DaysIn(t.Year(), t.Month()) {
		return Last
	}
	return Day(t.Day())
}

// Valid says whether d is 1–31 or Last.
func (d Day) Valid() bool { return d >= 0 && d <= 31 }

// Column is d as the collect_day column stores it: NULL for Last.
func (d Day) Column() *int16 {
	if d == Last {
		return nil
	}
	v := int16(d)
	return &v
}

// FromColumn reads the collect_day column (NULL: Last).
func FromColumn(v *int16) Day {
	if v == nil {
		return Last
	}
	return Day(*v)
}

// Ptr is d as the JSON API shows it: null for Last.
func (d Day) Ptr() *int {
	if d == Last {
		return nil
	}
	v := int(d)
	return &v
}

// FromPtr reads the JSON API's collect day (null: Last).
func FromPtr(v *int) Day {
	if v == nil {
		return Last
	}
	return Day(*v)
}

// Date is when period p is charged: the start of the collect day in loc, on the month's last day
// when the month is shorter.
func (d Day) Date(p Period, loc *time.Location) time.Time {
	last := DaysIn(p.Year, p.Month)
	day := int(d)
	if day <= 0 || day > last {
		day = last
	}
	return time.Date(p.Year, p.Month, day, 0, 0, 0, 0, loc)
}

// After is the date of the charge in the month after t's (the next_charge_date of a donation
// charged on t), as a UTC date.
func (d Day) After(t time.Time) time.Time { return d.Date(PeriodOf(t).Next(), time.UTC) }

// First is the first period charged for a donation starting at now: this month if its collect day
// is today or later (in loc), otherwise next month. A donation created on its collect day is
// charged at once.
func (d Day) First(now time.Time, loc *time.Location) Period {
	local := now.In(loc)
	p := PeriodOf(local)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	if d.Date(p, loc).Before(today) {
		return p.Next()
	}
	return p
}

// Period is a collection month, written YYYY-MM (the transactions.period column and the middle of
// every monthly charge's idempotency key).
type Period struct {
	Year  int        `json:"year"`
	Month time.Month `json:"month"`
}

func (p Period) String() string { return fmt.Sprintf("%04d-%02d", p.Year, int(p.Month)) }

// Next is the following month.
func (p Period) Next() Period { return p.AddMonths(1) }

// AddMonths moves n months forward (or back when n < 0).
func (p Period) AddMonths(n int) Period {
	m := int(p.Month) - 1 + n
	y := p.Year + m/12
	m %= 12
	if m < 0 {
		m += 12
		y--
	}
	return Period{Year: y, Month: time.Month(m + 1)}
}

// Before orders periods.
func (p Period) Before(q Period) bool {
	return p.Year < q.Year || (p.Year == q.Year && p.Month < q.Month)
}

// IsZero is true for the zero Period.
func (p Period) IsZero() bool { return p.Year == 0 }

// PeriodOf is the period t falls in, read in t's location.
func PeriodOf(t time.Time) Period { return Period{Year: t.Year(), Month: t.Month()} }

// ParsePeriod reads "YYYY-MM".
func ParsePeriod(s string) (Period, error) {
	t, err := time.Parse("2006-01", s)
	if err != nil {
		return Period{}, fmt.Errorf("period %q: %w", s, err)
	}
	return PeriodOf(t), nil
}

// DaysIn is the number of days of a month.
func DaysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
