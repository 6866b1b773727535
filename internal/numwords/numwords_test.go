package numwords

import (
	"testing"

	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
)

func TestInt(t *testing.T) {
	cases := []struct {
		n          int64
		es, en, pt string
	}{
		{0, "cero", "zero", "zero"},
		{1, "uno", "one", "um"},
		{15, "quince", "fifteen", "quinze"},
		{16, "dieciséis", "sixteen", "dezesseis"},
		{20, "veinte", "twenty", "vinte"},
		{21, "veintiuno", "twenty-one", "vinte e um"},
		{22, "veintidós", "twenty-two", "vinte e dois"},
		{30, "treinta", "thirty", "trinta"},
		{31, "treinta y uno", "thirty-one", "trinta e um"},
		{99, "noventa y nueve", "ninety-nine", "noventa e nove"},
		{100, "cien", "one hundred", "cem"},
		{101, "ciento uno", "one hundred one", "cento e um"},
		{115, "ciento quince", "one hundred fifteen", "cento e quinze"},
		{200, "doscientos", "two hundred", "duzentos"},
		{500, "quinientos", "five hundred", "quinhentos"},
		{999, "novecientos noventa y nueve", "nine hundred ninety-nine", "novecentos e noventa e nove"},
		{1000, "mil", "one thousand", "mil"},
		{1001, "mil uno", "one thousand one", "mil e um"},
		{1100, "mil cien", "one thousand one hundred", "mil e cem"},
		{1250, "mil doscientos cincuenta", "one thousand two hundred fifty", "mil duzentos e cinquenta"},
		{1500, "mil quinientos", "one thousand five hundred", "mil e quinhentos"},
		{2000, "dos mil", "two thousand", "dois mil"},
		{21000, "veintiún mil", "twenty-one thousand", "vinte e um mil"},
		{100000, "cien mil", "one hundred thousand", "cem mil"},
		{101000, "ciento un mil", "one hundred one thousand", "cento e um mil"},
		{1_000_000, "un millón", "one million", "um milhão"},
		{1_000_001, "un millón uno", "one million one", "um milhão e um"},
		{1_200_000, "un millón doscientos mil", "one million two hundred thousand", "um milhão e duzentos mil"},
		{2_000_000, "dos millones", "two million", "dois milhões"},
		{21_000_000, "veintiún millones", "twenty-one million", "vinte e um milhões"},
		{1_000_000_000, "mil millones", "one billion", "um bilhão"},
		{1_000_000_000_000, "un billón", "one trillion", "um trilhão"},
		{-5, "menos cinco", "minus five", "menos cinco"},
	}
	for _, c := range cases {
		for lang, want := range map[i18n.Lang]string{i18n.ES: c.es, i18n.EN: c.en, i18n.PT: c.pt} {
			if got := Int(lang, c.n); got != want {
				t.Errorf("Int(%s, %d) = %q, want %q", lang, c.n, got, want)
			}
		}
	}
	if got := Int(i18n.ESAR, 21); got != "veintiuno" {
		t.Errorf("a regional language writes as its base: %q", got)
	}
	if got := Int(i18n.EN, -9_223_372_036_854_775_808); got != "-9223372036854775808" {
		t.Errorf("beyond the words: %q", got)
	}
}

func TestAmount(t *testing.T) {
	cases := []struct {
		minor      int64
		currency   string
		es, en, pt string
	}{
		{100, "ARS", "un peso", "one peso", "um peso"},
		{1, "ARS", "un centavo", "one cent", "um centavo"},
		{2100, "ARS", "veintiún pesos", "twenty-one pesos", "vinte e um pesos"},
		{10000, "ARS", "cien pesos", "one hundred pesos", "cem pesos"},
		{100000, "ARS", "mil pesos", "one thousand pesos", "mil pesos"},
		{150050, "ARS", "mil quinientos pesos con cincuenta centavos",
			"one thousand five hundred pesos and fifty cents", "mil e quinhentos pesos e cinquenta centavos"},
		{100_000_000, "ARS", "un millón de pesos", "one million pesos", "um milhão de pesos"},
		{100_000_001, "ARS", "un millón de pesos con un centavo", "one million pesos and one cent", "um milhão de pesos e um centavo"},
		{150_000_000, "ARS", "un millón quinientos mil pesos", "one million five hundred thousand pesos", "um milhão e quinhentos mil pesos"},
		{99, "USD", "noventa y nueve centavos", "ninety-nine cents", "noventa e nove centavos"},
		{2101, "BRL", "veintiún reales con un centavo", "twenty-one reais and one cent", "vinte e um reais e um centavo"},
		{100, "BRL", "un real", "one real", "um real"},
		{5025, "PEN", "cincuenta soles con veinticinco céntimos", "fifty soles and twenty-five cents", "cinquenta soles e vinte e cinco cêntimos"},
		{1, "CLP", "un peso", "one peso", "um peso"},
		{1_000_000, "COP", "un millón de pesos", "one million pesos", "um milhão de pesos"},
		{31000, "CLP", "treinta y un mil pesos", "thirty-one thousand pesos", "trinta e um mil pesos"},
		{0, "ARS", "cero pesos", "zero pesos", "zero pesos"},
	}
	for _, c := range cases {
		a := money.New(c.minor, c.currency)
		for lang, want := range map[i18n.Lang]string{i18n.ES: c.es, i18n.EN: c.en, i18n.PT: c.pt} {
			if got := Amount(lang, a); got != want {
				t.Errorf("Amount(%s, %s) = %q, want %q", lang, a.Format(), got, want)
			}
		}
	}
}
