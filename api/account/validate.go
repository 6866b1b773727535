package account

import (
	"context"
	"errors"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/nyaruka/phonenumbers"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/taxid"
)

// Cellphone is {country, number} as the forms send it.
type Cellphone struct {
	Country string `json:"country"`
	Number  string `json:"number"`
}

// normalizeEmail trims and checks an e-mail; it returns the field code on failure.
func normalizeEmail(s string) (string, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "account.email_required"
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > 320 {
		return "", "account.email_invalid"
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	if at < 1 || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") ||
		strings.ContainsAny(s, " \t\"()<>,;:\\[]") {
		return "", "account.email_invalid"
	}
	return strings.ToLower(s), ""
}

// normalizeCellphone validates a number for its country and returns it in E.164.
func normalizeCellphone(p Cellphone) (string, string) {
	country := strings.ToUpper(strings.TrimSpace(p.Country))
	number := strings.TrimSpace(p.Number)
	if number == "" {
		return "", "account.cellphone_required"
	}
	if len(country) != 2 || phonenumbers.GetCountryCodeForRegion(country) == 0 {
		return "", "account.country_invalid"
	}
	if len(number) > 32 {
		return "", "account.cellphone_invalid"
	}
	n, err := phonenumbers.Parse(number, country)
	if err != nil || !phonenumbers.IsValidNumberForRegion(n, country) {
		return "", "account.cellphone_invalid"
	}
	switch phonenumbers.GetNumberType(n) {
	case phonenumbers.MOBILE, phonenumbers.FIXED_LINE_OR_MOBILE:
	default:
		return "", "account.cellphone_invalid"
	}
	return phonenumbers.Format(n, phonenumbers.E164), ""
}

// CellphoneOf splits an E.164 number into {country, number} (number in national format digits).
func CellphoneOf(e164 string) *Cellphone {
	if e164 == "" {
		return nil
	}
	n, err := phonenumbers.Parse(e164, "")
	if err != nil {
		return &Cellphone{Number: e164}
	}
	return &Cellphone{Country: phonenumbers.GetRegionCodeForNumber(n), Number: phonenumbers.GetNationalSignificantNumber(n)}
}

// checkName applies the ≥3 characters rule; prefix names the field codes (name, first_name…).
func checkName(s, prefix string) string {
	s = strings.TrimSpace(s)
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return "account." + prefix + "_required"
	case n < 3:
		return "account." + prefix + "_min_length"
	case n > 100:
		return "account.too_long"
	}
	return ""
}

// checkRoleArea: the person's area in the organisation, required, at most 100 characters.
func checkRoleArea(s string) string {
	switch n := len(strings.TrimSpace(s)); {
	case n == 0:
		return "account.role_area_required"
	case n > 100:
		return "account.too_long"
	}
	return ""
}

// CheckPassword is the signup password rule, for the other places a first password is chosen
// (accepting an invitation).
var CheckPassword = checkPassword

// checkPassword: at least 12 characters, one uppercase letter, one digit, no whitespace.
func checkPassword(s string) string {
	if s == "" {
		return "account.password_required"
	}
	if utf8.RuneCountInString(s) < 12 {
		return "account.password_min_length"
	}
	if len(s) > 128 {
		return "account.too_long"
	}
	var upper, digit bool
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			return "account.password_invalid"
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsDigit(r):
			digit = true
		}
	}
	if !upper || !digit {
		return "account.password_invalid"
	}
	return ""
}

// checkUID validates a tax id and returns its bare form or the field code.
func checkUID(country, uidType, uid string) (string, string) {
	if strings.TrimSpace(uidType) == "" {
		return "", "account.uid_type_required"
	}
	bare, err := taxid.Normalize(country, uidType, uid)
	var te *taxid.Error
	if errors.As(err, &te) {
		return "", "signup." + string(te.Code)
	}
	if err != nil {
		return "", "signup." + string(taxid.CodeInvalidFormat)
	}
	return bare, ""
}

// emailTaken: an identity already signs in with it, or a registration in progress holds it.
func (h *Handler) emailTaken(ctx context.Context, email, ownKey string) (bool, error) {
	if _, ok, err := h.kratos.FindByEmail(ctx, email); err != nil || ok {
		return ok, err
	}
	return h.db.RegistrationEmailPending(ctx, dirdb.RegistrationEmailPendingParams{Email: email, OwnKey: ownKey})
}

func (h *Handler) phoneTaken(ctx context.Context, phone string, self uuid.UUID, ownKey string) (bool, error) {
	return h.db.CellphoneTaken(ctx, dirdb.CellphoneTakenParams{Phone: phone, SelfID: self, OwnKey: ownKey})
}

// The signup checks answer whether a value is well formed, never whether someone already uses it:
// that would tell anyone which addresses have an account here. Registration refuses a used address
// with one generic answer (signup.email_unavailable), after a complete, valid form.
func init() {
	i18n.Register(i18n.Catalog{
		"signup.email_unavailable": {
			i18n.ES: "No puedes registrarte con este e-mail. Si ya tienes una cuenta, inicia sesión o recupera tu contraseña.",
			i18n.EN: "You cannot sign up with this e-mail. If you already have an account, sign in or recover your password.",
			i18n.PT: "Você não pode se cadastrar com este e-mail. Se já tem uma conta, entre ou recupere sua senha.",
		},
		"signup.cellphone_unavailable": {
			i18n.ES: "No puedes registrarte con este número de celular. Usa otro.",
			i18n.EN: "You cannot sign up with this cellphone number. Use another one.",
			i18n.PT: "Você não pode se cadastrar com este número de celular. Use outro.",
		},
	})
}

// Valid is a signup check's answer.
type Valid struct {
	Valid bool `json:"valid"`
}

// invalid is a signup check's refusal of its one field.
func invalid(field, code string) error {
	return apierror.Validation(map[string]string{field: code})
}

// EmailCheck is POST /internal/api/validate/email.
type EmailCheck struct {
	Email string `json:"email"`
}

func (h *Handler) validateEmail(ctx context.Context, in *EmailCheck) (*Valid, error) {
	email, code := normalizeEmail(in.Email)
	if code != "" {
		return nil, invalid("email", code)
	}
	if err := validateTargetLimit.Take(ctx, email); err != nil {
		return nil, err
	}
	return &Valid{Valid: true}, nil
}

// ValidCellphone is the cellphone check's answer, with the number in E.164.
type ValidCellphone struct {
	Valid
	E164 string `json:"e164"`
}

func (h *Handler) validateCellphone(ctx context.Context, in *Cellphone) (*ValidCellphone, error) {
	phone, code := normalizeCellphone(*in)
	if code != "" {
		return nil, invalid("cellphone", code)
	}
	if err := validateTargetLimit.Take(ctx, phone); err != nil {
		return nil, err
	}
	return &ValidCellphone{Valid: Valid{Valid: true}, E164: phone}, nil
}

// UIDCheck is POST /internal/api/validate/uid.
type UIDCheck struct {
	Country string `json:"country"`
	UIDType string `json:"uid_type"`
	UID     string `json:"uid"`
}

// ValidUID is the tax-id check's answer: the bare id and its usual written form.
type ValidUID struct {
	Valid
	UID       string `json:"uid"`
	Formatted string `json:"formatted"`
}

func (h *Handler) validateUID(_ context.Context, in *UIDCheck) (*ValidUID, error) {
	bare, code := checkUID(in.Country, in.UIDType, in.UID)
	if code != "" {
		return nil, invalid("uid", code)
	}
	formatted, _ := taxid.Format(in.Country, in.UIDType, bare)
	return &ValidUID{Valid: Valid{Valid: true}, UID: bare, Formatted: formatted}, nil
}
