package bankcheck

import (
	"errors"
	"testing"
)

func code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

func TestAccount(t *testing.T) {
	cases := []struct {
		name, country, bank, number, want string
	}{
		// Argentina: CBU. 2850590940090418135201 is Banco Macro's published example; the
		// others are computed from the BCRA weights (7139713 / 3971397139713).
		{"cbu macro", "AR", "285", "2850590940090418135201", ""},
		{"cbu bbva", "AR", "017", "0170099220000067797370", ""},
		{"cbu without bank match", "AR", "", "2850590940090418135201", ""},
		{"cbu first check digit", "AR", "285", "2850590840090418135201", CodeCheckDigit},
		{"cbu second check digit", "AR", "285", "2850590940090418135202", CodeCheckDigit},
		{"cbu account digit changed", "AR", "285", "2850590940090418135301", CodeCheckDigit},
		{"cbu another bank", "AR", "007", "2850590940090418135201", CodeBankMismatch},
		{"cbu 21 digits", "AR", "285", "285059094009041813520", CodeFormat},
		{"cbu letters", "AR", "285", "28505909400904181352O1", CodeFormat},
		// Mexico: CLABE. 032180000118359719 is Banxico's example (IXE); 002010077777777771 Banamex's.
		{"clabe ixe", "MX", "032", "032180000118359719", ""},
		{"clabe banamex", "MX", "002", "002010077777777771", ""},
		{"clabe santander", "MX", "014", "014180655012345674", ""},
		{"clabe check digit", "MX", "032", "032180000118359718", CodeCheckDigit},
		{"clabe swapped digits", "MX", "032", "032180000181359719", CodeCheckDigit},
		{"clabe another bank", "MX", "012", "032180000118359719", CodeBankMismatch},
		{"clabe 17 digits", "MX", "032", "03218000011835971", CodeFormat},
		// Peru: CCI, the two Luhn-style check digits over bank+branch and over the account.
		{"cci bcp", "PE", "002", "00219100123456789053", ""},
		{"cci bbva", "PE", "011", "01100000012345678977", ""},
		{"cci first check digit", "PE", "002", "00219100123456789043", CodeCheckDigit},
		{"cci second check digit", "PE", "002", "00219100123456789050", CodeCheckDigit},
		{"cci another bank", "PE", "003", "00219100123456789053", CodeBankMismatch},
		{"cci 19 digits", "PE", "002", "0021910012345678905", CodeFormat},
		// The others: length and characters.
		{"br with verifying digit", "BR", "001", "123456X", ""},
		{"br digits", "BR", "341", "123456", ""},
		{"br letters inside", "BR", "341", "12A456", CodeFormat},
		{"br too long", "BR", "341", "12345678901234", CodeFormat},
		{"cl", "CL", "012", "12345678", ""},
		{"cl too short", "CL", "012", "123", CodeFormat},
		{"co", "CO", "1007", "12345678901", ""},
		{"co letters", "CO", "1007", "1234567890A", CodeFormat},
		{"uy", "UY", "001", "001234567", ""},
		{"uy too long", "UY", "001", "123456789012345678901", CodeFormat},
		{"unknown country", "EC", "001", "12345678", CodeFormat},
		{"empty", "AR", "285", "", CodeFormat},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := code(Account(c.country, c.bank, c.number)); got != c.want {
				t.Errorf("Account(%s, %s, %s) = %q, want %q", c.country, c.bank, c.number, got, c.want)
			}
		})
	}
}

// Every single-digit change of a valid CBU, CLABE or CCI is caught (what the weights are for).
func TestSingleDigitErrorsAreCaught(t *testing.T) {
	for _, v := range []struct{ country, number string }{
		{"AR", "2850590940090418135201"}, {"MX", "032180000118359719"}, {"PE", "00219100123456789053"},
	} {
		for i := range len(v.number) {
			for d := byte('0'); d <= '9'; d++ {
				if v.number[i] == d {
					continue
				}
				changed := v.number[:i] + string(d) + v.number[i+1:]
				if err := Account(v.country, "", changed); err == nil {
					t.Errorf("%s %s (digit %d changed) accepted", v.country, changed, i)
				}
			}
		}
	}
}

func TestNormalize(t *testing.T) {
	if got := Normalize(" 285-0590.9400 9041 8135201 "); got != "2850590940090418135201" {
		t.Errorf("Normalize = %q", got)
	}
}

func TestBranch(t *testing.T) {
	for branch, ok := range map[string]bool{"1234": true, "1234-5": true, "1234-X": true, "123": false, "12a4": false, "": false} {
		if got := Branch("BR", branch) == nil; got != ok {
			t.Errorf("Branch(BR, %q) ok = %v, want %v", branch, got, ok)
		}
	}
	if Branch("AR", "") != nil {
		t.Error("only Brazil checks branches")
	}
}
