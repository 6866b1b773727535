package account

import (
	"context"
	"errors"
	"net/http"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/nyaruka/phonenumbers"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/request"
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
		return "", "email_required"
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > 320 {
		return "", "email_invalid"
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	if at < 1 || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") ||
		strings.ContainsAny(s, " \t\"()<>,;:\\[]") {
		return "", "email_invalid"
	}
	return strings.ToLower(s), ""
}

// normalizeCellphone validates a number for its country and returns it in E.164.
func normalizeCellphone(p Cellphone) (string, string) {
	country := strings.ToUpper(strings.TrimSpace(p.Country))
	number := strings.TrimSpace(p.Number)
	if number == "" {
		return "", "cellphone_required"
	}
	if len(country) != 2 || phonenumbers.GetCountryCodeForRegion(country) == 0 {
		return "", "country_invalid"
	}
	if len(number) > 32 {
		return "", "cellphone_invalid"
	}
	n, err := phonenumbers.Parse(number, country)
	if err != nil || !phonenumbers.IsValidNumberForRegion(n, country) {
		return "", "cellphone_invalid"
	}
	switch phonenumbers.GetNumberType(n) {
	case phonenumbers.MOBILE, phonenumbers.FIXED_LINE_OR_MOBILE:
	default:
		return "", "cellphone_invalid"
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
		return prefix + "_required"
	case n < 3:
		return prefix + "_min_length"
	case n > 100:
		return "too_long"
	}
	return ""
}

// CheckPassword is the signup password rule, for the other places a first password is chosen
// (accepting an invitation).
var CheckPassword = checkPassword

// checkPassword: at least 12 characters, one uppercase letter, one digit, no whitespace.
func checkPassword(s string) string {
	if s == "" {
		return "password_required"
	}
	if utf8.RuneCountInString(s) < 12 {
		return "password_min_length"
	}
	if len(s) > 128 {
		return "too_long"
	}
	var upper, digit bool
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			return "password_invalid"
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsDigit(r):
			digit = true
		}
	}
	if !upper || !digit {
		return "password_invalid"
	}
	return ""
}

// checkUID validates a tax id and returns its bare form or the field code.
func checkUID(country, uidType, uid string) (string, string) {
	if strings.TrimSpace(uidType) == "" {
		return "", "uid_type_required"
	}
	bare, err := taxid.Normalize(country, uidType, uid)
	var te *taxid.Error
	if errors.As(err, &te) {
		return "", "signup_" + string(te.Code)
	}
	if err != nil {
		return "", "signup_" + string(taxid.CodeInvalidFormat)
	}
	return bare, ""
}

// emailTaken: an identity already signs in with it, or a registration in progress holds it.
func (h *Handler) emailTaken(ctx context.Context, email, ownKey string) (bool, error) {
	if _, ok, err := h.kratos.FindByEmail(ctx, email); err != nil || ok {
		return ok, err
	}
	var pending bool
	err := h.tenants.Directory().QueryRow(ctx, queries.Get("EmailPending"), email, ownKey).Scan(&pending)
	return pending, err
}

func (h *Handler) phoneTaken(ctx context.Context, phone string, self uuid.UUID, ownKey string) (bool, error) {
	var taken bool
	err := h.tenants.Directory().QueryRow(ctx, queries.Get("PhoneTaken"), phone, self, ownKey).Scan(&taken)
	return taken, err
}

func valid(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"valid": true}) }

func invalid(c *gin.Context, field, code string) {
	apierror.Abort(c, apierror.Validation(map[string]string{field: code}))
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

func (h *Handler) validateEmail(c *gin.Context) {
	var in struct {
		Email string `json:"email"`
	}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	email, code := normalizeEmail(in.Email)
	if code != "" {
		invalid(c, "email", code)
		return
	}
	if !validateTargetLimit.Check(c, email) {
		return
	}
	valid(c)
}

func (h *Handler) validateCellphone(c *gin.Context) {
	var in Cellphone
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	phone, code := normalizeCellphone(in)
	if code != "" {
		invalid(c, "cellphone", code)
		return
	}
	if !validateTargetLimit.Check(c, phone) {
		return
	}
	c.JSON(http.StatusOK, gin.H{"valid": true, "e164": phone})
}

func (h *Handler) validateUID(c *gin.Context) {
	var in struct {
		Country string `json:"country"`
		UIDType string `json:"uid_type"`
		UID     string `json:"uid"`
	}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	bare, code := checkUID(in.Country, in.UIDType, in.UID)
	if code != "" {
		invalid(c, "uid", code)
		return
	}
	formatted, _ := taxid.Format(in.Country, in.UIDType, bare)
	c.JSON(http.StatusOK, gin.H{"valid": true, "uid": bare, "formatted": formatted})
}
