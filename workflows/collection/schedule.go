package collection

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
	"time"
)

// Period is a collection month, written YYYY-MM (the transactions.period column and the middle of
// every idempotency key).
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

// ChargeDate is when period p is charged: the start of the collect day in loc. collectDay is 1–31,
// or 0 for the last day of the month; a month without that day (31 in April, 29–31 in February)
// charges on its last day.
func ChargeDate(p Period, collectDay int, loc *time.Location) time.Time {
	last := DaysIn(p.Year, p.Month)
	day := collectDay
	if day <= 0 || day > last {
		day = last
	}
	return time.Date(p.Year, p.Month, day, 0, 0, 0, 0, loc)
}

// FirstPeriod is the first period charged for a donation starting at now: this month if its
// collect day is today or later (in loc), otherwise next month. A donation created on its collect
// day is charged at once.
func FirstPeriod(now time.Time, collectDay int, loc *time.Location) Period {
	local := now.In(loc)
	p := PeriodOf(local)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	if ChargeDate(p, collectDay, loc).Before(today) {
		return p.Next()
	}
	return p
}

// CardExpired says whether a card valid through expMonth/expYear can no longer be charged on
// (the local date of) on: a card is valid until the last day of its expiry month.
func CardExpired(expMonth, expYear int, on time.Time) bool {
	if expMonth < 1 || expMonth > 12 || expYear <= 0 {
		return false // unknown expiry: let the gateway decide
	}
	p := PeriodOf(on)
	exp := Period{Year: expYear, Month: time.Month(expMonth)}
	return exp.Before(p)
}

// IncreaseAmount applies a percentage given in basis points (1050 = 10.50%) to an amount in minor
// units, rounding half up to the minor unit. Amounts are already in the currency's minor unit
// (cents for ARS, whole pesos for CLP and COP), so rounding to an integer is rounding to what the
// currency can represent. The product is computed in 128 bits, so no amount overflows, and the
// result is capped at max (the campaign's and gateway's largest donation; max <= 0: int64's): an
// increase never lowers an amount already above the cap, nor raises it past it.
func IncreaseAmount(amount, basisPoints, max int64) int64 {
	if max <= 0 {
		max = math.MaxInt64
	}
	if amount <= 0 || basisPoints <= 0 || amount >= max {
		return amount
	}
	hi, lo := bits.Mul64(uint64(amount), uint64(10_000+basisPoints))
	lo, carry := bits.Add64(lo, 5_000, 0)
	hi += carry
	if hi >= 10_000 { // the quotient would not fit in 64 bits
		return max
	}
	q, _ := bits.Div64(hi, lo, 10_000)
	if q > uint64(max) {
		return max
	}
	return int64(q)
}

var (
	locMu    sync.Mutex
	locCache = map[string]*time.Location{}
)

// location loads an IANA zone once per process. Zone rules are fixed for a deployed binary, so
// replaying on the same build computes the same dates.
//
//workflowcheck:ignore
func location(name string) (*time.Location, error) {
	locMu.Lock()
	defer locMu.Unlock()
	if l, ok := locCache[name]; ok {
		return l, nil
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	locCache[name] = l
	return l, nil
}
