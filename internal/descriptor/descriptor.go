// Package descriptor holds the statement descriptor rules of integrated payments per country
// (organisation-and-account §9 "Local descriptor rules", §5 "Descriptor"): where the organisation
// may choose the text (soft), its maximum length and the processor prefixes it is shown after
// (prefix*value); where the processor fixes it, the value it always is. It checks a requested
// descriptor and writes the one a charge carries.
package descriptor

import (
	"strings"
	"unicode/utf8"

	"github.com/aporta/aporta/internal/i18n"
)

// Rule is one country's descriptor for local payments.
type Rule struct {
	// Soft: the organisation chooses the value (within MaxChars); otherwise it is Value.
	Soft     bool     `json:"soft"`
	MaxChars int      `json:"max_chars,omitempty"`
	Prefixes []string `json:"prefixes"` // the processor's prefixes, the first the one charges carry
	Others   []string `json:"others"`   // other values the processor may show on statements
	Value    string   `json:"value,omitempty"`
}

// local is §9's table. EC is listed for its processor's fixed descriptor though Aporta has no
// Ecuadorian shard yet.
var local = map[string]Rule{
	"AR": {Soft: true, MaxChars: 16, Prefixes: []string{"MP"}, Others: []string{"DONARONLINE", "DLOCAL"}},
	"BR": {Soft: true, MaxChars: 13, Prefixes: []string{"DL", "DLOCAL"}, Others: []string{}},
	"CL": {Value: "DLOCAL", Prefixes: []string{}, Others: []string{}},
	"CO": {Value: "DLOCAL", Prefixes: []string{}, Others: []string{}},
	"UY": {Value: "DLOCAL", Prefixes: []string{}, Others: []string{}},
	"EC": {Value: "KUSHKI", Prefixes: []string{"KS"}, Others: []string{}},
	"MX": {Soft: true, MaxChars: 13, Prefixes: []string{"OP", "DL", "DLO", "OPENPAY"}, Others: []string{"CONEKTA"}},
	"PE": {Soft: true, MaxChars: 16, Prefixes: []string{"DL", "MP"}, Others: []string{}},
}

// Global is the global processor's rule: the organisation's text, up to 22 characters (the card
// networks' statement limit), after the processor's prefix.
var Global = Rule{Soft: true, MaxChars: 22, Prefixes: []string{"APORTA"}, Others: []string{}}

// Local is country's rule for local payments; ok false where local payments do not exist.
func Local(country string) (Rule, bool) {
	r, ok := local[country]
	return r, ok
}

// Of is the rule of a processor family (the gateway option: local_payments, global_payments) in a
// country; ok false where the family does not exist there.
func Of(family, country string) (Rule, bool) {
	switch family {
	case "global_payments":
		return Global, true
	case "local_payments":
		return Local(country)
	}
	return Rule{}, false
}

// Forbidden are the characters no descriptor may hold (§5, §8).
const Forbidden = `<>\'"*`

// Error codes (keys of the i18n catalogue).
const (
	CodeRequired     = "descriptor.required"
	CodeTooLong      = "descriptor.too_long"
	CodeInvalidChars = "descriptor.invalid_chars"
)

// Check validates a requested descriptor against r and returns the value to keep: the trimmed text
// for a soft rule, the fixed value otherwise (what was asked is then ignored). code is "" when valid.
func (r Rule) Check(requested string) (value, code string) {
	if !r.Soft {
		return r.Value, ""
	}
	v := strings.TrimSpace(requested)
	switch {
	case v == "":
		return "", CodeRequired
	case strings.ContainsAny(v, Forbidden):
		return "", CodeInvalidChars
	case utf8.RuneCountInString(v) > r.MaxChars:
		return "", CodeTooLong
	}
	return v, ""
}

// Statement is what a charge's statement shows for value: prefix*value, or the fixed value (with
// its prefix where the processor has one).
func (r Rule) Statement(value string) string {
	if !r.Soft {
		value = r.Value
	}
	if len(r.Prefixes) == 0 {
		return value
	}
	return r.Prefixes[0] + "*" + value
}

func init() {
	i18n.Register(i18n.Catalog{
		CodeRequired:     {i18n.ES: "Ingresa el texto que verán tus donantes en su resumen.", i18n.EN: "Enter the text your donors will see on their statement.", i18n.PT: "Digite o texto que seus doadores verão na fatura."},
		CodeTooLong:      {i18n.ES: "El descriptor es demasiado largo para este procesador.", i18n.EN: "The descriptor is too long for this processor.", i18n.PT: "O descritor é longo demais para este processador."},
		CodeInvalidChars: {i18n.ES: `El descriptor no puede contener < > \ ' " *`, i18n.EN: `The descriptor cannot contain < > \ ' " *`, i18n.PT: `O descritor não pode conter < > \ ' " *`},
	})
}
