package donation

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aporta/aporta/api/campaign"
)

// FieldValue is the donor's answer to one of the campaign's extra form fields, by the field's order.
type FieldValue struct {
	Order int    `json:"order"`
	Value string `json:"value"`
}

// storedValue is an answer as the donation keeps it: with the field as the donor saw it.
type storedValue struct {
	Order int    `json:"order"`
	Type  string `json:"type"`
	Title string `json:"title"`
	Label string `json:"label"`
	Value string `json:"value"`
}

// Maximum lengths of free-text answers, in characters.
const (
	maxFieldText     = 200
	maxFieldTextarea = 2000
)

var phoneRe = regexp.MustCompile(`^\+?[0-9 ().-]+$`)

// validPhone accepts a phone number as people write it: an optional leading +, digits, spaces,
// dots, dashes and parentheses, with 6 to 15 digits (E.164's maximum).
func validPhone(v string) bool {
	n := len(nonDigit.ReplaceAllString(v, ""))
	return phoneRe.MatchString(v) && n >= 6 && n <= 15
}

// checkFieldValues validates the answers against the campaign's field definitions: every required
// field answered, each answer of its field's type, format, options and length. Errors are keyed
// form_fields.<order>. Empty answers are not stored.
func checkFieldValues(defs []campaign.FormField, in []FieldValue, now time.Time) ([]storedValue, map[string]string) {
	fields := map[string]string{}
	answers := map[int]string{}
	for _, v := range in {
		key := fmt.Sprintf("form_fields.%d", v.Order)
		if _, dup := answers[v.Order]; dup || v.Order < 0 || v.Order >= len(defs) {
			fields[key] = "donation.invalid_option"
			continue
		}
		answers[v.Order] = strings.TrimSpace(v.Value)
	}
	out := []storedValue{}
	for i, d := range defs {
		key := fmt.Sprintf("form_fields.%d", i)
		if _, bad := fields[key]; bad {
			continue
		}
		v := answers[i]
		if d.Type == "checkbox" && v == "false" {
			v = ""
		}
		if v == "" {
			if d.Required {
				fields[key] = "donation.required"
			}
			continue
		}
		if code := checkFieldValue(d, &v, now); code != "" {
			fields[key] = code
			continue
		}
		out = append(out, storedValue{Order: i, Type: d.Type, Title: d.Title, Label: d.Label, Value: v})
	}
	return out, fields
}

// checkFieldValue checks one non-empty answer of its field's type, normalising it in place, and
// returns the error code ("" when valid).
func checkFieldValue(d campaign.FormField, v *string, now time.Time) string {
	switch d.Type {
	case "checkbox":
		if *v != "true" {
			return "donation.invalid_option"
		}
	case "alt_email":
		email, ok := campaign.NormalizeEmail(*v)
		if !ok {
			return "donation.email_invalid"
		}
		*v = email
	case "birthday":
		t, err := time.Parse(time.DateOnly, *v)
		if err != nil || !t.Before(now) || t.Year() < now.Year()-120 {
			return "donation.birthday_invalid"
		}
	case "cellphone", "cellphone_bundle", "phone", "phone_bundle":
		if !validPhone(*v) {
			return "donation.phone_invalid"
		}
	case "gender", "select_options":
		options := d.Options
		if d.Type == "gender" && len(options) == 0 {
			options = genders // the donor's gender values (manage_actions.go)
		}
		if !slices.Contains(options, *v) {
			return "donation.invalid_option"
		}
	case "textarea":
		if utf8.RuneCountInString(*v) > maxFieldTextarea {
			return "donation.too_long"
		}
	default: // textfield, occupation, address_bundle
		if utf8.RuneCountInString(*v) > maxFieldText {
			return "donation.too_long"
		}
	}
	return ""
}

// donorFields are the checked answers whose field is related to a donor column ("donor.phone" →
// phone), for the donor's record. An answer that the column could not hold (a free-text field
// related to the phone, say) fills nothing: it stays in the donation's form values.
func donorFields(defs []campaign.FormField, values []storedValue) map[string]string {
	out := map[string]string{}
	for _, v := range values {
		column, ok := strings.CutPrefix(defs[v.Order].ValueRelatedTo, "donor.")
		if !ok {
			continue
		}
		switch column {
		case "phone", "cellphone":
			ok = validPhone(v.Value)
		case "gender":
			ok = slices.Contains(genders, v.Value)
		}
		if ok {
			out[column] = v.Value
		}
	}
	return out
}
