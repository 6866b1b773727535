package authz

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/tenants"
)

type signedIn identity.User

func (u signedIn) FromCookie(context.Context, string) (identity.User, error) {
	return identity.User(u), nil
}

// keto grants the permits it lists ("organisation permit").
type keto map[string]bool

func (k keto) Check(_ context.Context, namespace, object, permit, _ string) (bool, error) {
	return namespace == identity.NamespaceOrganization && k[object+" "+permit], nil
}

// directory holds the user's active memberships; failing makes the lookup fail.
type directory struct {
	memberships []tenants.Membership
	failing     bool
}

func (d directory) MembershipsOf(context.Context, uuid.UUID) ([]tenants.Membership, error) {
	if d.failing {
		return nil, errors.New("directory down")
	}
	return d.memberships, nil
}

func (d directory) ForOrganization(_ context.Context, orgID uuid.UUID) (tenants.Scope, error) {
	return tenants.Scope{OrgID: orgID}, nil
}

// Require answers from the membership first: Keto's answer counts only for an organisation the user is an active
// member of, whether the organisation is named (Keto asked while the directory answers) or the user's first.
func TestRequireNeedsMembershipAndPermit(t *testing.T) {
	gin.SetMode(gin.TestMode)
	own, other := uuid.New(), uuid.New()
	member := []tenants.Membership{{OrganizationID: own, Role: "operator"}}
	for _, tc := range []struct {
		name    string
		dir     directory
		granted []string
		header  string
		want    int
		body    string
	}{
		{name: "first organisation, permitted", dir: directory{memberships: member}, granted: []string{own.String() + " view"}, want: http.StatusNoContent},
		{name: "named organisation, permitted", dir: directory{memberships: member}, granted: []string{own.String() + " view"}, header: own.String(), want: http.StatusNoContent},
		{name: "member without the permit", dir: directory{memberships: member}, granted: []string{own.String() + " edit_campaigns"}, header: own.String(), want: http.StatusForbidden, body: `"forbidden"`},
		{name: "first organisation without the permit", dir: directory{memberships: member}, want: http.StatusForbidden, body: `"forbidden"`},
		// Keto granting another tenant's organisation (a stale relation) does not open it: no membership, no access.
		{name: "another tenant's organisation", dir: directory{memberships: member}, granted: []string{other.String() + " view"}, header: other.String(), want: http.StatusNotFound, body: `"not_found"`},
		{name: "membership revoked, another kept", dir: directory{memberships: []tenants.Membership{{OrganizationID: other}}}, granted: []string{own.String() + " view"}, header: own.String(), want: http.StatusNotFound, body: `"not_found"`},
		{name: "last membership revoked", dir: directory{}, granted: []string{own.String() + " view"}, header: own.String(), want: http.StatusForbidden, body: `"forbidden"`},
		{name: "another spelling of the id", dir: directory{memberships: member}, granted: []string{own.String() + " view"}, header: strings.ToUpper(own.String()), want: http.StatusNotFound, body: `"not_found"`},
		{name: "directory down", dir: directory{memberships: member, failing: true}, granted: []string{own.String() + " view"}, header: own.String(), want: http.StatusInternalServerError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := keto{}
			for _, g := range tc.granted {
				k[g] = true
			}
			a := New(signedIn{ID: uuid.New(), EmailVerified: true}, k, tc.dir)
			r := gin.New()
			r.GET("/x", a.Authenticate(), a.Require(View), func(c *gin.Context) {
				if s, err := Scope(c.Request.Context()); err != nil || s.OrgID != own || Organization(c).OrganizationID != own {
					t.Errorf("scope %+v (%v), organisation %+v", s, err, Organization(c))
				}
				c.Status(http.StatusNoContent)
			})
			req := httptest.NewRequest(http.MethodGet, "/x", nil)
			req.Header.Set("Cookie", "session=x")
			if tc.header != "" {
				req.Header.Set(OrganizationHeader, tc.header)
			}
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			if w.Code != tc.want || !strings.Contains(w.Body.String(), tc.body) {
				t.Fatalf("%d %s, want %d %s", w.Code, w.Body, tc.want, tc.body)
			}
		})
	}
}
