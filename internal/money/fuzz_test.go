package money_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/aporta/aporta/internal/money"
)

// currencies the fuzz targets pick from: every styled one, an unstyled one and bad codes.
var fuzzCurrencies = []string{"ARS", "BRL", "CLP", "COP", "MXN", "PEN", "UYU", "USD", "EUR", "clp", "", "AR", "ÑÑÑ"}

// FuzzParse feeds API amounts to Parse. An accepted amount is never negative, survives the trip
// through the API's decimal rendering (campaign amounts go out as Amount.Decimal and come
// back through Parse), and Format shows exactly its digits; a refused one says why with a sentinel.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1500", "1500.5", "1500.50", "0.01", "0", "007", "92233720368547758.07", "92233720368547758.08",
		"9223372036854775807", "-1", "+1", "1e3", " 1", "1,5", "1.", ".5", "1.2.3", "NaN", "Inf", "١٢", "１２", "1_000"} {
		for _, c := range []string{"ARS", "CLP", "usd"} {
			f.Add(s, c)
		}
	}
	f.Fuzz(func(t *testing.T, s, currency string) {
		a, err := money.Parse(s, currency)
		if err != nil {
			if !anyIs(err, money.ErrSyntax, money.ErrNegative, money.ErrPrecision, money.ErrRange, money.ErrCurrency) {
				t.Fatalf("Parse(%q, %q): error %v wraps no sentinel", s, currency, err)
			}
			return
		}
		if a.Minor < 0 {
			t.Fatalf("Parse(%q, %q) = %d: negative", s, currency, a.Minor)
		}
		if a.Currency != strings.ToUpper(currency) || len(a.Currency) != 3 {
			t.Fatalf("Parse(%q, %q): currency %q", s, currency, a.Currency)
		}
		dec := a.Decimal()
		back, err := money.Parse(dec, a.Currency)
		if err != nil || back != a {
			t.Fatalf("Parse(%q, %q) = %d, rendered %q, parsed back %d, %v", s, currency, a.Minor, dec, back.Minor, err)
		}
		checkFormatDigits(t, a)
	})
}

// FuzzFormat renders any amount in any currency: a negative amount is its positive one behind a
// "-", the digits Format shows are the amount's, and the API's decimal rendering reads back to the same minor units, through Parse for
// amounts a donor can send and through ParseWire (provider answers) for every amount.
func FuzzFormat(f *testing.F) {
	for _, m := range []int64{0, 1, 5, 99, 100, 123456, -1, -123456, 1e11, math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		for _, c := range fuzzCurrencies {
			f.Add(m, c)
		}
	}
	f.Fuzz(func(t *testing.T, minor int64, currency string) {
		a := money.Amount{Minor: minor, Currency: currency}
		if minor != 0 && minor != math.MinInt64 {
			pos, neg := money.New(max(minor, -minor), currency).Format(), money.New(min(minor, -minor), currency).Format()
			if neg != "-"+pos {
				t.Fatalf("Format(%d, %q): %q and %q differ by more than the sign", minor, currency, pos, neg)
			}
		}
		checkFormatDigits(t, a)
		code := strings.ToUpper(currency)
		if len(code) != 3 || strings.Trim(code, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return
		}
		dec := money.New(minor, code).Decimal()
		if back, err := money.ParseWire(dec, code); err != nil || back.Minor != minor {
			t.Fatalf("wire: %d %s rendered %q, parsed back %d, %v", minor, code, dec, back.Minor, err)
		}
		if minor < 0 {
			return
		}
		if back, err := money.Parse(dec, code); err != nil || back.Minor != minor {
			t.Fatalf("%d %s rendered %q, parsed back %d, %v", minor, code, dec, back.Minor, err)
		}
	})
}

// checkFormatDigits: Format's digits, separators and symbol aside, are the amount's magnitude with
// the currency's decimals (at least one whole digit), and there are as many decimals as it has.
func checkFormatDigits(t *testing.T, a money.Amount) {
	t.Helper()
	got := a.Format()
	number := got
	if i := strings.LastIndexByte(got, ' '); i >= 0 {
		number = got[i+1:] // after the symbol ("US$ 1,234.56"); the symbol may hold letters only
	}
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, number)
	d := money.Decimals(a.Currency)
	want := strconv.FormatUint(magnitude(a.Minor), 10)
	if len(want) <= d {
		want = strings.Repeat("0", d-len(want)+1) + want
	}
	if digits != want {
		t.Fatalf("Format(%d, %q) = %q: digits %q, want %q", a.Minor, a.Currency, got, digits, want)
	}
	if d > 0 && len(number) > d && strings.ContainsAny(number[len(number)-d:], ".,") {
		t.Fatalf("Format(%d, %q) = %q: a separator among the %d decimals", a.Minor, a.Currency, got, d)
	}
}

func magnitude(n int64) uint64 {
	if n < 0 {
		return -uint64(n)
	}
	return uint64(n)
}

func anyIs(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}
