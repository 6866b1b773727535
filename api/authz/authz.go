// Package authz decides who may call what. A request to the manage area needs a Kratos session
// whose e-mail is verified (Authenticate; the verification step itself is mounted with
// BeforeVerification), and each route declares the Keto permit it needs on the user's organisation
// (Require). Handlers then read the user and the organisation from the context.
package authz

import (
	"context"
	"errors"
	"net/http"
	"path"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/tenants"
)

// Permits of the Organization namespace (identity/namespaces.keto.ts), in the order the abilities
// list reports them.
const (
	View               = "view"
	EditCampaigns      = "edit_campaigns"
	PublishCampaigns   = "publish_campaigns"
	ManageDonations    = "manage_donations"
	ExportData         = "export_data"
	ManageUsers        = "manage_users"
	ManageOrganization = "manage_organization"
	ManageAgencies     = "manage_agencies"
)

// Member is the permit of anyone with a role in the organisation: their own account's calls.
const Member = "member"

// Permits lists every organisation permit.
var Permits = []string{View, EditCampaigns, PublishCampaigns, ManageDonations, ExportData, ManageUsers, ManageOrganization, ManageAgencies}

// SessionResolver finds the user behind a request's cookies.
type SessionResolver interface {
	FromCookie(ctx context.Context, cookieHeader string) (identity.User, error)
}

// PermissionChecker asks Keto.
type PermissionChecker interface {
	Check(ctx context.Context, namespace, object, permit, userID string) (bool, error)
}

// Directory lists a user's organisations and resolves the chosen one's shard.
type Directory interface {
	MembershipsOf(ctx context.Context, userID uuid.UUID) ([]tenants.Membership, error)
	ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
}

// Authz holds the collaborators of the middleware.
type Authz struct {
	sessions    SessionResolver
	permissions PermissionChecker
	memberships Directory
	// beforeVerification holds "METHOD /full/path" of the routes an unverified user may call.
	// Written while routes are mounted, only read once the server runs.
	beforeVerification map[string]bool
}

// New builds the middleware set.
func New(s SessionResolver, p PermissionChecker, m Directory) *Authz {
	return &Authz{sessions: s, permissions: p, memberships: m, beforeVerification: map[string]bool{}}
}

const (
	userKey = "aporta.user"
	orgKey  = "aporta.organization"
	// OrganizationHeader picks one of the user's organisations; without it, the first one.
	OrganizationHeader = "X-Organization-Id"
)

// Authenticate requires a valid session of a user whose e-mail is verified, and stores the user in
// the context. Until the address is verified only the routes mounted with BeforeVerification
// answer: anyone could otherwise reach an organisation through an identity made for an address
// they do not control.
func (a *Authz) Authenticate() gin.HandlerFunc {
	return func(c *gin.Context) {
		u, err := a.sessions.FromCookie(c.Request.Context(), c.GetHeader("Cookie"))
		if errors.Is(err, identity.ErrNoSession) {
			apierror.Abort(c, apierror.Unauthorized())
			return
		}
		if errors.Is(err, identity.ErrSecondFactorRequired) {
			apierror.Abort(c, ErrSecondFactorRequired())
			return
		}
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		if !u.EmailVerified && !a.beforeVerification[c.Request.Method+" "+c.FullPath()] {
			apierror.Abort(c, apierror.New(http.StatusForbidden, "account.email_not_verified"))
			return
		}
		c.Set(userKey, u)
		c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), userCtxKey{}, u))
		c.Next()
	}
}

// BeforeVerification mounts a route of an authenticated group that a signed-in user may call
// before verifying their e-mail: the verification step and what its page needs.
func (a *Authz) BeforeVerification(g *gin.RouterGroup, method, relativePath string, handlers ...gin.HandlerFunc) {
	a.beforeVerification[method+" "+path.Join(g.BasePath(), relativePath)] = true
	g.Handle(method, relativePath, handlers...)
}

// ErrSecondFactorRequired answers a session that still owes its second factor (the web app then
// asks for the authenticator app's code).
func ErrSecondFactorRequired() *apierror.Error {
	return apierror.New(http.StatusForbidden, "session.second_factor_required")
}

// RecentLogin refuses a sensitive change (the login e-mail, say) unless the person signed in within
// identity.PrivilegedMaxAge: a session left open on a shared computer cannot take the account over.
// The web app answers session.reauth_required by asking for the password again.
func RecentLogin(ctx context.Context) error {
	if !CurrentUser(ctx).Session.Privileged(time.Now()) {
		return apierror.New(http.StatusForbidden, "session.reauth_required")
	}
	return nil
}

func init() {
	i18n.Register(i18n.Catalog{
		"session.second_factor_required": {
			i18n.ES: "Ingresa el código de tu app de autenticación para continuar.",
			i18n.EN: "Enter the code from your authenticator app to continue.",
			i18n.PT: "Informe o código do seu app autenticador para continuar.",
		},
		"session.reauth_required": {
			i18n.ES: "Por seguridad, vuelve a ingresar tu contraseña antes de hacer este cambio.",
			i18n.EN: "For your security, enter your password again before making this change.",
			i18n.PT: "Por segurança, informe sua senha novamente antes de fazer esta alteração.",
		},
	})
}

// Require checks the permit on the user's current organisation, then puts the membership and the
// organisation's shard scope in the request context (CurrentOrganization, tenants.ScopeFrom): the
// scope is resolved once here, after the permission check. Authenticate must run first.
func (a *Authz) Require(permit string) gin.HandlerFunc {
	return a.RequireNamed(permit, nil)
}

// RequireNamed is Require for a browser navigation, which cannot send OrganizationHeader: named
// reads the organisation's id from the request (a form field, an OAuth state); where it names none,
// the header, then the user's first organisation, apply as for Require.
func (a *Authz) RequireNamed(permit string, named func(c *gin.Context) string) gin.HandlerFunc {
	return func(c *gin.Context) {
		u := User(c)
		want := c.GetHeader(OrganizationHeader)
		if named != nil && named(c) != "" {
			want = named(c)
		}
		m, ok, err := a.permitted(c.Request.Context(), u.ID, want, permit)
		if !Permitted(c, ok, err) {
			return
		}
		scope, err := a.memberships.ForOrganization(c.Request.Context(), m.OrganizationID)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		c.Set(orgKey, m)
		ctx := context.WithValue(c.Request.Context(), orgCtxKey{}, m)
		c.Request = c.Request.WithContext(tenants.WithScope(ctx, scope))
		c.Next()
	}
}

// Permitted aborts the request unless a permission check (ok, err) let it through: with the
// check's error, or 403 when it said no.
func Permitted(c *gin.Context, ok bool, err error) bool {
	switch {
	case err != nil:
		apierror.Abort(c, err)
	case !ok:
		apierror.Abort(c, apierror.Forbidden())
	}
	return err == nil && ok
}

// Abilities lists the permits the user holds on the organisation Require checked.
func (a *Authz) Abilities(ctx context.Context) ([]string, error) {
	u, m := CurrentUser(ctx), CurrentOrganization(ctx)
	out := []string{}
	for _, p := range Permits {
		ok, err := a.permissions.Check(ctx, identity.NamespaceOrganization, m.OrganizationID.String(), p, u.ID.String())
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// permitted finds the user's membership of the organisation want names (their first one for "") and asks Keto
// whether they hold permit on it. A named organisation is asked of Keto while the directory lists the user's
// memberships, so the request waits for the slower of the two rather than for their sum; the membership still
// decides first: an organisation the user is no active member of is refused whatever Keto answers.
func (a *Authz) permitted(ctx context.Context, userID uuid.UUID, want, permit string) (tenants.Membership, bool, error) {
	type verdict struct {
		ok  bool
		err error
	}
	var asked chan verdict
	if id, err := uuid.Parse(want); err == nil && id.String() == want { // the only spelling a membership matches
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx) // a refused membership stops the check
		defer cancel()
		asked = make(chan verdict, 1)
		go func() {
			ok, err := a.permissions.Check(ctx, identity.NamespaceOrganization, want, permit, userID.String())
			asked <- verdict{ok, err}
		}()
	}
	m, err := a.currentMembership(ctx, userID, want)
	if err != nil {
		return m, false, err
	}
	if asked != nil {
		v := <-asked
		return m, v.ok, v.err
	}
	ok, err := a.permissions.Check(ctx, identity.NamespaceOrganization, m.OrganizationID.String(), permit, userID.String())
	return m, ok, err
}

func (a *Authz) currentMembership(ctx context.Context, userID uuid.UUID, want string) (tenants.Membership, error) {
	ms, err := a.memberships.MembershipsOf(ctx, userID)
	if err != nil {
		return tenants.Membership{}, err
	}
	if len(ms) == 0 {
		return tenants.Membership{}, apierror.Forbidden()
	}
	if want == "" {
		return ms[0], nil
	}
	for _, m := range ms {
		if m.OrganizationID.String() == want {
			return m, nil
		}
	}
	// Another organisation's id is answered like an unknown one: nothing about it leaks.
	return tenants.Membership{}, apierror.New(http.StatusNotFound, "not_found")
}

type (
	userCtxKey struct{}
	orgCtxKey  struct{}
)

// CurrentUser is the signed-in user of a request that passed Authenticate (zero otherwise).
func CurrentUser(ctx context.Context) identity.User {
	u, _ := ctx.Value(userCtxKey{}).(identity.User)
	return u
}

// CurrentOrganization is the organisation Require checked the permit on (zero otherwise).
func CurrentOrganization(ctx context.Context) tenants.Membership {
	m, _ := ctx.Value(orgCtxKey{}).(tenants.Membership)
	return m
}

// Scope is the shard scope Require resolved; an endpoint mounted without Require gets an internal
// error rather than another organisation's data.
func Scope(ctx context.Context) (tenants.Scope, error) {
	s, ok := tenants.ScopeFrom(ctx)
	if !ok {
		return tenants.Scope{}, errors.New("authz: no organisation scope: route mounted without Require")
	}
	return s, nil
}

// User is the authenticated user (Authenticate ran).
func User(c *gin.Context) identity.User {
	u, _ := c.Get(userKey)
	user, _ := u.(identity.User)
	return user
}

// Organization is the organisation Require checked the permit on.
func Organization(c *gin.Context) tenants.Membership {
	m, _ := c.Get(orgKey)
	membership, _ := m.(tenants.Membership)
	return membership
}
