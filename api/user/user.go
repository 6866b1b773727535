// Package user is the organisation's users page: list the members and pending invitations, invite
// a person (an invitation e-mailed with a single-use link; the membership is made only when they
// accept it, see invitation.go), change a member's role, discard a member (membership discarded and
// Keto relation removed: their account and sessions stay, they may belong to other organisations)
// and reactivate them. Memberships live in the directory; roles are Keto relations on the organisation.
package user

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

// Roles an organisation member can have, and their Keto relation on the organisation.
var relationOf = map[string]string{
	"administrator": identity.RelationAdministrators,
	"operator":      identity.RelationOperators,
	"supervisor":    identity.RelationSupervisors,
	"agency_admin":  identity.RelationAgencyAdmins, // external teams only (api/agency)
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
	Keto    *identity.Keto
	// CSRF guards the invitation pages' calls, which have no session yet.
	CSRF gin.HandlerFunc
}

// Handler serves the users routes.
type Handler struct {
	cfg     *config.Config
	tenants *tenants.Tenants
	kratos  *identity.Kratos
	flows   *identity.Flows
	keto    *identity.Keto
	outbox  *outbox.Outbox
	csrf    gin.HandlerFunc
}

// NewHandler builds the handler.
func NewHandler(d Deps) *Handler {
	hc := &http.Client{Timeout: 10 * time.Second}
	return &Handler{
		cfg: d.Config, tenants: d.Tenants, keto: d.Keto, csrf: d.CSRF,
		kratos: identity.NewKratos(d.Config.KratosAdmin, hc),
		flows:  identity.NewFlows(d.Config.KratosPublic, hc),
		outbox: outbox.New(d.Tenants.Directory(), d.Config),
	}
}

// Mount mounts, on the manage group (/manage/api, CSRF + session); a pending invitation is listed
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
func (h *Handler) Mount(g endpoint.Groups) {
	manageUsers := g.Authz.Require(authz.ManageUsers)
	g.Manage.GET("/users", g.Authz.Require(authz.View), endpoint.Handle(h.list))
	g.Manage.POST("/users", manageUsers, inviteLimit.PerIP(), endpoint.Handle(h.invite))
	g.Manage.PATCH("/users/:uuid", manageUsers, endpoint.Handle(h.changeRole))
	g.Manage.DELETE("/users/:uuid", manageUsers, endpoint.Handle(h.discard))
	g.Manage.POST("/users/:uuid/reactivate", manageUsers, endpoint.Handle(h.reactivate))
	g.Manage.POST("/users/:uuid/invitation", manageUsers, inviteLimit.PerIP(), endpoint.Handle(h.resendInvitation))

	invitations := g.Public.Group("/internal/api/invitations", h.csrf, acceptLimit.PerIP())
	invitations.POST("/show", endpoint.Handle(h.showInvitation))
	invitations.POST("/accept", h.acceptAsNew) // signs the person in: sets Kratos's session cookies
	g.Account.POST("/invitations/accept", acceptLimit.PerIP(), endpoint.Handle(h.acceptSignedIn))
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

// Reply is the answer of the calls on one user.
type Reply struct {
	User User `json:"user"`
}

// created is Reply answered 201.
type created struct{ Reply }

func (created) StatusCode() int { return http.StatusCreated }

func (h *Handler) storeOf(ctx context.Context) store {
	return store{pool: h.tenants.Directory(), orgID: authz.CurrentOrganization(ctx).OrganizationID}
}

func view(ctx context.Context, m member, u identity.User, lastLogin *time.Time) User {
	status := "active"
	if !active(m) {
		status = "discarded"
	}
	return User{
		UUID: m.UserID.String(), Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		FullName: strings.TrimSpace(u.FirstName + " " + u.LastName), Role: m.Role, Status: status,
		LastLoginAt: lastLogin, DiscardedAt: m.DiscardedAt, CreatedAt: m.CreatedAt,
		Self: m.UserID == authz.CurrentUser(ctx).ID,
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
func (h *Handler) one(ctx context.Context, m member) (*Reply, error) {
	u, err := h.kratos.User(ctx, m.UserID)
	if err != nil {
		return nil, err
	}
	last, err := h.kratos.LastLogin(ctx, m.UserID)
	if err != nil {
		slog.WarnContext(ctx, "last login", "error", err)
	}
	return &Reply{User: view(ctx, m, u, last)}, nil
}

// ListRequest filters the list by status.
type ListRequest struct {
	Status string `query:"status" json:"-"`
}

// Validate accepts the known statuses; "all" is no filter.
func (r *ListRequest) Validate() error {
	switch r.Status {
	case "", "all":
		r.Status = ""
	case "active", "discarded", "pending":
	default:
		return apierror.Validation(map[string]string{"status": "user.status_invalid"})
	}
	return nil
}

// List is the users page.
type List struct {
	Users []User `json:"users"`
}

// list is GET /manage/api/users.
func (h *Handler) list(ctx context.Context, r *ListRequest) (*List, error) {
	st := h.storeOf(ctx)
	var members []member
	var invited []invitation
	var err error
	if r.Status != "pending" {
		members, err = st.db().ListMembers(ctx, dirdb.ListMembersParams{OrganizationID: st.orgID, Status: r.Status})
	}
	if err == nil && (r.Status == "" || r.Status == "pending") {
		invited, err = st.db().ListInvitations(ctx, st.orgID)
	}
	if err != nil {
		return nil, err
	}
	users, err := identity.UsersOf(ctx, h.kratos, members, func(m member) uuid.UUID { return m.UserID })
	if err != nil {
		return nil, err
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
	out := &List{Users: make([]User, 0, len(members)+len(invited))}
	for i, m := range members {
		out.Users = append(out.Users, view(ctx, m, users[m.UserID], last[i]))
	}
	for _, inv := range invited {
		out.Users = append(out.Users, invitationView(inv, "pending"))
	}
	return out, nil
}

// InviteRequest is POST /manage/api/users.
type InviteRequest struct {
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Role      string `json:"role"`
}

// Validate trims the fields and checks them.
func (in *InviteRequest) Validate() error {
	in.Email = strings.ToLower(strings.TrimSpace(in.Email))
	in.FirstName = strings.TrimSpace(in.FirstName)
	in.LastName = strings.TrimSpace(in.LastName)
	in.Role = strings.TrimSpace(in.Role)
	fields := identity.InviteeFields("user", in.Email, in.FirstName, in.LastName)
	if err := checkRole(in.Role); err != "" {
		fields["role"] = err
	}
	return apierror.Invalid(fields)
}

func checkRole(role string) string {
	if role == "" {
		return "user.role_required"
	}
	if _, ok := relationOf[role]; !ok {
		return "user.role_invalid"
	}
	return ""
}

// errNotSent is an invitation recorded whose e-mail failed.
func errNotSent(err error) error {
	return &apierror.Error{Status: http.StatusBadGateway, Code: "user.invitation_not_sent", Err: err}
}

func (h *Handler) invite(ctx context.Context, in *InviteRequest) (*created, error) {
	// Only this organisation's own members are told apart (its list shows them anyway): whether
	// the address has an account elsewhere is not the inviter's business.
	id, found, err := h.kratos.FindByEmail(ctx, in.Email)
	if err != nil {
		return nil, err
	}
	st := h.storeOf(ctx)
	token, hash := newToken()
	var inv invitation
	err = st.inTx(ctx, func(q *dirdb.Queries) error {
		if found {
			existing, err := st.get(ctx, q, id)
			switch {
			case err == nil && active(existing):
				return apierror.New(http.StatusConflict, "user.already_member")
			case err == nil:
				return apierror.New(http.StatusConflict, "user.discarded_reactivate")
			case !errors.Is(err, dberr.ErrNotFound):
				return err
			}
		}
		inv, err = q.InsertInvitation(ctx, dirdb.InsertInvitationParams{
			ID: uuid.New(), OrganizationID: st.orgID, Email: in.Email, FirstName: in.FirstName, LastName: in.LastName,
			Role: in.Role, TokenHash: hash, InvitedBy: authz.CurrentUser(ctx).ID, ExpiresAt: time.Now().Add(InvitationLifetime),
		})
		if dberr.IsConflict(err, "") {
			return apierror.New(http.StatusConflict, "user.invitation_pending")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := h.sendInvitation(ctx, inv, token); err != nil {
		return nil, errNotSent(err)
	}
	return &created{Reply{User: invitationView(inv, "pending")}}, nil
}

// UserRequest names a user (or a pending invitation) by its uuid; a string, so a malformed one
// answers 404 like an unknown one.
type UserRequest struct {
	UUID string `path:"uuid" json:"-"`
}

// id is the user's uuid; anything that is not a uuid is an unknown user.
func (r *UserRequest) id() (uuid.UUID, error) {
	id, err := uuid.Parse(r.UUID)
	if err != nil {
		return uuid.Nil, apierror.NotFound()
	}
	return id, nil
}

// resendInvitation is POST /manage/api/users/:uuid/invitation: a new link for a pending
// invitation (the previous one stops working) and a new expiry.
func (h *Handler) resendInvitation(ctx context.Context, r *UserRequest) (*Reply, error) {
	id, err := r.id()
	if err != nil {
		return nil, err
	}
	token, hash := newToken()
	st := h.storeOf(ctx)
	inv, err := st.db().RenewInvitation(ctx, dirdb.RenewInvitationParams{
		OrganizationID: st.orgID, ID: id, TokenHash: hash, ExpiresAt: time.Now().Add(InvitationLifetime),
	})
	if err != nil {
		return nil, err
	}
	if err := h.sendInvitation(ctx, inv, token); err != nil {
		return nil, errNotSent(err)
	}
	return &Reply{User: invitationView(inv, "pending")}, nil
}

// RoleRequest is PATCH /manage/api/users/:uuid {role}.
type RoleRequest struct {
	UserRequest
	Role string `json:"role"`
}

// Validate checks the role.
func (r *RoleRequest) Validate() error {
	r.Role = strings.TrimSpace(r.Role)
	if code := checkRole(r.Role); code != "" {
		return apierror.Validation(map[string]string{"role": code})
	}
	return nil
}

// changeMember runs change on the member's current row under the organisation's user-management
// lock and answers the member as change leaves them.
func (h *Handler) changeMember(ctx context.Context, id uuid.UUID, change func(st store, q *dirdb.Queries, cur member) (member, error)) (*Reply, error) {
	st := h.storeOf(ctx)
	var m member
	err := st.inTx(ctx, func(q *dirdb.Queries) error {
		cur, err := st.get(ctx, q, id)
		if err != nil {
			return err
		}
		m, err = change(st, q, cur)
		return err
	})
	if err != nil {
		return nil, err
	}
	return h.one(ctx, m)
}

// changeRole is PATCH /manage/api/users/:uuid {role}.
func (h *Handler) changeRole(ctx context.Context, r *RoleRequest) (*Reply, error) {
	id, err := r.id()
	if err != nil {
		return nil, err
	}
	return h.changeMember(ctx, id, func(st store, q *dirdb.Queries, cur member) (member, error) {
		if !active(cur) {
			return cur, apierror.New(http.StatusConflict, "user.discarded")
		}
		if cur.Role == r.Role {
			return cur, nil
		}
		if cur.Role == "administrator" {
			if err := lastAdministrator(ctx, st, q); err != nil {
				return cur, err
			}
		}
		m, err := q.SetMemberRole(ctx, dirdb.SetMemberRoleParams{OrganizationID: st.orgID, UserID: id, Role: r.Role})
		if err != nil {
			return m, err
		}
		org := st.orgID.String()
		if err := h.keto.Grant(ctx, identity.NamespaceOrganization, org, relationOf[r.Role], id.String()); err != nil {
			return m, err
		}
		if err := h.keto.Revoke(ctx, identity.NamespaceOrganization, org, relationOf[cur.Role], id.String()); err != nil {
			// Keep Keto as it was: the row rolls back.
			_ = h.keto.Revoke(context.WithoutCancel(ctx), identity.NamespaceOrganization, org, relationOf[r.Role], id.String())
			return m, err
		}
		return m, nil
	})
}

// lastAdministrator refuses when the organisation has one active administrator left.
func lastAdministrator(ctx context.Context, st store, q *dirdb.Queries) error {
	n, err := q.CountActiveAdministrators(ctx, st.orgID)
	if err != nil {
		return err
	}
	if n <= 1 {
		return apierror.New(http.StatusConflict, "user.last_administrator")
	}
	return nil
}

// discard is DELETE /manage/api/users/:uuid: it cancels a pending invitation, or ends a member's
// access to this organisation only (their sessions may serve other organisations).
func (h *Handler) discard(ctx context.Context, r *UserRequest) (*Reply, error) {
	id, err := r.id()
	if err != nil {
		return nil, err
	}
	st := h.storeOf(ctx)
	switch inv, err := st.db().DeleteInvitation(ctx, dirdb.DeleteInvitationParams{OrganizationID: st.orgID, ID: id}); {
	case err == nil:
		return &Reply{User: invitationView(inv, "cancelled")}, nil
	case !errors.Is(err, dberr.ErrNotFound):
		return nil, err
	}
	return h.changeMember(ctx, id, func(st store, q *dirdb.Queries, cur member) (member, error) {
		if !active(cur) { // already discarded: nothing to do
			return cur, nil
		}
		if cur.Role == "administrator" {
			if err := lastAdministrator(ctx, st, q); err != nil {
				return cur, err
			}
		}
		if id == authz.CurrentUser(ctx).ID {
			return cur, apierror.New(http.StatusConflict, "user.cannot_discard_self")
		}
		m, err := q.DiscardMember(ctx, dirdb.DiscardMemberParams{OrganizationID: st.orgID, UserID: id})
		if err != nil {
			return m, err
		}
		org := st.orgID.String()
		for _, rel := range relationOf {
			if err := h.keto.Revoke(ctx, identity.NamespaceOrganization, org, rel, id.String()); err != nil {
				_ = h.keto.Grant(context.WithoutCancel(ctx), identity.NamespaceOrganization, org, relationOf[cur.Role], id.String())
				return m, err
			}
		}
		return m, nil
	})
}

// reactivate is POST /manage/api/users/:uuid/reactivate.
func (h *Handler) reactivate(ctx context.Context, r *UserRequest) (*Reply, error) {
	id, err := r.id()
	if err != nil {
		return nil, err
	}
	return h.changeMember(ctx, id, func(st store, q *dirdb.Queries, cur member) (member, error) {
		m, err := q.ReactivateMember(ctx, dirdb.ReactivateMemberParams{OrganizationID: st.orgID, UserID: id})
		if err != nil {
			return m, err
		}
		return m, h.keto.Grant(ctx, identity.NamespaceOrganization, st.orgID.String(), relationOf[cur.Role], id.String())
	})
}
