package collection

import (
	"math"
	"math/bits"
	"sync"
	"time"

	"github.com/aporta/aporta/internal/collectday"
)

// CardExpired says whether a card valid through expMonth/expYear can no longer be charged on
// (the local date of) on: a card is valid until the last day of its expiry month.
func CardExpired(expMonth, expYear int, on time.Time) bool {
	if expMonth < 1 || expMonth > 12 || expYear <= 0 {
		return false // unknown expiry: let the gateway decide
	}
	p := collectday.PeriodOf(on)
	exp := collectday.Period{Year: expYear, Month: time.Month(expMonth)}
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
