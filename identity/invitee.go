package identity

import (
	"net/mail"
	"strings"
	"unicode/utf8"
)

// InviteeFields checks the e-mail and names of a person invited by e-mail (trimmed, the e-mail
// lowercased) and returns the field errors as message codes under the inviting domain's prefix
// ("agency", "user"): <prefix>.email_required or <prefix>.email_invalid, and NameFields'.
func InviteeFields(prefix, email, first, last string) map[string]string {
	fields := NameFields(prefix, first, last)
	switch a, err := mail.ParseAddress(email); {
	case email == "":
		fields["email"] = prefix + ".email_required"
	case err != nil || a.Address != email || !strings.Contains(email[strings.LastIndex(email, "@")+1:], ".") || len(email) > 320:
		fields["email"] = prefix + ".email_invalid"
	}
	return fields
}

// NameFields checks a person's (trimmed) first and last names, each required and of 3 to 100
// characters, and returns the field errors as message codes under prefix:
// <prefix>.first_name_required, <prefix>.first_name_min_length, <prefix>.name_too_long (likewise
// last_name).
func NameFields(prefix, first, last string) map[string]string {
	fields := map[string]string{}
	for field, v := range map[string]string{"first_name": first, "last_name": last} {
		switch n := utf8.RuneCountInString(v); {
		case n == 0:
			fields[field] = prefix + "." + field + "_required"
		case n < 3:
			fields[field] = prefix + "." + field + "_min_length"
		case n > 100:
			fields[field] = prefix + ".name_too_long"
		}
	}
	return fields
}
