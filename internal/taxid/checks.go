package taxid

import (
	"strings"
	"time"
)

// Each check receives the uid uppercased with separators removed and returns
// the failure Code, or "" when the uid is valid.

// checkCUIT validates an Argentine CUIT or CUIL (same algorithm): a two-digit
// type prefix, the eight-digit DNI or company number, and a mod-11 digit.
func checkCUIT(s string) Code {
	if !isDigits(s, 11) || !isOneOf(s[:2], "20", "23", "24", "27", "30", "33", "34") {
		return CodeInvalidFormat
	}
	want := 11 - sumFromRight(s[:10], 7)%11
	switch want {
	case 11:
		want = 0
	case 10:
		// AFIP never issues a number whose digit would be 10: it moves the
		// person to prefix 23 and assigns digit 9 (or 4) instead. Numbers
		// under 23 whose digit computes to 10 are therefore accepted with 9.
		if s[:2] != "23" {
			return CodeInvalidCheckDigit
		}
		want = 9
	}
	return checkDigit(int(s[10]-'0') == want)
}

// checkDNI validates an Argentine DNI: 7 or 8 digits, no check digit.
func checkDNI(s string) Code {
	if !isDigits(s, 7) && !isDigits(s, 8) {
		return CodeInvalidFormat
	}
	return ""
}

// checkCNPJ validates a Brazilian CNPJ: 12 base characters and two mod-11
// digits. Since July 2026 Receita Federal issues alphanumeric CNPJs whose
// base may hold letters; the algorithm is unchanged with each character
// worth its ASCII code minus 48, so one implementation serves both.
func checkCNPJ(s string) Code {
	if len(s) != 14 || !isDigits(s[12:], 2) || strings.Trim(s[:12], "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return CodeInvalidFormat
	}
	if allSame(s) {
		return CodeInvalidCheckDigit
	}
	return checkDigit(brazilDigit(s[:12], 9) == s[12] && brazilDigit(s[:13], 9) == s[13])
}

// checkCPF validates a Brazilian CPF: 9 digits and two mod-11 digits.
func checkCPF(s string) Code {
	if !isDigits(s, 11) {
		return CodeInvalidFormat
	}
	if allSame(s) {
		return CodeInvalidCheckDigit
	}
	return checkDigit(brazilDigit(s[:9], 11) == s[9] && brazilDigit(s[:10], 11) == s[10])
}

// brazilDigit is the CPF/CNPJ check digit: weights from 2 upwards from the
// right (cycling after maxWeight), remainder under 2 gives 0, else 11-r.
func brazilDigit(s string, maxWeight int) byte {
	r := sumFromRight(s, maxWeight) % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

// checkCLRUT validates a Chilean RUT: a 7 or 8 digit body (the §5 masks) and
// a mod-11 digit where 11 is written 0 and 10 is written K.
func checkCLRUT(s string) Code {
	body, dv := s[:len(s)-1], s[len(s)-1]
	if (!isDigits(body, 7) && !isDigits(body, 8)) || !strings.ContainsRune("0123456789K", rune(dv)) {
		return CodeInvalidFormat
	}
	return checkDigit("0K987654321"[sumFromRight(body, 7)%11] == dv)
}

// nitWeights are DIAN's weights, applied from the rightmost body digit.
var nitWeights = []int{3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71}

// checkNIT validates a Colombian NIT: a 9 to 12 digit body and DIAN's check
// digit (remainder 0 or 1 is the digit itself, else 11-r).
func checkNIT(s string) Code {
	if len(s) < 10 || len(s) > 13 || !isDigits(s, len(s)) {
		return CodeInvalidFormat
	}
	body := s[:len(s)-1]
	sum := 0
	for i := range len(body) {
		sum += int(body[len(body)-1-i]-'0') * nitWeights[i]
	}
	want := sum % 11
	if want > 1 {
		want = 11 - want
	}
	return checkDigit(int(s[len(s)-1]-'0') == want)
}

// rfcAlphabet gives SAT's value of each RFC character: its index. Ñ is
// last, so its byte index from strings.IndexRune equals its position.
const rfcAlphabet = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ"

// checkRFC validates a Mexican RFC: 3 letters (persona moral) or 4 (persona
// física), a YYMMDD date, a two-character homoclave and SAT's check digit.
// Note SAT's generic XAXX010101000 does not pass: it is not a real taxpayer.
func checkRFC(s string) Code {
	r := []rune(s)
	n := len(r) - 9 // letters before the date
	if n != 3 && n != 4 {
		return CodeInvalidFormat
	}
	for _, c := range r[:n] {
		if !(c >= 'A' && c <= 'Z') && c != '&' && c != 'Ñ' {
			return CodeInvalidFormat
		}
	}
	date := string(r[n : n+6])
	// The century is ambiguous, but both readings time.Parse may pick agree
	// on leap years (YY divisible by 4, 00 read as 2000), so 29 February is
	// judged right either way.
	if _, err := time.Parse("060102", date); err != nil || !isDigits(date, 6) {
		return CodeInvalidFormat
	}
	for _, c := range r[n+6:] {
		if !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') {
			return CodeInvalidFormat
		}
	}
	// The check digit weighs the first 12 characters from 13 down to 2; a
	// persona moral is left-padded with a space to reach that length.
	padded := []rune(strings.Repeat(" ", 4-n) + string(r[:len(r)-1]))
	sum := 0
	for i, c := range padded {
		sum += strings.IndexRune(rfcAlphabet, c) * (13 - i)
	}
	want := "0A987654321"[sum%11]
	return checkDigit(r[len(r)-1] == rune(want))
}

// checkRUC validates a Peruvian RUC: a taxpayer-kind prefix, 8 digits and a
// mod-11 digit where 10 is written 0 and 11 is written 1.
func checkRUC(s string) Code {
	if !isDigits(s, 11) || !isOneOf(s[:2], "10", "15", "16", "17", "20") {
		return CodeInvalidFormat
	}
	return checkDigit(int(s[10]-'0') == (11-sumFromRight(s[:10], 7)%11)%10)
}

// checkUYRUT validates a Uruguayan RUT: a registry prefix 01-22, 9 digits
// and a mod-11 digit (a computed 10 means the number cannot exist).
func checkUYRUT(s string) Code {
	if !isDigits(s, 12) || s[:2] < "01" || s[:2] > "22" {
		return CodeInvalidFormat
	}
	want := (11 - sumFromRight(s[:11], 9)%11) % 11
	return checkDigit(int(s[11]-'0') == want)
}

// sumFromRight weighs each character from the right with 2, 3, ... up to
// maxWeight and then back to 2, the scheme most Latin-American mod-11 digits
// share. A character is worth its ASCII code minus 48, its value for digits.
func sumFromRight(s string, maxWeight int) int {
	sum, w := 0, 2
	for i := len(s) - 1; i >= 0; i-- {
		sum += int(s[i]-'0') * w
		if w++; w > maxWeight {
			w = 2
		}
	}
	return sum
}

func checkDigit(ok bool) Code {
	if ok {
		return ""
	}
	return CodeInvalidCheckDigit
}

// isDigits reports whether s is exactly n ASCII digits.
func isDigits(s string, n int) bool {
	return len(s) == n && strings.Trim(s, "0123456789") == ""
}

func isOneOf(s string, set ...string) bool {
	for _, v := range set {
		if s == v {
			return true
		}
	}
	return false
}

func allSame(s string) bool {
	return strings.Count(s, s[:1]) == len(s)
}
