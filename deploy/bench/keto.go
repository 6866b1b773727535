package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
)

// signedIn is the session resolver of the authz case: the user the request is from, as Kratos
// would answer it (resolving the session is not part of a permission check).
type signedIn identity.User

func (u signedIn) FromCookie(context.Context, string) (identity.User, error) {
	return identity.User(u), nil
}

// askKeto is the Keto client with every check asked of Keto (identity.Keto.CheckNow): the layer's cost when
// the permission is not in this process's cache (the first request of a user in CacheTTL, any other replica).
type askKeto struct{ *identity.Keto }

func (k askKeto) Check(ctx context.Context, namespace, object, permit, userID string) (bool, error) {
	return k.CheckNow(ctx, namespace, object, permit, userID)
}

// ketoGoal is issue 19's goal for a permission check through the authz layer.
const ketoGoal = 10 * time.Millisecond

// benchKeto measures a permission check through our authz layer (issue 19): a request through
// authz.Authenticate and authz.Require(authz.View) as api/server.go mounts them (the user's
// memberships from the directory, the check against Keto's read API, the organisation's scope),
// served in process, beside the same check asked of Keto's own check endpoint over HTTP. The layer runs
// twice: asking Keto on every request (judged against the goal), and as a server answers a user's
// requests within identity.CacheTTL of the first (the permission kept by this process).
func benchKeto(ctx context.Context, cfg *config.Config, t *tenants.Tenants, clients int, d time.Duration) {
	org := tenants.Organization{ID: uuid.New(), Name: "Fundación Permisos", Country: "AR"}
	if err := t.CreateOrganization(ctx, org, ""); err != nil {
		log.Fatal(err)
	}
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	keto := identity.NewKeto(cfg.KetoRead, cfg.KetoWrite, hc)
	user := uuid.New()
	if err := t.AddMembership(ctx, user, org.ID, "administrator"); err != nil {
		log.Fatal(err)
	}
	if err := keto.Grant(ctx, identity.NamespaceOrganization, org.ID.String(), "administrators", user.String()); err != nil {
		log.Fatal(err)
	}
	gin.SetMode(gin.ReleaseMode)
	layer := func(checker authz.PermissionChecker) func() error {
		r := gin.New()
		az := authz.New(signedIn{ID: user, EmailVerified: true}, checker, t)
		r.GET("/check", az.Authenticate(), az.Require(authz.View), func(c *gin.Context) { c.Status(http.StatusNoContent) })
		return func() error {
			req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/check", nil)
			req.Header.Set(authz.OrganizationHeader, org.ID.String())
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			if w.Code != http.StatusNoContent {
				return fmt.Errorf("authz: %d %s", w.Code, w.Body)
			}
			return nil
		}
	}
	q := url.Values{"namespace": {identity.NamespaceOrganization}, "object": {org.ID.String()}, "relation": {authz.View},
		"subject_set.namespace": {identity.NamespaceUser}, "subject_set.object": {user.String()}, "subject_set.relation": {""}}
	check := cfg.KetoRead + "/relation-tuples/check/openapi?" + q.Encode()
	direct := func() error {
		res, err := hc.Get(check)
		if err != nil {
			return err
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("keto check: %d %s", res.StatusCode, b)
		}
		return nil
	}
	asked, ref := run(layer(askKeto{keto}), clients, d), run(direct, clients, d)
	compare("authz.Require(view), Keto asked", "Keto's check endpoint, same tuple", asked, ref)
	goal(fmt.Sprintf("p99 %s through the layer asking Keto < %s (Keto's endpoint alone: p99 %s)",
		asked.p99.Round(10*time.Microsecond), ketoGoal, ref.p99.Round(10*time.Microsecond)), asked.p99 < ketoGoal)
	cached := run(layer(keto), clients, d)
	compare("authz.Require(view), permission kept 5 s", "Keto's check endpoint, same tuple", cached, run(direct, clients, d))
}
