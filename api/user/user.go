// Package user is the organisation's users page: list the members and pending invitations, invite
// a person (an invitation e-mailed with a single-use link; the membership is made only when they
// accept it, see invitation.go), change a member's role, discard a member (membership discarded and
// Keto relation removed: their account and sessions stay, they may belong to other organisations)
// and reactivate them. Memberships live in the directory; roles are Keto relations on the organisation.
package user

import (
	"context"
	"embed"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"net/mail"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// Roles an organisation member can have, and their Keto relation on the organisation.
var relationOf = map[string]string{
	"administrator": identity.RelationAdministrators,
	"operator":      identity.RelationOperators,
	"supervisor":    identity.RelationSupervisors,
}

// InvitationLifetime is how long an invitation link stays valid.
const InvitationLifetime = 72 * time.Hour

var (
	inviteLimit = ratelimit.New("user_invite", 30, 15*time.Minute)       // per IP
	acceptLimit = ratelimit.New("invitation_accept", 30, 15*time.Minute) // per IP, the token pages
)

// Deps are the package's collaborators.
type Deps struct {
	Config  *config.Config
	Tenants *tenants.Tenants
	Authz   *authz.Authz
	Keto    *identity.Keto
}

// Handler serves the users routes.
type Handler struct {
	cfg     *config.Config
	tenants *tenants.Tenants
	kratos  *identity.Kratos
	flows   *identity.Flows
	keto    *identity.Keto
	outbox  *outbox.Outbox
}

// Routes mounts, on the manage group (/manage/api, CSRF + session); a pending invitation is listed
// as a user with status "pending" and its own uuid:
//
//	GET    /users?status=active|discarded|pending  view          {"users": [User]}
//	POST   /users                             manage_users  invite {email, first_name, last_name, role} → 201 {"user": User}
//	PATCH  /users/:uuid                       manage_users  {role} → {"user": User}
//	DELETE /users/:uuid                       manage_users  discard a member, or cancel an invitation → {"user": User}
//	POST   /users/:uuid/reactivate            manage_users  → {"user": User}
//	POST   /users/:uuid/invitation            manage_users  send a pending invitation again (a new link) → {"user": User}
//
// and, for whoever holds an invitation link (the CSRF token of the page is required):
//
//	POST /internal/api/invitations/show    {token} → {"invitation": InvitationView}
//	POST /internal/api/invitations/accept  {token, first_name, last_name, password} → {"redirect_to"}
//	POST /account/api/invitations/accept   {token} (signed in as the invited address) → {"redirect_to"}
func Routes(public, manage, account *gin.RouterGroup, csrf gin.HandlerFunc, d Deps) {
	hc := &http.Client{Timeout: 10 * time.Second}
	h := &Handler{
		cfg: d.Config, tenants: d.Tenants, keto: d.Keto,
		kratos: identity.NewKratos(d.Config.KratosAdmin, hc),
		flows:  identity.NewFlows(d.Config.KratosPublic, hc),
		outbox: outbox.New(d.Tenants.Directory(), d.Config),
	}
	manageUsers := d.Authz.Require(authz.ManageUsers)
	manage.GET("/users", d.Authz.Require(authz.View), h.list)
	manage.POST("/users", manageUsers, inviteLimit.PerIP(), h.invite)
	manage.PATCH("/users/:uuid", manageUsers, h.changeRole)
	manage.DELETE("/users/:uuid", manageUsers, h.discard)
	manage.POST("/users/:uuid/reactivate", manageUsers, h.reactivate)
	manage.POST("/users/:uuid/invitation", manageUsers, inviteLimit.PerIP(), h.resendInvitation)

	invitations := public.Group("/internal/api/invitations", csrf, acceptLimit.PerIP())
	invitations.POST("/show", h.showInvitation)
	invitations.POST("/accept", h.acceptAsNew)
	account.POST("/invitations/accept", acceptLimit.PerIP(), h.acceptSignedIn)
}

// User is one member as the users page shows them.
type User struct {
	UUID        string     `json:"uuid"`
	Email       string     `json:"email"`
	FirstName   string     `json:"first_name"`
	LastName    string     `json:"last_name"`
	FullName    string     `json:"full_name"`
	Role        string     `json:"role"`
	Status      string     `json:"status"` // active | discarded | pending (invited, not accepted) | cancelled
	LastLoginAt *time.Time `json:"last_login_at"`
	DiscardedAt *time.Time `json:"discarded_at"`
	// ExpiresAt is when a pending invitation's link stops working.
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	Self      bool       `json:"self"`
}

func (h *Handler) storeOf(c *gin.Context) store {
	return store{db: h.tenants.Directory(), orgID: authz.Organization(c).OrganizationID}
}

func (h *Handler) view(c *gin.Context, m member, u identity.User, lastLogin *time.Time) User {
	status := "active"
	if !m.active() {
		status = "discarded"
	}
	return User{
		UUID: m.UserID.String(), Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		FullName: strings.TrimSpace(u.FirstName + " " + u.LastName), Role: m.Role, Status: status,
		LastLoginAt: lastLogin, DiscardedAt: m.DiscardedAt, CreatedAt: m.CreatedAt,
		Self: m.UserID == authz.User(c).ID,
	}
}

// invitationView shows a pending invitation with what the inviter typed: nothing of any identity.
func invitationView(inv invitation, status string) User {
	return User{
		UUID: inv.ID.String(), Email: inv.Email, FirstName: inv.FirstName, LastName: inv.LastName,
		FullName: strings.TrimSpace(inv.FirstName + " " + inv.LastName), Role: inv.Role, Status: status,
		ExpiresAt: &inv.ExpiresAt, CreatedAt: inv.CreatedAt,
	}
}

// one answers a single member, with its identity and last login.
func (h *Handler) one(c *gin.Context, status int, m member) {
	ctx := c.Request.Context()
	users, err := h.kratos.Users(ctx, []uuid.UUID{m.UserID})
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	last, err := h.kratos.LastLogin(ctx, m.UserID)
	if err != nil {
		slog.WarnContext(ctx, "last login", "error", err)
	}
	c.JSON(status, gin.H{"user": h.view(c, m, users[m.UserID], last)})
}

// list is GET /manage/api/users.
func (h *Handler) list(c *gin.Context) {
	ctx := c.Request.Context()
	status := c.Query("status")
	switch status {
	case "", "all":
		status = ""
	case "active", "discarded", "pending":
	default:
		apierror.Abort(c, apierror.Validation(map[string]string{"status": "user_status_invalid"}))
		return
	}
	st := h.storeOf(c)
	var members []member
	var invited []invitation
	var err error
	if status != "pending" {
		members, err = st.list(ctx, status)
	}
	if err == nil && (status == "" || status == "pending") {
		invited, err = st.invitations(ctx)
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ids := make([]uuid.UUID, len(members))
	for i, m := range members {
		ids[i] = m.UserID
	}
	users, err := h.kratos.Users(ctx, ids)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	// Last logins come one call per identity; a few at a time.
	last := make([]*time.Time, len(members))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, m := range members {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			t, err := h.kratos.LastLogin(ctx, m.UserID)
			if err != nil {
				slog.WarnContext(ctx, "last login", "error", err, "user", m.UserID)
			}
			last[i] = t
		}()
	}
	wg.Wait()
	out := make([]User, 0, len(members)+len(invited))
	for i, m := range members {
		out = append(out, h.view(c, m, users[m.UserID], last[i]))
	}
	for _, inv := range invited {
		out = append(out, invitationView(inv, "pending"))
	}
	c.JSON(http.StatusOK, gin.H{"users": out})
}

// inviteIn is POST /manage/api/users.
type inviteIn struct {
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Role      string `json:"role"`
}

func (in *inviteIn) validate() error {
	in.Email = strings.ToLower(strings.TrimSpace(in.Email))
	in.FirstName = strings.TrimSpace(in.FirstName)
	in.LastName = strings.TrimSpace(in.LastName)
	in.Role = strings.TrimSpace(in.Role)
	fields := map[string]string{}
	switch a, err := mail.ParseAddress(in.Email); {
	case in.Email == "":
		fields["email"] = "user_email_required"
	case err != nil || a.Address != in.Email || !strings.Contains(in.Email[strings.LastIndex(in.Email, "@")+1:], ".") || len(in.Email) > 320:
		fields["email"] = "user_email_invalid"
	}
	maps.Copy(fields, checkNames(in.FirstName, in.LastName))
	if err := checkRole(in.Role); err != "" {
		fields["role"] = err
	}
	if len(fields) > 0 {
		return apierror.Validation(fields)
	}
	return nil
}

// checkNames returns the field errors of a person's (trimmed) first and last names.
func checkNames(first, last string) map[string]string {
	fields := map[string]string{}
	for field, v := range map[string]string{"first_name": first, "last_name": last} {
		switch n := utf8.RuneCountInString(v); {
		case n == 0:
			fields[field] = "user_" + field + "_required"
		case n < 3:
			fields[field] = "user_" + field + "_min_length"
		case n > 100:
			fields[field] = "user_name_too_long"
		}
	}
	return fields
}

func checkRole(role string) string {
	if role == "" {
		return "user_role_required"
	}
	if _, ok := relationOf[role]; !ok {
		return "user_role_invalid"
	}
	return ""
}

func (h *Handler) invite(c *gin.Context) {
	ctx := c.Request.Context()
	var in inviteIn
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	if err := in.validate(); err != nil {
		apierror.Abort(c, err)
		return
	}
	// Only this organisation's own members are told apart (its list shows them anyway): whether
	// the address has an account elsewhere is not the inviter's business.
	id, found, err := h.kratos.FindByEmail(ctx, in.Email)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	st := h.storeOf(c)
	token, hash := newToken()
	var inv invitation
	err = st.inTx(ctx, func(tx pgx.Tx) error {
		if found {
			existing, err := st.get(ctx, tx, id)
			switch {
			case err == nil && existing.active():
				return apierror.New(http.StatusConflict, "user_already_member")
			case err == nil:
				return apierror.New(http.StatusConflict, "user_discarded_reactivate")
			case !errors.Is(err, errNoMember):
				return err
			}
		}
		inv, err = st.insertInvitation(ctx, tx, in, hash, authz.User(c).ID)
		if errors.Is(err, errDuplicate) {
			return apierror.New(http.StatusConflict, "user.invitation_pending")
		}
		return err
	})
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if err := h.sendInvitation(c, inv, token); err != nil {
		apierror.Abort(c, &apierror.Error{Status: http.StatusBadGateway, Code: "user_invitation_not_sent", Err: err})
		return
	}
	c.JSON(http.StatusCreated, gin.H{"user": invitationView(inv, "pending")})
}

// resendInvitation is POST /manage/api/users/:uuid/invitation: a new link for a pending
// invitation (the previous one stops working) and a new expiry.
func (h *Handler) resendInvitation(c *gin.Context) {
	id, ok := userID(c)
	if !ok {
		return
	}
	token, hash := newToken()
	inv, err := h.storeOf(c).renewInvitation(c.Request.Context(), id, hash)
	if err != nil {
		abortMember(c, err)
		return
	}
	if err := h.sendInvitation(c, inv, token); err != nil {
		apierror.Abort(c, &apierror.Error{Status: http.StatusBadGateway, Code: "user_invitation_not_sent", Err: err})
		return
	}
	c.JSON(http.StatusOK, gin.H{"user": invitationView(inv, "pending")})
}

// changeRole is PATCH /manage/api/users/:uuid {role}.
func (h *Handler) changeRole(c *gin.Context) {
	ctx := c.Request.Context()
	id, ok := userID(c)
	if !ok {
		return
	}
	var in struct {
		Role string `json:"role"`
	}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	in.Role = strings.TrimSpace(in.Role)
	if code := checkRole(in.Role); code != "" {
		apierror.Abort(c, apierror.Validation(map[string]string{"role": code}))
		return
	}
	st := h.storeOf(c)
	var m member
	err := st.inTx(ctx, func(tx pgx.Tx) error {
		cur, err := st.get(ctx, tx, id)
		if err != nil {
			return err
		}
		if !cur.active() {
			return apierror.New(http.StatusConflict, "user_discarded")
		}
		if cur.Role == in.Role {
			m = cur
			return nil
		}
		if cur.Role == "administrator" {
			if err := lastAdministrator(ctx, st, tx); err != nil {
				return err
			}
		}
		if m, err = st.setRole(ctx, tx, id, in.Role); err != nil {
			return err
		}
		org := st.orgID.String()
		if err := h.keto.Grant(ctx, identity.NamespaceOrganization, org, relationOf[in.Role], id.String()); err != nil {
			return err
		}
		if err := h.keto.Revoke(ctx, identity.NamespaceOrganization, org, relationOf[cur.Role], id.String()); err != nil {
			// Keep Keto as it was: the row rolls back.
			_ = h.keto.Revoke(context.WithoutCancel(ctx), identity.NamespaceOrganization, org, relationOf[in.Role], id.String())
			return err
		}
		return nil
	})
	if err != nil {
		abortMember(c, err)
		return
	}
	h.one(c, http.StatusOK, m)
}

// lastAdministrator refuses when the organisation has one active administrator left.
func lastAdministrator(ctx context.Context, st store, tx pgx.Tx) error {
	n, err := st.activeAdministrators(ctx, tx)
	if err != nil {
		return err
	}
	if n <= 1 {
		return apierror.New(http.StatusConflict, "user_last_administrator")
	}
	return nil
}

// discard is DELETE /manage/api/users/:uuid: it cancels a pending invitation, or ends a member's
// access to this organisation only (their sessions may serve other organisations).
func (h *Handler) discard(c *gin.Context) {
	ctx := c.Request.Context()
	id, ok := userID(c)
	if !ok {
		return
	}
	st := h.storeOf(c)
	switch inv, err := st.deleteInvitation(ctx, id); {
	case err == nil:
		c.JSON(http.StatusOK, gin.H{"user": invitationView(inv, "cancelled")})
		return
	case !errors.Is(err, errNoMember):
		apierror.Abort(c, err)
		return
	}
	var m member
	err := st.inTx(ctx, func(tx pgx.Tx) error {
		cur, err := st.get(ctx, tx, id)
		if err != nil {
			return err
		}
		if !cur.active() { // already discarded: nothing to do
			m = cur
			return nil
		}
		if cur.Role == "administrator" {
			if err := lastAdministrator(ctx, st, tx); err != nil {
				return err
			}
		}
		if id == authz.User(c).ID {
			return apierror.New(http.StatusConflict, "user_cannot_discard_self")
		}
		if m, err = st.discard(ctx, tx, id); err != nil {
			return err
		}
		org := st.orgID.String()
		for _, rel := range relationOf {
			if err := h.keto.Revoke(ctx, identity.NamespaceOrganization, org, rel, id.String()); err != nil {
				_ = h.keto.Grant(context.WithoutCancel(ctx), identity.NamespaceOrganization, org, relationOf[cur.Role], id.String())
				return err
			}
		}
		return nil
	})
	if err != nil {
		abortMember(c, err)
		return
	}
	h.one(c, http.StatusOK, m)
}

// reactivate is POST /manage/api/users/:uuid/reactivate.
func (h *Handler) reactivate(c *gin.Context) {
	ctx := c.Request.Context()
	id, ok := userID(c)
	if !ok {
		return
	}
	st := h.storeOf(c)
	var m member
	err := st.inTx(ctx, func(tx pgx.Tx) error {
		cur, err := st.get(ctx, tx, id)
		if err != nil {
			return err
		}
		if m, err = st.reactivate(ctx, tx, id); err != nil {
			return err
		}
		return h.keto.Grant(ctx, identity.NamespaceOrganization, st.orgID.String(), relationOf[cur.Role], id.String())
	})
	if err != nil {
		abortMember(c, err)
		return
	}
	h.one(c, http.StatusOK, m)
}

// userID reads the :uuid parameter; anything that is not a uuid is an unknown user.
func userID(c *gin.Context) (uuid.UUID, bool) {
	id, err := uuid.Parse(c.Param("uuid"))
	if err != nil {
		apierror.Abort(c, apierror.NotFound())
		return uuid.Nil, false
	}
	return id, true
}

// abortMember answers 404 for a user who is not a member of this organisation (whoever they are).
func abortMember(c *gin.Context, err error) {
	switch {
	case errors.Is(err, errNoMember):
		apierror.Abort(c, apierror.NotFound())
	case errors.Is(err, errDuplicate):
		apierror.Abort(c, apierror.New(http.StatusConflict, "user_already_member"))
	default:
		apierror.Abort(c, err)
	}
}
