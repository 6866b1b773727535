// Package i18n picks the request's language and renders the server's human messages in it.
// Spanish is the default; regional variants fall back to their base language (es-AR → es). A
// request's variant comes from its locale or Accept-Language (Negotiate), a donor's e-mail's from
// the country (ForCountry); e-mails to organisations and users are written in the language they
// chose, stored as a base language (es, en, pt), so they read the base wording.
package i18n

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

// Lang is one of the supported interface languages.
type Lang string

const (
	ES Lang = "es"
	EN Lang = "en"
	PT Lang = "pt"
)

// Default is the language used when nothing else is known.
const Default = ES

// Regional variants: a language as a country writes it. A catalogue entry may carry a variant's
// wording where it differs (voseo for Argentina and Uruguay: "Ingresá", "Elegí"); every other
// message falls back, key by key, to the variant's fallbacks and then to its base language
// (tuteo Spanish, Brazilian Portuguese).
const (
	ESAR Lang = "es-AR"
	ESUY Lang = "es-UY"
	ESCL Lang = "es-CL"
	ESCO Lang = "es-CO"
	ESMX Lang = "es-MX"
	ESPE Lang = "es-PE"
	PTBR Lang = "pt-BR"
)

// variantFallbacks are the variants a variant reads before its base language: Uruguay writes the
// River Plate voseo Argentina's entries carry.
var variantFallbacks = map[Lang][]Lang{ESUY: {ESAR}}

var regional = map[Lang]bool{ESAR: true, ESUY: true, ESCL: true, ESCO: true, ESMX: true, ESPE: true, PTBR: true}

// Base is the language of a regional variant ("es" for "es-AR"); a base language is itself.
func (l Lang) Base() Lang {
	b, _, _ := strings.Cut(string(l), "-")
	return Lang(b)
}

// Regional is the language as a country writes it: its regional variant when Aporta has one (es-AR
// for AR, pt-BR for BR), else the language itself.
func (l Lang) Regional(country string) Lang {
	if v := Lang(string(l.Base()) + "-" + strings.ToUpper(strings.TrimSpace(country))); regional[v] {
		return v
	}
	return l
}

// ForCountry is the language to write in to someone of a country (ISO code) when they have not
// said: Portuguese in Brazil, Spanish in the other countries Aporta serves.
func ForCountry(country string) Lang {
	if strings.EqualFold(country, "BR") {
		return PT.Regional(country)
	}
	return Default.Regional(country)
}

var matcher = language.NewMatcher([]language.Tag{language.Spanish, language.English, language.Portuguese})

// Parse maps a locale such as "pt-BR" or "es_AR" to a supported language, its regional variant
// when Aporta has one, or ok=false.
func Parse(locale string) (Lang, bool) {
	tag := strings.ReplaceAll(strings.TrimSpace(locale), "_", "-")
	base, region, _ := strings.Cut(strings.ToLower(tag), "-")
	region, _, _ = strings.Cut(region, "-")
	switch Lang(base) {
	case ES, EN, PT:
		return Lang(base).Regional(region), true
	}
	return "", false
}

// Negotiate picks the language: an explicit locale (query or cookie) first, then Accept-Language.
func Negotiate(explicit []string, acceptLanguage string) Lang {
	for _, e := range explicit {
		if l, ok := Parse(e); ok {
			return l
		}
	}
	if acceptLanguage == "" {
		return Default
	}
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return Default
	}
	_, idx, conf := matcher.Match(tags...)
	if conf == language.No {
		return Default
	}
	l := []Lang{ES, EN, PT}[idx]
	for _, t := range tags { // the first tag of the chosen language says its region
		if b, _ := t.Base(); b.String() == string(l) {
			if r, conf := t.Region(); conf == language.Exact {
				return l.Regional(r.String())
			}
			break
		}
	}
	return l
}

// Catalog maps a message code to its text per language. Texts may use fmt verbs filled by params.
type Catalog map[string]map[Lang]string

// Messages is the server's catalogue; domain packages add their codes with Register at init.
var Messages = Catalog{}

// Register adds messages; a duplicated code is a programming error.
func Register(c Catalog) {
	for code, texts := range c {
		if _, dup := Messages[code]; dup {
			panic("i18n: message code registered twice: " + code)
		}
		for _, l := range []Lang{ES, EN, PT} {
			if texts[l] == "" {
				panic(fmt.Sprintf("i18n: message %s has no %s text", code, l))
			}
		}
		Messages[code] = texts
	}
}

// T renders a message. An unknown code renders as the spec's bracketed missing marker.
func T(l Lang, code string, params ...any) string {
	texts, ok := Messages[code]
	if !ok {
		return "[missing: " + code + "]"
	}
	s := texts[l]
	for _, f := range variantFallbacks[l] {
		if s == "" {
			s = texts[f]
		}
	}
	if s == "" {
		s = texts[l.Base()]
	}
	if s == "" {
		s = texts[Default]
	}
	if len(params) > 0 {
		return fmt.Sprintf(s, params...)
	}
	return s
}
