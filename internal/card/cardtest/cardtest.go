// Package cardtest makes card numbers for fuzz tests.
package cardtest

import "github.com/aporta/aporta/internal/card"

// PAN makes a 16-digit card number of a known brand that issues 16 digits from the first 15 digits found in seed
// and their Luhn check digit, or "" when seed has fewer than 15 digits or no such brand issues the number.
func PAN(seed string) string {
	var d []byte
	for i := 0; i < len(seed) && len(d) < 15; i++ {
		if seed[i] >= '0' && seed[i] <= '9' {
			d = append(d, seed[i])
		}
	}
	if len(d) < 15 {
		return ""
	}
	for c := byte('0'); c <= '9'; c++ {
		if pan := string(append(d, c)); card.Luhn(pan) {
			if !card.ValidNumber(pan) {
				return ""
			}
			return pan
		}
	}
	return ""
}
