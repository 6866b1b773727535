// Package money is the platform's one money type: integer minor units of an
// ISO 4217 currency, rendered the way the donation pages do (§9 of the donor
// spec) and answered by every API in one JSON shape. Gateway adapters convert
// it to their wire format at their edge (Decimal, ParseWire).
package money

import (
	"encoding/json"
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

// New is Amount{minor, currency}, for call sites that hold the two apart.
func New(minor int64, currency string) Amount {
	return Amount{Minor: minor, Currency: currency}
}

// JSON is the one JSON shape of an amount in every API answer (deploy/apitypes writes it as the
// web's Money):
// {"minor": 150050, "currency": "ARS", "decimal": "1500.50", "formatted": "$ 1.500,50"}.
// formatted follows §9, which depends on the currency only, not on the
// reader's language.
type JSON struct {
	Minor     int64  `json:"minor"`
	Currency  string `json:"currency"`
	Decimal   string `json:"decimal"`
	Formatted string `json:"formatted"`
}

// MarshalJSON writes the API shape.
func (a Amount) MarshalJSON() ([]byte, error) {
	return json.Marshal(JSON{Minor: a.Minor, Currency: a.Currency, Decimal: a.Decimal(), Formatted: a.Format()})
}

// UnmarshalJSON reads minor and currency back (decimal and formatted are derived), so an
// amount survives a JSON round trip such as a Temporal payload.
func (a *Amount) UnmarshalJSON(b []byte) error {
	var j JSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*a = Amount{Minor: j.Minor, Currency: j.Currency}
	return nil
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

// Unit is one major unit in minor units: 100 for ARS, 1 for CLP.
func Unit(currency string) int64 {
	u := int64(1)
	for range Decimals(currency) {
		u *= 10
	}
	return u
}

// split returns the sign and the magnitude's whole and fraction digits.
func (a Amount) split(decimals int) (sign, whole, frac string) {
	// Work on the magnitude as uint64: -math.MinInt64 overflows int64.
	u := uint64(a.Minor)
	if a.Minor < 0 {
		u, sign = -u, "-"
	}
	digits := strconv.FormatUint(u, 10)
	if len(digits) <= decimals {
		digits = strings.Repeat("0", decimals-len(digits)+1) + digits
	}
	return sign, digits[:len(digits)-decimals], digits[len(digits)-decimals:]
}

// Decimal renders a as a plain decimal, the API's and the providers' form:
// "1500.50" (ARS), "1500" (CLP), "-0.07".
func (a Amount) Decimal() string {
	sign, whole, frac := a.split(Decimals(a.Currency))
	if frac == "" {
		return sign + whole
	}
	return sign + whole + "." + frac
}

// Format renders a for display, symbol first: "$ 1.234,56" (ARS),
// "US$ 1,234.56" (USD), "$ 1.234" (CLP), "-R$ 10,00" (negative BRL).
// Unknown currencies use their code as symbol, "EUR 1.234,56"; an empty
// currency prints the number alone.
func (a Amount) Format() string {
	s := styleOf(a.Currency)
	sign, whole, frac := a.split(s.decimals)

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
func Parse(s, currency string) (Amount, error) { return parse(s, currency, false) }

// ParseWire reads a provider's decimal amount at a gateway adapter's edge
// ("1500.5", "25000.00" for COP, "-10"): like Parse, but a leading "-" is
// allowed and zeros past the currency's decimals are dropped, not refused.
func ParseWire(s, currency string) (Amount, error) { return parse(s, currency, true) }

func parse(s, currency string, wire bool) (Amount, error) {
	currency = strings.ToUpper(currency)
	if len(currency) != 3 || strings.Trim(currency, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return Amount{}, fmt.Errorf("%w: %q", ErrCurrency, currency)
	}
	digits, negative := strings.CutPrefix(s, "-")
	if negative && !wire {
		return Amount{}, fmt.Errorf("%w: %q", ErrNegative, s)
	}
	whole, frac, hasPoint := strings.Cut(digits, ".")
	if whole == "" || (hasPoint && frac == "") || !isDigits(whole) || !isDigits(frac) {
		return Amount{}, fmt.Errorf("%w: %q", ErrSyntax, s)
	}
	decimals := Decimals(currency)
	if wire && len(frac) > decimals {
		frac = strings.TrimRight(frac, "0")
	}
	if len(frac) > decimals {
		return Amount{}, fmt.Errorf("%w: %q has %d, %s allows %d", ErrPrecision, s, len(frac), currency, decimals)
	}
	sign := ""
	if negative {
		sign = "-"
	}
	minor, err := strconv.ParseInt(sign+whole+frac+strings.Repeat("0", decimals-len(frac)), 10, 64)
	if err != nil {
		return Amount{}, fmt.Errorf("%w: %q", ErrRange, s)
	}
	return Amount{Minor: minor, Currency: currency}, nil
}

func isDigits(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}
