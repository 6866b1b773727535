// Package money holds donation amounts as integer minor units and renders
// them the way the donation pages do (§9 of the donor spec).
package money

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Amount is a sum of money in the currency's minor units, as many as
// Decimals(Currency) says: cents for ARS (Minor 123456 is 1.234,56) but
// whole pesos for CLP and COP, which the platform shows without decimals.
type Amount struct {
	Minor    int64
	Currency string // ISO 4217 code, uppercase
}

// style is how one currency is written.
type style struct {
	symbol   string
	decimals int
	// decimal and thousands are the separators; decimal is unused when
	// decimals is 0.
	decimal, thousands byte
}

// styles lists the currencies §9 names. Any other currency is written with
// its ISO code and defaultStyle's separators.
var styles = map[string]style{
	"ARS": {symbol: "$", decimals: 2, decimal: ',', thousands: '.'},
	"UYU": {symbol: "$U", decimals: 2, decimal: ',', thousands: '.'},
	"BRL": {symbol: "R$", decimals: 2, decimal: ',', thousands: '.'},
	"PEN": {symbol: "S/", decimals: 2, decimal: ',', thousands: '.'},
	"USD": {symbol: "US$", decimals: 2, decimal: '.', thousands: ','},
	"MXN": {symbol: "$", decimals: 2, decimal: '.', thousands: ','},
	"CLP": {symbol: "$", decimals: 0, thousands: '.'},
	"COP": {symbol: "$", decimals: 0, thousands: '.'},
}

var defaultStyle = style{decimals: 2, decimal: ',', thousands: '.'}

func styleOf(currency string) style {
	currency = strings.ToUpper(currency)
	if s, ok := styles[currency]; ok {
		return s
	}
	s := defaultStyle
	s.symbol = currency
	return s
}

// Decimals returns how many minor-unit digits the platform uses for the
// currency: 0 for CLP and COP, 2 for every other currency.
func Decimals(currency string) int {
	return styleOf(currency).decimals
}

// Format renders a for display, symbol first: "$ 1.234,56" (ARS),
// "US$ 1,234.56" (USD), "$ 1.234" (CLP), "-R$ 10,00" (negative BRL).
// Unknown currencies use their code as symbol, "EUR 1.234,56"; an empty
// currency prints the number alone.
func Format(a Amount) string {
	s := styleOf(a.Currency)
	// Work on the magnitude as uint64: -math.MinInt64 overflows int64.
	u := uint64(a.Minor)
	sign := ""
	if a.Minor < 0 {
		u, sign = -u, "-"
	}
	digits := strconv.FormatUint(u, 10)
	if len(digits) <= s.decimals {
		digits = strings.Repeat("0", s.decimals-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-s.decimals], digits[len(digits)-s.decimals:]

	var b strings.Builder
	b.WriteString(sign)
	if s.symbol != "" {
		b.WriteString(s.symbol)
		b.WriteByte(' ')
	}
	for i := range len(whole) {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(s.thousands)
		}
		b.WriteByte(whole[i])
	}
	if s.decimals > 0 {
		b.WriteByte(s.decimal)
		b.WriteString(frac)
	}
	return b.String()
}

// Parse errors; Parse wraps them with the offending input.
var (
	// ErrSyntax: not a plain decimal such as "1234" or "1234.56".
	ErrSyntax = errors.New("money: invalid amount")
	// ErrNegative: the amount is below zero.
	ErrNegative = errors.New("money: negative amount")
	// ErrPrecision: more decimals than the currency has.
	ErrPrecision = errors.New("money: too many decimals for currency")
	// ErrRange: the amount does not fit in int64 minor units.
	ErrRange = errors.New("money: amount out of range")
	// ErrCurrency: the currency is not a three-letter code.
	ErrCurrency = errors.New("money: invalid currency")
)

// Parse reads an API amount: ASCII digits with an optional "." and at most
// Decimals(currency) fraction digits ("1234.5" is ARS 1.234,50). Signs,
// exponents, thousands separators, spaces, NaN and Inf are rejected rather
// than guessed at, so a client bug never turns into a wrong charge.
func Parse(s, currency string) (Amount, error) {
	currency = strings.ToUpper(currency)
	if len(currency) != 3 || strings.Trim(currency, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return Amount{}, fmt.Errorf("%w: %q", ErrCurrency, currency)
	}
	if strings.HasPrefix(s, "-") {
		return Amount{}, fmt.Errorf("%w: %q", ErrNegative, s)
	}
	whole, frac, hasPoint := strings.Cut(s, ".")
	if whole == "" || (hasPoint && frac == "") || !isDigits(whole) || !isDigits(frac) {
		return Amount{}, fmt.Errorf("%w: %q", ErrSyntax, s)
	}
	decimals := Decimals(currency)
	if len(frac) > decimals {
		return Amount{}, fmt.Errorf("%w: %q has %d, %s allows %d", ErrPrecision, s, len(frac), currency, decimals)
	}
	minor, err := strconv.ParseInt(whole+frac+strings.Repeat("0", decimals-len(frac)), 10, 64)
	if err != nil {
		return Amount{}, fmt.Errorf("%w: %q", ErrRange, s)
	}
	return Amount{Minor: minor, Currency: currency}, nil
}

func isDigits(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}

// countryCurrency maps the countries the platform operates in to their
// local currency.
var countryCurrency = map[string]string{
	"AR": "ARS",
	"BR": "BRL",
	"CL": "CLP",
	"CO": "COP",
	"MX": "MXN",
	"PE": "PEN",
	"UY": "UYU",
}

// CurrencyOf returns the local currency of an ISO 3166-1 alpha-2 country
// (case-insensitive); ok is false for a country the platform does not serve.
func CurrencyOf(country string) (currency string, ok bool) {
	currency, ok = countryCurrency[strings.ToUpper(country)]
	return currency, ok
}
