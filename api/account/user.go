package account

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/identity"
	kratos "github.com/ory/kratos-client-go"
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

func (h *Handler) current(c *gin.Context) {
	u, err := h.kratos.Get(h.ctx(c), authz.User(c).ID)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	h.writeUser(c, u.User)
}

func (h *Handler) writeUser(c *gin.Context, u identity.User) {
	abilities, m, err := h.authz.Abilities(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	org, err := h.tenants.GetOrganization(h.ctx(c), m.OrganizationID)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	pending, err := h.pendingEmail(h.ctx(c), u.ID)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, CurrentUser{
		UUID: u.ID.String(), Email: u.Email, Cellphone: CellphoneOf(u.Phone),
		FirstName: u.FirstName, LastName: u.LastName, FullName: strings.TrimSpace(u.FirstName + " " + u.LastName),
		RoleArea:      u.RoleArea,
		Verifications: Verifications{EmailVerified: u.EmailVerified, CellphoneVerified: u.PhoneVerified},
		PendingEmail:  pending,
		Role:          m.Role,
		Organization:  OrganizationIn{UUID: org.ID.String(), Name: org.Name, Country: org.Country, Status: org.Status},
		Abilities:     abilities,
	})
}

// updateMyData is PATCH /manage/api/user {user: {first_name?, last_name?, role_area?, locale?}}.
func (h *Handler) updateMyData(c *gin.Context) {
	var in struct {
		User struct {
			FirstName *string `json:"first_name"`
			LastName  *string `json:"last_name"`
			RoleArea  *string `json:"role_area"`
			Locale    *string `json:"locale"`
		} `json:"user"`
	}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	fields := map[string]string{}
	var ops []identityPatch
	if p := in.User.FirstName; p != nil {
		if code := checkName(*p, "first_name"); code != "" {
			fields["user.first_name"] = code
		}
		ops = append(ops, identityPatch{"/traits/name/first", strings.TrimSpace(*p)})
	}
	if p := in.User.LastName; p != nil {
		if code := checkName(*p, "last_name"); code != "" {
			fields["user.last_name"] = code
		}
		ops = append(ops, identityPatch{"/traits/name/last", strings.TrimSpace(*p)})
	}
	if p := in.User.RoleArea; p != nil {
		s := strings.TrimSpace(*p)
		if s == "" {
			fields["user.role_area"] = "role_area_required"
		} else if len(s) > 100 {
			fields["user.role_area"] = "too_long"
		}
		ops = append(ops, identityPatch{"/traits/role_area", s})
	}
	if p := in.User.Locale; p != nil {
		if *p != "es" && *p != "en" && *p != "pt" {
			fields["user.locale"] = "wrong_type"
		}
		ops = append(ops, identityPatch{"/traits/locale", *p})
	}
	if len(fields) > 0 {
		apierror.Abort(c, apierror.Validation(fields))
		return
	}
	id := authz.User(c).ID
	if len(ops) > 0 {
		patches := make([]identityPatchOp, 0, len(ops))
		for _, o := range ops {
			patches = append(patches, identity.SetTrait(o.path, o.value))
		}
		if err := h.kratos.Patch(h.ctx(c), id, patches...); err != nil {
			apierror.Abort(c, err)
			return
		}
	}
	h.current(c)
}

// changeContact is PUT /manage/api/user {user: {email}} or {user: {cellphone: {country, number}}}:
// the new value must be valid, different and unused; a code is then sent to it. A new e-mail needs
// a recent login and stays pending (the login unchanged) until its code is verified.
func (h *Handler) changeContact(c *gin.Context) {
	var in struct {
		User struct {
			Email     *string    `json:"email"`
			Cellphone *Cellphone `json:"cellphone"`
		} `json:"user"`
	}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	u := authz.User(c)
	ctx := h.ctx(c)
	if !userLimit.Check(c, u.ID.String()) {
		return
	}
	switch {
	case in.User.Email != nil && in.User.Cellphone == nil:
		if err := authz.RecentLogin(c); err != nil {
			apierror.Abort(c, err)
			return
		}
		email, code := normalizeEmail(*in.User.Email)
		if code == "" && strings.EqualFold(email, u.Email) {
			code = "email_unchanged"
		}
		if code == "" {
			taken, err := h.emailTaken(ctx, email, "")
			if err != nil {
				apierror.Abort(c, err)
				return
			}
			if taken {
				code = "email_taken"
			}
		}
		if code != "" {
			apierror.Abort(c, apierror.Validation(map[string]string{"user.email": code}))
			return
		}
		if err := h.requestEmailChange(c, u, email); err != nil {
			apierror.Abort(c, err)
			return
		}
	case in.User.Cellphone != nil && in.User.Email == nil:
		phone, code := normalizeCellphone(*in.User.Cellphone)
		if code == "" && phone == u.Phone {
			code = "cellphone_unchanged"
		}
		if code == "" {
			taken, err := h.phoneTaken(ctx, phone, u.ID, "")
			if err != nil {
				apierror.Abort(c, err)
				return
			}
			if taken {
				code = "cellphone_taken"
			}
		}
		if code == "" {
			_, err := h.tenants.Directory().Exec(ctx, queries.Get("ClaimPhone"), phone, u.ID)
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "23505" {
				code = "cellphone_taken"
			} else if err != nil {
				apierror.Abort(c, err)
				return
			}
		}
		if code != "" {
			apierror.Abort(c, apierror.Validation(map[string]string{"user.cellphone": code}))
			return
		}
		if err := h.kratos.Patch(ctx, u.ID, identity.SetTrait("/traits/phone", phone)); err != nil {
			apierror.Abort(c, err)
			return
		}
		if err := h.send(c, u.ID, "cellphone", true); err != nil {
			apierror.Abort(c, err)
			return
		}
	default:
		apierror.Abort(c, apierror.Validation(map[string]string{"user": "email_required"}))
		return
	}
	h.current(c)
}

// changePassword is PUT /manage/api/user/password {current_password, password} → 204. Every other
// session of the user ends: whoever else knew the old password is signed out.
func (h *Handler) changePassword(c *gin.Context) {
	var in struct {
		CurrentPassword string `json:"current_password"`
		Password        string `json:"password"`
	}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	if code := checkPassword(in.Password); code != "" {
		apierror.Abort(c, apierror.Validation(map[string]string{"password": code}))
		return
	}
	u := authz.User(c)
	if !userLimit.Check(c, u.ID.String()) {
		return
	}
	ok, err := h.flows.CheckPassword(h.ctx(c), h.kratos, u.Email, in.CurrentPassword)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if !ok {
		apierror.Abort(c, apierror.Validation(map[string]string{"current_password": "current_password_invalid"}))
		return
	}
	if err := h.kratos.SetPassword(h.ctx(c), u.ID, in.Password); err != nil {
		apierror.Abort(c, err)
		return
	}
	if err := h.kratos.RevokeOtherSessions(h.ctx(c), u.ID, u.Session.ID); err != nil {
		apierror.Abort(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

type identityPatch struct {
	path  string
	value any
}

type identityPatchOp = kratos.JsonPatch
