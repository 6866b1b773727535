package account

import (
	"context"
	"strings"

	kratos "github.com/ory/kratos-client-go"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
)

// CurrentUser is GET /manage/api/user.
type CurrentUser struct {
	UUID          string         `json:"uuid"`
	Email         string         `json:"email"`
	Cellphone     *Cellphone     `json:"cellphone"`
	FirstName     string         `json:"first_name"`
	LastName      string         `json:"last_name"`
	FullName      string         `json:"full_name"`
	RoleArea      string         `json:"role_area"`
	Verifications Verifications  `json:"verifications"`
	Role          string         `json:"role"`
	Organization  OrganizationIn `json:"organization"`
	Abilities     []string       `json:"abilities"`
	PendingEmail  *string        `json:"pending_email"` // a new e-mail waiting for its code; Email stays the login until then
}

// Verifications are the user's verified flags.
type Verifications struct {
	EmailVerified     bool `json:"email_verified"`
	CellphoneVerified bool `json:"cellphone_verified"`
}

// OrganizationIn is the user's current organisation.
type OrganizationIn struct {
	UUID    string `json:"uuid"`
	Name    string `json:"name"`
	Country string `json:"country"`
	Status  string `json:"status"`
}

// current answers the signed-in user as Kratos has them now, in the organisation Require checked.
func (h *Handler) current(ctx context.Context, _ *struct{}) (*CurrentUser, error) {
	u, err := h.kratos.Get(ctx, authz.CurrentUser(ctx).ID)
	if err != nil {
		return nil, err
	}
	abilities, err := h.authz.Abilities(ctx)
	if err != nil {
		return nil, err
	}
	m := authz.CurrentOrganization(ctx)
	org, err := h.tenants.GetOrganization(ctx, m.OrganizationID)
	if err != nil {
		return nil, err
	}
	pending, err := h.pendingEmail(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	return &CurrentUser{
		UUID: u.ID.String(), Email: u.Email, Cellphone: CellphoneOf(u.Phone),
		FirstName: u.FirstName, LastName: u.LastName, FullName: strings.TrimSpace(u.FirstName + " " + u.LastName),
		RoleArea:      u.RoleArea,
		Verifications: Verifications{EmailVerified: u.EmailVerified, CellphoneVerified: u.PhoneVerified},
		PendingEmail:  pending,
		Role:          m.Role,
		Organization:  OrganizationIn{UUID: org.ID.String(), Name: org.Name, Country: org.Country, Status: org.Status},
		Abilities:     abilities,
	}, nil
}

// MyData is PATCH /manage/api/user {user: {first_name?, last_name?, role_area?, locale?}}.
type MyData struct {
	User struct {
		FirstName *string `json:"first_name"`
		LastName  *string `json:"last_name"`
		RoleArea  *string `json:"role_area"`
		Locale    *string `json:"locale"`
	} `json:"user"`
}

// Validate checks the fields sent.
func (r *MyData) Validate() error {
	fields := map[string]string{}
	add := func(field, code string) {
		if code != "" {
			fields[field] = code
		}
	}
	u := &r.User
	if u.FirstName != nil {
		add("user.first_name", checkName(*u.FirstName, "first_name"))
	}
	if u.LastName != nil {
		add("user.last_name", checkName(*u.LastName, "last_name"))
	}
	if u.RoleArea != nil {
		add("user.role_area", checkRoleArea(*u.RoleArea))
	}
	if u.Locale != nil && *u.Locale != "es" && *u.Locale != "en" && *u.Locale != "pt" {
		add("user.locale", "wrong_type")
	}
	return apierror.Invalid(fields)
}

// traits are the identity traits the fields sent set.
func (r *MyData) traits() []kratos.JsonPatch {
	var ops []kratos.JsonPatch
	set := func(path string, p *string) {
		if p != nil {
			ops = append(ops, identity.SetTrait(path, strings.TrimSpace(*p)))
		}
	}
	set("/traits/name/first", r.User.FirstName)
	set("/traits/name/last", r.User.LastName)
	set("/traits/role_area", r.User.RoleArea)
	set("/traits/locale", r.User.Locale)
	return ops
}

func (h *Handler) updateMyData(ctx context.Context, in *MyData) (*CurrentUser, error) {
	if ops := in.traits(); len(ops) > 0 {
		if err := h.kratos.Patch(ctx, authz.CurrentUser(ctx).ID, ops...); err != nil {
			return nil, err
		}
	}
	return h.current(ctx, nil)
}

// ContactChange is PUT /manage/api/user {user: {email}} or {user: {cellphone: {country, number}}}.
type ContactChange struct {
	User struct {
		Email     *string    `json:"email"`
		Cellphone *Cellphone `json:"cellphone"`
	} `json:"user"`
}

// changeContact checks the new value is valid, different and unused, then sends a code to it. A
// new e-mail needs a recent login and stays pending (the login unchanged) until its code is
// verified.
func (h *Handler) changeContact(ctx context.Context, in *ContactChange) (*CurrentUser, error) {
	u := authz.CurrentUser(ctx)
	if err := userLimit.Take(ctx, u.ID.String()); err != nil {
		return nil, err
	}
	var err error
	switch {
	case in.User.Email != nil && in.User.Cellphone == nil:
		err = h.changeEmail(ctx, u, *in.User.Email)
	case in.User.Cellphone != nil && in.User.Email == nil:
		err = h.changeCellphone(ctx, u, *in.User.Cellphone)
	default:
		err = apierror.Validation(map[string]string{"user": "account.email_required"})
	}
	if err != nil {
		return nil, err
	}
	return h.current(ctx, nil)
}

// changeEmail makes the address the user's pending e-mail and sends it a code.
func (h *Handler) changeEmail(ctx context.Context, u identity.User, raw string) error {
	if err := authz.RecentLogin(ctx); err != nil {
		return err
	}
	email, code := normalizeEmail(raw)
	if code == "" && strings.EqualFold(email, u.Email) {
		code = "account.email_unchanged"
	}
	if code == "" {
		taken, err := h.emailTaken(ctx, email, "")
		if err != nil {
			return err
		}
		if taken {
			code = "account.email_taken"
		}
	}
	if code != "" {
		return apierror.Validation(map[string]string{"user.email": code})
	}
	return h.requestEmailChange(ctx, u, email)
}

// changeCellphone claims the number for the user, sets it on the identity and sends it a code.
func (h *Handler) changeCellphone(ctx context.Context, u identity.User, raw Cellphone) error {
	phone, code := normalizeCellphone(raw)
	if code == "" && phone == u.Phone {
		code = "account.cellphone_unchanged"
	}
	if code == "" {
		taken, err := h.phoneTaken(ctx, phone, u.ID, "")
		if err != nil {
			return err
		}
		if taken {
			code = "account.cellphone_taken"
		}
	}
	if code == "" {
		err := h.db.ClaimCellphone(ctx, dirdb.ClaimCellphoneParams{Phone: phone, UserID: u.ID})
		if dberr.IsConflict(err, "") {
			code = "account.cellphone_taken"
		} else if err != nil {
			return err
		}
	}
	if code != "" {
		return apierror.Validation(map[string]string{"user.cellphone": code})
	}
	if err := h.kratos.Patch(ctx, u.ID, identity.SetTrait("/traits/phone", phone)); err != nil {
		return err
	}
	return h.send(ctx, u.ID, "cellphone", true)
}

// PasswordChange is PUT /manage/api/user/password {current_password, password}.
type PasswordChange struct {
	CurrentPassword string `json:"current_password"`
	Password        string `json:"password"`
}

// Validate applies the password rule to the new one.
func (r *PasswordChange) Validate() error {
	if code := checkPassword(r.Password); code != "" {
		return apierror.Validation(map[string]string{"password": code})
	}
	return nil
}

// changePassword answers 204. Every other session of the user ends: whoever else knew the old
// password is signed out.
func (h *Handler) changePassword(ctx context.Context, in *PasswordChange) (*struct{}, error) {
	u := authz.CurrentUser(ctx)
	if err := userLimit.Take(ctx, u.ID.String()); err != nil {
		return nil, err
	}
	ok, err := h.flows.CheckPassword(ctx, h.kratos, u.Email, in.CurrentPassword)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apierror.Validation(map[string]string{"current_password": "account.current_password_invalid"})
	}
	if err := h.kratos.SetPassword(ctx, u.ID, in.Password); err != nil {
		return nil, err
	}
	return nil, h.kratos.RevokeOtherSessions(ctx, u.ID, u.Session.ID)
}
