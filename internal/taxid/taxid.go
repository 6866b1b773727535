// Package taxid validates, normalises and formats the tax identifiers
// ("uid") organisations and donors give at signup and checkout, per country.
//
// Every check is pure: no network lookups against tax authorities. A number
// that passes is well formed and has a correct check digit; it may still not
// be registered.
package taxid

import (
	"slices"
	"strings"
	"unicode"
)

// uidType describes one identifier type of one country.
type uidType struct {
	name string
	// check validates an uppercased uid with separators removed and returns
	// the failure code, or "" when the uid is valid.
	check func(uid string) Code
	// masks are the display formats, '#' standing for one character of the
	// normalised uid; Format uses the one whose '#' count fits its length.
	masks []string
}

// countries lists the identifier types each ISO 3166-1 alpha-2 country
// validates: the organisations' tax ids (which of them the signup form
// offers is reference data, the uid_options table) and person documents
// such as the Argentine DNI a cardholder gives.
var countries = map[string][]uidType{
	"AR": {
		{name: "CUIT", check: checkCUIT, masks: []string{"##-########-#"}},
		{name: "CUIL", check: checkCUIT, masks: []string{"##-########-#"}},
		// Plain digits: §5 only defines the CUIT/CUIL mask.
		{name: "DNI", check: checkDNI, masks: []string{"#######", "########"}},
	},
	"BR": {
		{name: "CNPJ", check: checkCNPJ, masks: []string{"##.###.###/####-##"}},
		{name: "CPF", check: checkCPF, masks: []string{"###.###.###-##"}},
	},
	"CL": {
		{name: "RUT", check: checkCLRUT, masks: []string{"#.###.###-#", "##.###.###-#"}},
	},
	"CO": {
		{name: "NIT", check: checkNIT, masks: []string{"#########-#", "##########-#", "###########-#", "############-#"}},
	},
	"MX": {
		{name: "RFC", check: checkRFC, masks: []string{"###-######-###", "####-######-###"}},
	},
	"PE": {
		{name: "RUC", check: checkRUC, masks: []string{"###########"}},
	},
	"UY": {
		{name: "RUT", check: checkUYRUT, masks: []string{"##-######-###-#"}},
	},
}

// Validate reports whether uid is a valid identifier of the given type for
// the country. uid may be formatted ("20-17254359-7") or bare; country and
// uidType are case-insensitive. Errors are *Error values.
func Validate(country, uidType, uid string) error {
	_, _, err := normalize(country, uidType, uid)
	return err
}

// Normalize validates uid and returns its canonical bare form: separators
// (spaces, dots, dashes, slashes) removed and letters uppercased, e.g.
// "76.086.428-k" becomes "76086428K". Store this form; render with Format.
func Normalize(country, uidType, uid string) (string, error) {
	_, bare, err := normalize(country, uidType, uid)
	return bare, err
}

// Format validates uid and renders it with the country's mask (§5 of the
// organisation spec), e.g. CUIT "20172543597" becomes "20-17254359-7".
func Format(country, uidType, uid string) (string, error) {
	t, bare, err := normalize(country, uidType, uid)
	if err != nil {
		return "", err
	}
	chars := []rune(bare)
	for _, mask := range t.masks {
		if strings.Count(mask, "#") == len(chars) {
			return applyMask(mask, chars), nil
		}
	}
	// Every check only accepts lengths its masks cover (TestFormat walks them
	// all), so this is a safety net rather than an expected path.
	return bare, nil
}

func normalize(country, typeName, uid string) (uidType, string, error) {
	country = strings.ToUpper(strings.TrimSpace(country))
	name := strings.ToUpper(strings.TrimSpace(typeName))
	fail := func(code Code) (uidType, string, error) {
		return uidType{}, "", &Error{Code: code, Country: country, Type: name}
	}
	types := countries[country]
	i := slices.IndexFunc(types, func(t uidType) bool { return t.name == name })
	if i < 0 {
		return fail(CodeTypeNotAllowed)
	}
	bare := strings.ToUpper(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || strings.ContainsRune(".-/", r) {
			return -1
		}
		return r
	}, uid))
	if bare == "" {
		return fail(CodeRequired)
	}
	if code := types[i].check(bare); code != "" {
		return fail(code)
	}
	return types[i], bare, nil
}

func applyMask(mask string, chars []rune) string {
	var b strings.Builder
	for _, m := range mask {
		if m == '#' {
			b.WriteRune(chars[0])
			chars = chars[1:]
			continue
		}
		b.WriteRune(m)
	}
	return b.String()
}
