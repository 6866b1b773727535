package descriptor

import (
	"strings"
	"testing"
)

// Every §9 country: soft ones take a value up to their maximum and show it after their prefix;
// fixed ones ignore what was asked.
func TestLocalRules(t *testing.T) {
	cases := []struct {
		country, asked, value, code, statement string
	}{
		{"AR", "  Fundación Sol ", "Fundación Sol", "", "MP*Fundación Sol"},
		{"AR", strings.Repeat("a", 16), strings.Repeat("a", 16), "", "MP*" + strings.Repeat("a", 16)},
		{"AR", strings.Repeat("a", 17), "", CodeTooLong, ""},
		{"AR", "   ", "", CodeRequired, ""},
		{"BR", "Casa Esperança", "", CodeTooLong, ""}, // 14 > 13
		{"BR", "Casa Esperanç", "Casa Esperanç", "", "DL*Casa Esperanç"},
		{"MX", "Cruz Verde", "Cruz Verde", "", "OP*Cruz Verde"},
		{"MX", "Cruz Verde MX1", "", CodeTooLong, ""},
		{"PE", "Techo Perú 2026", "Techo Perú 2026", "", "DL*Techo Perú 2026"},
		{"CL", "anything", "DLOCAL", "", "DLOCAL"},
		{"CO", "", "DLOCAL", "", "DLOCAL"},
		{"UY", "x", "DLOCAL", "", "DLOCAL"},
		{"EC", "", "KUSHKI", "", "KS*KUSHKI"},
	}
	for _, c := range cases {
		r, ok := Local(c.country)
		if !ok {
			t.Fatalf("%s: no rule", c.country)
		}
		value, code := r.Check(c.asked)
		if value != c.value || code != c.code {
			t.Errorf("%s Check(%q) = %q, %q; want %q, %q", c.country, c.asked, value, code, c.value, c.code)
		}
		if code == "" {
			if got := r.Statement(value); got != c.statement {
				t.Errorf("%s Statement(%q) = %q, want %q", c.country, value, got, c.statement)
			}
		}
	}
	if _, ok := Local("US"); ok {
		t.Error("no local payments outside §9's countries")
	}
}

func TestForbiddenCharacters(t *testing.T) {
	for _, ch := range strings.Split(Forbidden, "") {
		for _, r := range []Rule{local["AR"], local["MX"], Global} {
			if _, code := r.Check("Sol" + ch); code != CodeInvalidChars {
				t.Errorf("%q accepted: %q", ch, code)
			}
		}
	}
}

func TestGlobal(t *testing.T) {
	if v, code := Global.Check("Fundación Sol"); code != "" || Global.Statement(v) != "APORTA*Fundación Sol" {
		t.Errorf("global: %q %q", v, code)
	}
	if _, code := Global.Check(strings.Repeat("x", 23)); code != CodeTooLong {
		t.Errorf("global 23 chars: %q", code)
	}
}
