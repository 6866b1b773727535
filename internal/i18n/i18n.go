// Package i18n picks the request's language and renders the server's human messages in it.
// Spanish is the default; regional variants fall back to their base language (es-AR → es).
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

// ForCountry is the language to write in to someone of a country (ISO code) when they have not
// said: Portuguese in Brazil, Spanish in the other countries Aporta serves.
func ForCountry(country string) Lang {
	if strings.EqualFold(country, "BR") {
		return PT
	}
	return Default
}

var matcher = language.NewMatcher([]language.Tag{language.Spanish, language.English, language.Portuguese})

// Parse maps a locale such as "pt-BR" to a supported language, or ok=false.
func Parse(locale string) (Lang, bool) {
	base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(locale)), "-")
	base, _, _ = strings.Cut(base, "_")
	switch Lang(base) {
	case ES, EN, PT:
		return Lang(base), true
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
	return []Lang{ES, EN, PT}[idx]
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
	if s == "" {
		s = texts[Default]
	}
	if len(params) > 0 {
		return fmt.Sprintf(s, params...)
	}
	return s
}
