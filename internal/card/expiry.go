package card

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Expiry errors.
var (
	// ErrExpiryFormat: not MM/YY or MM/20YY, or a month outside 1-12.
	ErrExpiryFormat = errors.New("card: invalid expiry")
	// ErrExpired: the card expired before the current month.
	ErrExpired = errors.New("card: card expired")
)

// Expiry is the month a card expires; the card is usable until that
// month's last day.
type Expiry struct {
	Month time.Month
	Year  int
}

// ParseExpiry reads an expiry as the form sends it, "MM / YY", "MM/YY" or
// "MM/20YY" (whitespace is ignored), and checks it has not passed at now.
// A two-digit year under 70 is 20YY, otherwise 19YY and so always expired.
// The current month is still valid: cards expire at the end of the month.
// With ErrExpired the parsed expiry is returned too.
func ParseExpiry(s string, now time.Time) (Expiry, error) {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	mm, yy, ok := strings.Cut(s, "/")
	if !ok || len(mm) != 2 || !isDigits(mm) || !isDigits(yy) {
		return Expiry{}, ErrExpiryFormat
	}
	month, _ := strconv.Atoi(mm)
	year, _ := strconv.Atoi(yy)
	switch {
	case len(yy) == 4 && strings.HasPrefix(yy, "20"):
	case len(yy) == 2 && year < 70:
		year += 2000
	case len(yy) == 2:
		year += 1900
	default:
		return Expiry{}, ErrExpiryFormat
	}
	if month < 1 || month > 12 {
		return Expiry{}, ErrExpiryFormat
	}
	e := Expiry{Month: time.Month(month), Year: year}
	if e.Year < now.Year() || (e.Year == now.Year() && e.Month < now.Month()) {
		return e, ErrExpired
	}
	return e, nil
}
