package taxid_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aporta/aporta/internal/taxid"
)

// FuzzValidate: Validate, Normalize and Format agree on every input and refuse with one of the four
// codes; an accepted uid is canonical after Normalize (normalising it again, or its formatted form,
// gives it back) and, except for the DNI which has none, carries the one check character its
// number allows: any other in its place is refused.
func FuzzValidate(f *testing.F) {
	for _, s := range [][3]string{
		{"AR", "CUIT", "20-17254359-7"}, {"ar", "cuil", " 23-12345684-9 "}, {"AR", "CUIT", "20-17254359-8"}, {"AR", "DNI", "12.345.678"},
		{"BR", "CNPJ", "11.222.333/0001-81"}, {"BR", "CNPJ", "12.abc.345/01de-35"}, {"BR", "CPF", "529.982.247-25"}, {"BR", "CPF", "111.111.111-11"},
		{"CL", "RUT", "76.086.428-5"}, {"CL", "RUT", "60.803.000-k"}, {"CL", "RUT", "1.234.567-4"},
		{"CO", "NIT", "800.197.268-4"}, {"CO", "NIT", "123456789012-9"},
		{"MX", "RFC", "SAT-970701-NN3"}, {"MX", "RFC", "GODE561231GR8"}, {"MX", "RFC", "AÑO850505XY3"}, {"MX", "RFC", "A&C000229AB5"}, {"MX", "RFC", "XAXX010101000"},
		{"PE", "RUC", "20131312955"}, {"PE", "RUC", "20100000050"},
		{"UY", "RUT", "21-123456-001-7"}, {"UY", "RUT", "211234560017"},
		{"AR", "RUT", "76.086.428-5"}, {"XX", "CUIT", "1"}, {"AR", "CUIT", ""}, {"MX", "RFC", "ÑÑÑÑ991231ÑÑ1"}, {"CL", "RUT", "Ｋ"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, country, typ, uid string) {
		verr := taxid.Validate(country, typ, uid)
		bare, nerr := taxid.Normalize(country, typ, uid)
		formatted, ferr := taxid.Format(country, typ, uid)
		if (verr == nil) != (nerr == nil) || (verr == nil) != (ferr == nil) {
			t.Fatalf("%s %s %q: Validate %v, Normalize %v, Format %v disagree", country, typ, uid, verr, nerr, ferr)
		}
		if verr != nil {
			var e *taxid.Error
			if !errors.As(verr, &e) || taxid.Messages[e.Code].EN == "" {
				t.Fatalf("%s %s %q: error %v has no known code", country, typ, uid, verr)
			}
			return
		}
		if again, err := taxid.Normalize(country, typ, bare); err != nil || again != bare {
			t.Fatalf("%s %s %q: bare %q normalises to %q, %v", country, typ, uid, bare, again, err)
		}
		if back, err := taxid.Normalize(country, typ, formatted); err != nil || back != bare {
			t.Fatalf("%s %s %q: formatted %q normalises to %q, %v; want %q", country, typ, uid, formatted, back, err, bare)
		}
		if strings.ContainsAny(bare, " .-/") || bare != strings.ToUpper(bare) {
			t.Fatalf("%s %s %q: bare %q is not canonical", country, typ, uid, bare)
		}
		if strings.EqualFold(strings.TrimSpace(typ), "DNI") {
			return
		}
		runes := []rune(bare)
		last := runes[len(runes)-1]
		for _, other := range "0123456789AK" {
			if other == last {
				continue
			}
			forged := string(runes[:len(runes)-1]) + string(other)
			if taxid.Validate(country, typ, forged) == nil {
				t.Fatalf("%s %s: %q and %q are both accepted: the check character checks nothing", country, typ, bare, forged)
			}
		}
	})
}
