package gateway

import (
	"fmt"
	"strconv"
	"strings"
)

// Money is an amount in minor units of an ISO 4217 currency (cents for ARS,
// whole pesos for CLP and COP, which have no decimals).
type Money struct {
	Amount   int64
	Currency string
}

// decimals lists the currencies without two decimal places.
var decimals = map[string]int{"CLP": 0, "COP": 0}

func digits(currency string) int {
	if d, ok := decimals[currency]; ok {
		return d
	}
	return 2
}

// Decimal renders m the way provider APIs expect it: "1500.50", or "1500" for CLP.
func (m Money) Decimal() string {
	d := digits(m.Currency)
	if d == 0 {
		return strconv.FormatInt(m.Amount, 10)
	}
	// The magnitude as uint64: -math.MinInt64 overflows int64.
	sign, n := "", uint64(m.Amount)
	if m.Amount < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%s%d.%02d", sign, n/100, n%100)
}

// ParseMoney reads a provider's decimal amount without going through float64,
// and refuses more decimals than the currency has.
func ParseMoney(decimal, currency string) (Money, error) {
	whole, frac, _ := strings.Cut(decimal, ".")
	d := digits(currency)
	if len(frac) > d {
		frac = strings.TrimRight(frac, "0")
		if len(frac) > d {
			return Money{}, fmt.Errorf("gateway: amount %q has more than %d decimals for %s", decimal, d, currency)
		}
	}
	frac += strings.Repeat("0", d-len(frac))
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || whole == "" || strings.HasPrefix(whole, "+") {
		return Money{}, fmt.Errorf("gateway: invalid amount %q", decimal)
	}
	return Money{Amount: n, Currency: currency}, nil
}
