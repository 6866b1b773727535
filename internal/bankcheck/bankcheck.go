// Package bankcheck checks bank account numbers with each country's published rules: Argentina's
// CBU and Mexico's CLABE (weighted check digits, the bank's code inside), Peru's CCI (two check
// digits), and the length and format of the others. It knows no bank list: the caller passes the
// chosen bank's code, read from the reference tables (internal/reference), and gets back which rule
// failed as an error code of the i18n catalogue.
package bankcheck

import (
	"strings"
)

// Error codes (keys of the i18n catalogue, registered by the API that shows them).
const (
	// CodeFormat: not the country's length or characters.
	CodeFormat = "bank_account.number_format"
	// CodeCheckDigit: a check digit does not match the digits it protects.
	CodeCheckDigit = "bank_account.number_check_digit"
	// CodeBankMismatch: the bank code inside the number is not the chosen bank's.
	CodeBankMismatch = "bank_account.number_bank_mismatch"
	// CodeBranchFormat: a branch number not in the country's format.
	CodeBranchFormat = "bank_account.branch_format"
)

// Error is a number that breaks a rule; Code says which.
type Error struct{ Code string }

func (e *Error) Error() string { return "bankcheck: " + e.Code }

var (
	errFormat       = &Error{CodeFormat}
	errCheckDigit   = &Error{CodeCheckDigit}
	errBankMismatch = &Error{CodeBankMismatch}
	errBranchFormat = &Error{CodeBranchFormat}
)

// Normalize drops the separators people type (spaces, dots, dashes) from a number.
func Normalize(number string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '.' || r == '-' || r == '\t' {
			return -1
		}
		return r
	}, number)
}

// Account checks a normalised account number of a bank of country; bankCode is the chosen bank's
// code as the reference table has it. Countries without a rule accept nothing (an error in format).
func Account(country, bankCode, number string) error {
	switch country {
	case "AR":
		return CBU(number, bankCode)
	case "MX":
		return CLABE(number, bankCode)
	case "PE":
		return CCI(number, bankCode)
	case "BR":
		return brazil(number)
	case "CL":
		return digitsBetween(number, 4, 20)
	case "CO":
		return digitsBetween(number, 6, 20)
	case "UY":
		return digitsBetween(number, 4, 20)
	}
	return errFormat
}

// CBU checks an Argentine Clave Bancaria Uniforme (BCRA Comunicación A 2537): 22 digits in two
// blocks. The first (8) is the bank's 3-digit code, the branch's 4 and a check digit over them with
// weights 7,1,3,9,7,1,3; the second (14) is the account's 13 digits and a check digit with weights
// 3,9,7,1 repeated. Each check digit is (10 - sum mod 10) mod 10. bankCode empty skips the bank match.
func CBU(number, bankCode string) error {
	if !allDigits(number) || len(number) != 22 {
		return errFormat
	}
	if checkDigit(number[:7], []int{7, 1, 3, 9}) != digit(number[7]) ||
		checkDigit(number[8:21], []int{3, 9, 7, 1}) != digit(number[21]) {
		return errCheckDigit
	}
	return bankMatches(number[:3], bankCode)
}

// CLABE checks a Mexican Clave Bancaria Estandarizada (Banxico): 18 digits, the bank's 3-digit ABM
// code, the plaza's 3, the account's 11 and a check digit: each digit times 3,7,1 repeated, each
// product mod 10, summed; the check digit is (10 - sum mod 10) mod 10.
func CLABE(number, bankCode string) error {
	if !allDigits(number) || len(number) != 18 {
		return errFormat
	}
	sum := 0
	for i, w := range [3]int{3, 7, 1} {
		for j := i; j < 17; j += 3 {
			sum += digit(number[j]) * w % 10
		}
	}
	if (10-sum%10)%10 != digit(number[17]) {
		return errCheckDigit
	}
	return bankMatches(number[:3], bankCode)
}

// CCI checks a Peruvian Código de Cuenta Interbancario (ASBANC): 20 digits, the bank's 3-digit
// code, the branch's 3, the account's 12 and two check digits, the first over bank and branch,
// the second over the account. Each is computed like Luhn: digits weighted 1,2 alternately from
// the left, a product over 9 counted as its digits' sum; the check digit is (10 - sum mod 10) mod 10.
func CCI(number, bankCode string) error {
	if !allDigits(number) || len(number) != 20 {
		return errFormat
	}
	if cciDigit(number[:6]) != digit(number[18]) || cciDigit(number[6:18]) != digit(number[19]) {
		return errCheckDigit
	}
	return bankMatches(number[:3], bankCode)
}

func cciDigit(block string) int {
	sum := 0
	for i := range len(block) {
		p := digit(block[i]) * (1 + i%2)
		sum += p/10 + p%10
	}
	return (10 - sum%10) % 10
}

// brazil: a conta corrente or poupança number, up to 12 digits and its verifying digit (a digit
// or X, as Banco do Brasil writes 10), the dash already dropped by Normalize.
func brazil(number string) error {
	if len(number) < 2 || len(number) > 13 || !allDigits(number[:len(number)-1]) {
		return errFormat
	}
	if last := number[len(number)-1]; !isDigit(last) && last != 'X' && last != 'x' {
		return errFormat
	}
	return nil
}

// Branch checks a branch (agência) number where the country asks for one: Brazil's is 4 digits,
// with an optional verifying digit.
func Branch(country, branch string) error {
	if country != "BR" {
		return nil
	}
	b := Normalize(branch)
	if len(b) == 5 && (b[4] == 'X' || b[4] == 'x') {
		b = b[:4]
	}
	if !allDigits(b) || (len(b) != 4 && len(b) != 5) {
		return errBranchFormat
	}
	return nil
}

func digitsBetween(number string, lo, hi int) error {
	if !allDigits(number) || len(number) < lo || len(number) > hi {
		return errFormat
	}
	return nil
}

// checkDigit is (10 - Σ digit·weight mod 10) mod 10, the weights repeated.
func checkDigit(block string, weights []int) int {
	sum := 0
	for i := range len(block) {
		sum += digit(block[i]) * weights[i%len(weights)]
	}
	return (10 - sum%10) % 10
}

func bankMatches(inNumber, bankCode string) error {
	if bankCode == "" || inNumber == bankCode {
		return nil
	}
	return errBankMismatch
}

func allDigits(s string) bool {
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digit(c byte) int { return int(c - '0') }
