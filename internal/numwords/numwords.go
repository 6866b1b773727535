// Package numwords writes numbers and money amounts in words, as a receipt states its amount:
// Spanish, English (US usage, no "and" inside a number) and Portuguese (Brazil). Spanish shortens
// "uno" before a noun or a scale word ("veintiún pesos", "un millón"), and both Spanish and
// Portuguese say "de" between an exact number of millions and the currency ("un millón de pesos").
package numwords

import (
	"strconv"
	"strings"

	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
)

// limit bounds what is written in words: beyond it (no amount we hold), the digits.
const limit = 1_000_000_000_000_000_000

// Int writes n in words in the language (its base: es-AR is es); a negative n as its absolute
// value after "menos"/"minus". Beyond ±10^18 it answers the digits.
func Int(lang i18n.Lang, n int64) string {
	w := wordsOf(lang.Base())
	switch {
	case n <= -limit || n >= limit:
		return strconv.FormatInt(n, 10)
	case n < 0:
		return w.minus + " " + w.number(-n, false)
	}
	return w.number(n, false)
}

// Amount writes a money amount in words: its whole units with the currency's name, then its cents
// ("mil quinientos pesos con cincuenta centavos"); an amount without cents says none.
func Amount(lang i18n.Lang, a money.Amount) string {
	w := wordsOf(lang.Base())
	minor := a.Minor
	if minor <= -limit || minor >= limit {
		return a.Format()
	}
	neg := minor < 0
	if neg {
		minor = -minor
	}
	unit := money.Unit(a.Currency)
	whole, cents := minor/unit, minor%unit
	names := w.currency(a.Currency)
	var parts []string
	if whole > 0 || cents == 0 {
		parts = append(parts, w.counted(whole, names.unit))
	}
	if cents > 0 {
		parts = append(parts, w.counted(cents, names.cent))
	}
	out := strings.Join(parts, w.and)
	if neg {
		out = w.minus + " " + out
	}
	return out
}

// noun is a word in the singular and the plural.
type noun struct{ one, many string }

type currencyNames struct{ unit, cent noun }

// words is one language's way of writing numbers.
type words struct {
	number     func(n int64, beforeNoun bool) string
	currencies map[string]currencyNames
	fallback   currencyNames // a currency without a name of its own
	and        string        // between units and cents
	minus      string
	// millionsOf is the word between an exact number of millions and a noun ("de"), if any.
	millionsOf string
}

func wordsOf(l i18n.Lang) words {
	switch l {
	case i18n.EN:
		return english
	case i18n.PT:
		return portuguese
	}
	return spanish
}

func (w words) currency(code string) currencyNames {
	if c, ok := w.currencies[code]; ok {
		return c
	}
	return w.fallback
}

// counted writes n followed by the noun, singular for one.
func (w words) counted(n int64, what noun) string {
	name := what.many
	if n == 1 {
		name = what.one
	}
	out := w.number(n, true)
	if w.millionsOf != "" && n >= 1_000_000 && n%1_000_000 == 0 {
		out += " " + w.millionsOf
	}
	return out + " " + name
}

// scale is a power of ten a language names ("mil", "million").
type scale struct {
	value     int64
	one, many string // "un millón" / "millones"; one is the whole phrase for a single unit
}

// big writes n ≥ 1000 by its largest scale, then the rest; small writes what is below 1000.
func big(n int64, scales []scale, small func(int64, bool) string, join func(rest int64) string, beforeNoun bool,
	self func(int64, bool) string) string {
	for _, s := range scales {
		if n < s.value {
			continue
		}
		q, rest := n/s.value, n%s.value
		out := s.one
		if q > 1 {
			out = self(q, true) + " " + s.many
		}
		if rest > 0 {
			out += join(rest) + self(rest, beforeNoun)
		}
		return out
	}
	return small(n, beforeNoun)
}

var spanish = words{
	number: esNumber,
	currencies: map[string]currencyNames{
		"PEN": {noun{"sol", "soles"}, noun{"céntimo", "céntimos"}},
		"BRL": {noun{"real", "reales"}, noun{"centavo", "centavos"}},
		"USD": {noun{"dólar", "dólares"}, noun{"centavo", "centavos"}},
	},
	fallback: currencyNames{noun{"peso", "pesos"}, noun{"centavo", "centavos"}},
	and:      " con ", minus: "menos", millionsOf: "de",
}

var esUnits = []string{"cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
	"once", "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte",
	"veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete", "veintiocho",
	"veintinueve"}
var esTens = []string{"", "", "", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"}
var esHundreds = []string{"", "ciento", "doscientos", "trescientos", "cuatrocientos", "quinientos", "seiscientos",
	"setecientos", "ochocientos", "novecientos"}

var esScales = []scale{
	{1_000_000_000_000, "un billón", "billones"},
	{1_000_000, "un millón", "millones"},
	{1_000, "mil", "mil"},
}

func esNumber(n int64, beforeNoun bool) string {
	return big(n, esScales, esSmall, func(int64) string { return " " }, beforeNoun, esNumber)
}

// esSmall writes 0–999; before a noun "uno" is "un" and "veintiuno" "veintiún".
func esSmall(n int64, beforeNoun bool) string {
	if n == 100 {
		return "cien"
	}
	var parts []string
	if h := n / 100; h > 0 {
		parts = append(parts, esHundreds[h])
	}
	r := n % 100
	switch {
	case r == 0 && n > 0:
	case r < 30:
		w := esUnits[r]
		if beforeNoun && r == 1 {
			w = "un"
		} else if beforeNoun && r == 21 {
			w = "veintiún"
		}
		parts = append(parts, w)
	default:
		w := esTens[r/10]
		if u := r % 10; u == 1 && beforeNoun {
			w += " y un"
		} else if u > 0 {
			w += " y " + esUnits[u]
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

var english = words{
	number: enNumber,
	currencies: map[string]currencyNames{
		"PEN": {noun{"sol", "soles"}, noun{"cent", "cents"}},
		"BRL": {noun{"real", "reais"}, noun{"cent", "cents"}},
		"USD": {noun{"dollar", "dollars"}, noun{"cent", "cents"}},
	},
	fallback: currencyNames{noun{"peso", "pesos"}, noun{"cent", "cents"}},
	and:      " and ", minus: "minus",
}

var enUnits = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
var enTens = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

var enScales = []scale{
	{1_000_000_000_000_000, "one quadrillion", "quadrillion"},
	{1_000_000_000_000, "one trillion", "trillion"},
	{1_000_000_000, "one billion", "billion"},
	{1_000_000, "one million", "million"},
	{1_000, "one thousand", "thousand"},
}

func enNumber(n int64, beforeNoun bool) string {
	return big(n, enScales, enSmall, func(int64) string { return " " }, beforeNoun, enNumber)
}

func enSmall(n int64, _ bool) string {
	var parts []string
	if h := n / 100; h > 0 {
		parts = append(parts, enUnits[h]+" hundred")
	}
	r := n % 100
	switch {
	case r == 0 && n > 0:
	case r < 20:
		parts = append(parts, enUnits[r])
	case r%10 == 0:
		parts = append(parts, enTens[r/10])
	default:
		parts = append(parts, enTens[r/10]+"-"+enUnits[r%10])
	}
	return strings.Join(parts, " ")
}

var portuguese = words{
	number: ptNumber,
	currencies: map[string]currencyNames{
		"PEN": {noun{"sol", "soles"}, noun{"cêntimo", "cêntimos"}},
		"BRL": {noun{"real", "reais"}, noun{"centavo", "centavos"}},
		"USD": {noun{"dólar", "dólares"}, noun{"centavo", "centavos"}},
	},
	fallback: currencyNames{noun{"peso", "pesos"}, noun{"centavo", "centavos"}},
	and:      " e ", minus: "menos", millionsOf: "de",
}

var ptUnits = []string{"zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez",
	"onze", "doze", "treze", "catorze", "quinze", "dezesseis", "dezessete", "dezoito", "dezenove"}
var ptTens = []string{"", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"}
var ptHundreds = []string{"", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos",
	"setecentos", "oitocentos", "novecentos"}

var ptScales = []scale{
	{1_000_000_000_000_000, "um quatrilhão", "quatrilhões"},
	{1_000_000_000_000, "um trilhão", "trilhões"},
	{1_000_000_000, "um bilhão", "bilhões"},
	{1_000_000, "um milhão", "milhões"},
	{1_000, "mil", "mil"},
}

func ptNumber(n int64, beforeNoun bool) string {
	return big(n, ptScales, ptSmall, ptJoin, beforeNoun, ptNumber)
}

// ptJoin is what follows a scale: "e" before a rest that is a single group ending the number
// (below one hundred, or whole hundreds: "mil e um", "mil e quinhentos", "um milhão e duzentos
// mil"), a space otherwise ("mil duzentos e cinquenta").
func ptJoin(rest int64) string {
	for rest >= 1000 && rest%1000 == 0 {
		rest /= 1000
	}
	if rest < 100 || (rest < 1000 && rest%100 == 0) {
		return " e "
	}
	return " "
}

func ptSmall(n int64, _ bool) string {
	if n == 100 {
		return "cem"
	}
	var parts []string
	if h := n / 100; h > 0 {
		parts = append(parts, ptHundreds[h])
	}
	r := n % 100
	switch {
	case r == 0 && n > 0:
	case r < 20:
		parts = append(parts, ptUnits[r])
	case r%10 == 0:
		parts = append(parts, ptTens[r/10])
	default:
		parts = append(parts, ptTens[r/10]+" e "+ptUnits[r%10])
	}
	return strings.Join(parts, " e ")
}
