package account_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows"
)

type actor struct {
	name   string
	id     uuid.UUID
	cookie string
}

// member creates a verified identity with a role in an organisation and signs it in.
func member(t *testing.T, ctx context.Context, tt *tenants.Tenants, org uuid.UUID, role string) actor {
	t.Helper()
	cfg := tenantstest.Config(t)
	hc := &http.Client{Timeout: 10 * time.Second}
	k := identity.NewKratos(cfg.KratosAdmin, hc)
	email := fmt.Sprintf("%s-%d@perm.example.org", role, time.Now().UnixNano())
	id, err := k.CreateUser(ctx, identity.NewUser{Email: email, FirstName: "Perm", LastName: "Tester", Password: "Permisos-2026-X", Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := tt.AddMembership(ctx, id, org, role); err != nil {
		t.Fatal(err)
	}
	if err := identity.NewKeto(cfg.KetoRead, cfg.KetoWrite, hc).Grant(ctx, identity.NamespaceOrganization, org.String(), role+"s", id.String()); err != nil {
		t.Fatal(err)
	}
	jar := identity.NewJar("")
	if _, err := identity.NewFlows(cfg.KratosPublic, hc).Login(ctx, jar, email, "Permisos-2026-X"); err != nil {
		t.Fatal(err)
	}
	return actor{name: role, id: id, cookie: jar.Header()}
}

var param = regexp.MustCompile(`[:*][A-Za-z_]+`)

// TestPermissionMatrix walks every /manage/api and /account/api route with no session, another
// organisation's administrator and an operator of the first organisation.
func TestPermissionMatrix(t *testing.T) {
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	ctx := context.Background()
	orgA, orgB := uuid.New(), uuid.New()
	nameA := fmt.Sprintf("Organización Secreta %d", time.Now().UnixNano())
	for _, o := range []tenants.Organization{{ID: orgA, Name: nameA, Country: "AR"}, {ID: orgB, Name: "Otra Fundación", Country: "CL"}} {
		if err := tt.CreateOrganization(ctx, o, ""); err != nil {
			t.Fatal(err)
		}
	}
	adminA := member(t, ctx, tt, orgA, "administrator")
	adminB := member(t, ctx, tt, orgB, "administrator")
	operatorA := member(t, ctx, tt, orgA, "operator")

	tc, err := workflows.Dial(cfg, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	r, err := api.NewRouter(api.Deps{Config: cfg, Tenants: tt, Temporal: tc, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	csrf := newClient(t).csrf

	secrets := []string{nameA, orgA.String(), adminA.id.String()}
	// Routes an operator may use on its own organisation (reading, own account, own codes).
	operatorAllowed := regexp.MustCompile(`^/manage/api/(user|user/email_change|accounts/verifications/.*)$|^GET /manage/api/(campaigns|tours)`)
	routes := 0
	for _, rt := range r.Routes() {
		if !strings.HasPrefix(rt.Path, "/manage/api/") && !strings.HasPrefix(rt.Path, "/account/api/") {
			continue
		}
		routes++
		path := param.ReplaceAllStringFunc(rt.Path, func(p string) string {
			switch p {
			case ":type":
				return "email"
			case ":uuid", ":id", ":user":
				return adminA.id.String()
			}
			return orgA.String()
		})
		for _, who := range []actor{{name: "anonymous"}, adminB, operatorA} {
			req := httptest.NewRequest(rt.Method, path, strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-CSRF-Token", csrf)
			cookie := "aporta_csrf=" + csrf
			if who.cookie != "" {
				cookie += "; " + who.cookie
			}
			req.Header.Set("Cookie", cookie)
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			body := w.Body.String()
			switch who.name {
			case "anonymous":
				if w.Code != http.StatusUnauthorized {
					t.Errorf("%s %s anonymous: %d %s", rt.Method, path, w.Code, body)
				}
			case "administrator": // another organisation's administrator
				if w.Code/100 == 2 && !strings.HasPrefix(rt.Path, "/manage/api/user") && !strings.Contains(rt.Path, "verifications") && rt.Method != http.MethodGet {
					t.Errorf("%s %s other org admin passed: %d %s", rt.Method, path, w.Code, body)
				}
			case "operator":
				if w.Code/100 == 2 && !operatorAllowed.MatchString(rt.Path) && !operatorAllowed.MatchString(rt.Method+" "+rt.Path) && rt.Method != http.MethodGet {
					t.Errorf("%s %s operator passed: %d %s", rt.Method, path, w.Code, body)
				}
			}
			if who.name != "operator" {
				for _, s := range secrets {
					if strings.Contains(body, s) {
						t.Errorf("%s %s as %s leaks %q: %s", rt.Method, path, who.name, s, body)
					}
				}
			}
		}
	}
	if routes == 0 {
		t.Fatal("no manage routes found")
	}
	t.Logf("walked %d routes × 3 actors", routes)
}
