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

// benchKeto measures a permission check through our authz layer (issue 19): a request through
// authz.Authenticate and authz.Require(authz.View) as api/server.go mounts them (the user's
// memberships from the directory, the check against Keto's read API, the organisation's scope),
// served in process, beside the same check asked of Keto's own check endpoint over HTTP.
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
	r := gin.New()
	az := authz.New(signedIn{ID: user, EmailVerified: true}, keto, t)
	r.GET("/check", az.Authenticate(), az.Require(authz.View), func(c *gin.Context) { c.Status(http.StatusNoContent) })
	layer := func() error {
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/check", nil)
		req.Header.Set(authz.OrganizationHeader, org.ID.String())
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		if w.Code != http.StatusNoContent {
			return fmt.Errorf("authz: %d %s", w.Code, w.Body)
		}
		return nil
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
	compare("authz.Require(view): a Keto permission check", "Keto's check endpoint, same tuple",
		run(layer, clients, d), run(direct, clients, d))
}
