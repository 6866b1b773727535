package campaign_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/blob"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// The manage routes run behind the real authz middleware with stand-ins for its collaborators: the
// session of the Cookie "org=<uuid>" is a user who is a member of that organisation, with every
// permit. (The session and Keto checks themselves are authz's, tested there.)
type testSessions struct{}

func (testSessions) FromCookie(_ context.Context, cookie string) (identity.User, error) {
	id, err := uuid.Parse(strings.TrimPrefix(cookie, "org="))
	if err != nil {
		return identity.User{}, identity.ErrNoSession
	}
	return identity.User{ID: id, EmailVerified: true}, nil
}

type allowAll struct{}

func (allowAll) Check(context.Context, string, string, string, string) (bool, error) {
	return true, nil
}

// ownOrganization makes each test user the only member of the organisation with its id.
type ownOrganization struct{ *tenants.Tenants }

func (ownOrganization) MembershipsOf(_ context.Context, userID uuid.UUID) ([]tenants.Membership, error) {
	return []tenants.Membership{{OrganizationID: userID}}, nil
}

// newManage serves the campaign routes in process on the stack's tenants.
func newManage(t *testing.T) (*tenants.Tenants, *httptest.Server) {
	t.Helper()
	tt := tenantstest.Open(t)
	return tt, serve(t, tt, campaign.NewService(tt))
}

// serve is one API process on tt's databases, with svc (campaign.NewService(tt)) as its campaigns.
func serve(t *testing.T, tt *tenants.Tenants, svc *campaign.Service) *httptest.Server {
	t.Helper()
	bucket, err := blob.Open(context.Background(), "mem://")
	require.NoError(t, err)
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	az := authz.New(testSessions{}, allowAll{}, ownOrganization{tt})
	campaign.NewHandler(svc, campaign.Options{Covers: bucket, PublicURL: "https://aporta.test"}).Mount(endpoint.Groups{
		Public: r.Group("/"), Manage: r.Group("/manage/api", az.Authenticate()), Authz: az,
		Upload: func(prefix string, limit gin.HandlerFunc) *gin.RouterGroup {
			return r.Group(prefix, limit, az.Authenticate())
		},
	})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

func newOrg(t *testing.T, tt *tenants.Tenants, status, plan string) uuid.UUID {
	t.Helper()
	return tenantstest.ArgentineOrganization(t, tt, "Org", status, plan).OrgID
}

func call(t *testing.T, method, url string, org uuid.UUID, body any) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, r)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", "org="+org.String())
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func message(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	m, _ := e["message"].(string)
	return m
}

func TestManageCampaignLifecycle(t *testing.T) {
	t.Parallel()
	tt, srv := newManage(t)
	org := newOrg(t, tt, "enabled", "essential_monthly")
	other := newOrg(t, tt, "enabled", "essential_monthly")

	st, out := call(t, "POST", srv.URL+"/manage/api/campaigns", org, map[string]any{
		"title": "Ayudá a los chicos", "type": "tickets", "amounts": []any{map[string]any{"amount": "1500", "label": "Entrada"}},
		"instalments": 6, "form_color": "#00aa44", "immediate_charge": true,
		"periodic_increase": map[string]any{"enabled": true, "percentage": 10, "period_months": 12, "min_percentage": 5, "max_percentage": 20},
		"analytics":         map[string]any{"pixel_id": "px1"},
		"thanks":            map[string]any{"instant": "Gracias {nombre}", "email": "Hola {nombre}, recibimos {monto}"},
		"event": map[string]any{"category": "música", "format": "physical", "starts_at": "2027-01-10T20:00:00Z",
			"tickets": []any{map[string]any{"name": "General", "quantity": nil}, map[string]any{"name": "VIP", "quantity": 50}}},
		"form_fields": []any{map[string]any{"type": "birthday", "label": "Cumpleaños", "required": true}},
	})
	require.Equal(t, http.StatusCreated, st, out)
	id, slug := out["uuid"].(string), out["slug"].(string)
	require.True(t, strings.HasPrefix(slug, "ayuda-a-los-chicos"), slug) // a suffix is added when the slug is taken
	require.Equal(t, map[string]any{"amount": map[string]any{"minor": float64(150000), "currency": "ARS", "decimal": "1500.00", "formatted": "$ 1.500,00"},
		"label": "Entrada"}, out["amounts"].([]any)[0])
	require.Equal(t, false, out["published"])

	// PATCH changes only what it sends.
	st, out = call(t, "PATCH", srv.URL+"/manage/api/campaigns/"+id, org, map[string]any{"description": "Nueva"})
	require.Equal(t, http.StatusOK, st, out)
	require.Equal(t, "Nueva", out["description"])
	require.Equal(t, "#00aa44", out["form_color"])

	st, out = call(t, "PATCH", srv.URL+"/manage/api/campaigns/"+id, org, map[string]any{"form_color": "#zzz"})
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, "Color hexadecimal invalido", message(out))

	st, out = call(t, "PATCH", srv.URL+"/manage/api/campaigns/"+id, org, map[string]any{"periodic_increase": map[string]any{"enabled": true, "percentage": 30, "period_months": 12, "min_percentage": 5, "max_percentage": 20}})
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, "El monto debe ser un valor entre 5% y 20%", message(out))

	// Form fields, reordered.
	st, out = call(t, "PUT", srv.URL+"/manage/api/campaigns/"+id+"/form_fields", org, map[string]any{"form_fields": []any{
		map[string]any{"type": "textfield", "label": "Profesión"}, map[string]any{"type": "birthday", "label": "Cumpleaños", "width": "half"}}})
	require.Equal(t, http.StatusOK, st, out)
	ff := out["form_fields"].([]any)
	require.Equal(t, "textfield", ff[0].(map[string]any)["type"])
	require.EqualValues(t, 1, ff[1].(map[string]any)["order"])

	// Another organisation's campaign is not found on any manage route.
	for _, r := range []struct{ method, path string }{{"GET", ""}, {"PATCH", ""}, {"POST", "/publish"}, {"GET", "/qr"}} {
		st, _ = call(t, r.method, srv.URL+"/manage/api/campaigns/"+id+r.path, other, map[string]any{})
		require.Equal(t, http.StatusNotFound, st, r)
	}

	// Publish, list, QR.
	st, out = call(t, "POST", srv.URL+"/manage/api/campaigns/"+id+"/publish", org, nil)
	require.Equal(t, http.StatusOK, st, out)
	require.Equal(t, true, out["published"])
	st, out = call(t, "GET", srv.URL+"/manage/api/campaigns", org, nil)
	require.Equal(t, http.StatusOK, st)
	require.EqualValues(t, 1, out["total"])
	st, out = call(t, "GET", srv.URL+"/manage/api/campaigns/"+id+"/qr", org, nil)
	require.Equal(t, http.StatusOK, st, out)
	png, err := base64.StdEncoding.DecodeString(out["base64_png"].(string))
	require.NoError(t, err)
	require.Equal(t, "image/png", http.DetectContentType(png))
	svg, err := base64.StdEncoding.DecodeString(out["base64_svg"].(string))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(svg), "<svg"))
	require.Equal(t, "qr-"+slug, out["filename"])

	// Cover: an image by content, under 5 MB.
	gif := []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
	req, _ := http.NewRequest("POST", srv.URL+"/manage/api/campaigns/"+id+"/cover", bytes.NewReader(gif))
	req.Header.Set("Content-Type", "image/gif")
	req.Header.Set("Cookie", "org="+org.String())
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	req, _ = http.NewRequest("POST", srv.URL+"/manage/api/campaigns/"+id+"/cover", strings.NewReader("not an image"))
	req.Header.Set("Cookie", "org="+org.String())
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
	res, err = http.Get(srv.URL + "/api/public/campaigns/" + slug + "/cover")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, "image/gif", res.Header.Get("Content-Type"))

	st, out = call(t, "POST", srv.URL+"/manage/api/campaigns/"+id+"/unpublish", org, nil)
	require.Equal(t, http.StatusOK, st)
	require.Equal(t, false, out["published"])
}

// The public read keeps its answer between reads. An edit, an unpublish or a publish shows at once
// in the process that made it, and in another process (two servers on the same databases, as two
// `serve`s run) once campaign.PublicRecheck has passed there; so does a change no API call made.
func TestPublicReadSeesChangesFromOtherProcesses(t *testing.T) {
	t.Parallel()
	tt, a := newManage(t)
	var elapsed atomic.Int64 // b's clock, stepped by the test
	start := time.Now()
	other := campaign.NewService(tt)
	other.Now = func() time.Time { return start.Add(time.Duration(elapsed.Load())) }
	b := serve(t, tt, other)
	later := func() { elapsed.Add(int64(campaign.PublicRecheck)) }
	org := newOrg(t, tt, "enabled", "essential_monthly")
	st, out := call(t, "POST", a.URL+"/manage/api/campaigns", org, map[string]any{"title": "Primera versión", "type": "fundraise",
		"amounts": []any{map[string]any{"amount": "1500"}}})
	require.Equal(t, http.StatusCreated, st, out)
	id, slug := out["uuid"].(string), out["slug"].(string)
	public := func(srv *httptest.Server) (int, map[string]any) {
		return call(t, "GET", srv.URL+"/api/public/campaigns/"+slug, uuid.Nil, nil)
	}
	st, _ = public(b)
	require.Equal(t, http.StatusNotFound, st, "unpublished")

	st, out = call(t, "POST", a.URL+"/manage/api/campaigns/"+id+"/publish", org, nil)
	require.Equal(t, http.StatusOK, st, out)
	for _, srv := range []*httptest.Server{a, b, a, b} { // the second reads are the kept answers
		st, out = public(srv)
		require.Equal(t, http.StatusOK, st, out)
		require.Equal(t, "Primera versión", out["title"])
		require.Equal(t, "gateway_missing", out["closed_reason"])
	}

	st, out = call(t, "PATCH", a.URL+"/manage/api/campaigns/"+id, org, map[string]any{"title": "Segunda versión", "form_color": "#112233"})
	require.Equal(t, http.StatusOK, st, out)
	st, out = public(a)
	require.Equal(t, http.StatusOK, st, out)
	require.Equal(t, "Segunda versión", out["title"], "the editing process")
	st, out = public(b)
	require.Equal(t, http.StatusOK, st, out)
	require.Equal(t, "Primera versión", out["title"], "the other process, within PublicRecheck")
	later()
	st, out = public(b)
	require.Equal(t, http.StatusOK, st, out)
	require.Equal(t, "Segunda versión", out["title"])
	require.Equal(t, "#112233", out["form_color"])

	// The organisation's own row is part of the form too, changed here by no API call.
	scope, err := tt.ForOrganization(context.Background(), org)
	require.NoError(t, err)
	require.NoError(t, scope.Exec(context.Background(), "UPDATE organizations SET name = 'Otro nombre' WHERE organization_id = $1", org))
	later()
	st, out = public(b)
	require.Equal(t, http.StatusOK, st, out)
	require.Equal(t, "Otro nombre", out["organization_name"])

	st, out = call(t, "POST", a.URL+"/manage/api/campaigns/"+id+"/unpublish", org, nil)
	require.Equal(t, http.StatusOK, st, out)
	st, _ = public(a)
	require.Equal(t, http.StatusNotFound, st, "unpublished by this process")
	later()
	st, _ = public(b)
	require.Equal(t, http.StatusNotFound, st, "unpublished by the other process")
	st, _ = call(t, "POST", a.URL+"/manage/api/campaigns/"+id+"/publish", org, nil)
	require.Equal(t, http.StatusOK, st)
	for _, srv := range []*httptest.Server{a, b} { // b kept nothing while unpublished
		st, out = public(srv)
		require.Equal(t, http.StatusOK, st, out)
		require.Equal(t, "Segunda versión", out["title"])
	}
}

func TestPlanAndAccountGates(t *testing.T) {
	t.Parallel()
	tt, srv := newManage(t)
	original := newOrg(t, tt, "enabled", "original")
	onboarding := newOrg(t, tt, "onboarding", "essential_monthly")

	st, out := call(t, "POST", srv.URL+"/manage/api/campaigns", original, map[string]any{"title": "Con cobro inmediato", "immediate_charge": true})
	require.Equal(t, http.StatusForbidden, st)
	require.Contains(t, message(out), "plan")

	st, out = call(t, "POST", srv.URL+"/manage/api/campaigns", original, map[string]any{"title": "Original", "amounts": []any{map[string]any{"amount": "100"}}})
	require.Equal(t, http.StatusCreated, st, out)
	st, out = call(t, "GET", srv.URL+"/manage/api/campaigns/"+out["uuid"].(string)+"/qr", original, nil)
	require.Equal(t, http.StatusForbidden, st)
	require.Equal(t, "La descarga del código QR no está incluida en el plan Original. Elige un plan en /pricing para usarla.", message(out))

	st, out = call(t, "POST", srv.URL+"/manage/api/campaigns", onboarding, map[string]any{"title": "Sin montos"})
	require.Equal(t, http.StatusCreated, st, out)
	id := out["uuid"].(string)
	st, out = call(t, "POST", srv.URL+"/manage/api/campaigns/"+id+"/publish", onboarding, nil)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Contains(t, out["error"].(map[string]any)["fields"], "amounts")
	st, _ = call(t, "PATCH", srv.URL+"/manage/api/campaigns/"+id, onboarding, map[string]any{"amounts": []any{map[string]any{"amount": "100"}}})
	require.Equal(t, http.StatusOK, st)
	st, out = call(t, "POST", srv.URL+"/manage/api/campaigns/"+id+"/publish", onboarding, nil)
	require.Equal(t, http.StatusConflict, st)
	require.Equal(t, "Tu cuenta aún no está activada: completa la verificación de la organización para publicar campañas.", message(out))
}

// TestAllowedByPlanReadsTheEffectivePlan: an organisation in its 90-day Essential trial still holds
// plan_code 'original', yet its effective plan is Essential, so QR and immediate charge are allowed;
// once the trial ended without a plan (restricted), both are refused.
func TestAllowedByPlanReadsTheEffectivePlan(t *testing.T) {
	t.Parallel()
	tt, srv := newManage(t)
	ctx := context.Background()
	withSubscription := func(status string) uuid.UUID {
		scope := tenantstest.ArgentineOrganization(t, tt, "Org", "enabled", "original")
		require.NoError(t, scope.Exec(ctx, `UPDATE organizations SET subscription_status = $2,
			trial_started_at = now() - interval '10 days', trial_ends_at = now() + interval '80 days' WHERE organization_id = $1`,
			scope.OrgID, status))
		return scope.OrgID
	}
	trial, restricted := withSubscription("trial"), withSubscription("restricted")

	st, out := call(t, "POST", srv.URL+"/manage/api/campaigns", trial, map[string]any{"title": "En prueba", "immediate_charge": true})
	require.Equal(t, http.StatusCreated, st, out)
	require.Equal(t, true, out["immediate_charge"])
	st, out = call(t, "GET", srv.URL+"/manage/api/campaigns/"+out["uuid"].(string)+"/qr", trial, nil)
	require.Equal(t, http.StatusOK, st, out)
	require.NotEmpty(t, out["base64_png"])

	st, out = call(t, "POST", srv.URL+"/manage/api/campaigns", restricted, map[string]any{"title": "Restringida", "immediate_charge": true})
	require.Equal(t, http.StatusForbidden, st, out)
	require.Equal(t, "campaign.plan_required", out["error"].(map[string]any)["code"])
	st, out = call(t, "POST", srv.URL+"/manage/api/campaigns", restricted, map[string]any{"title": "Restringida"})
	require.Equal(t, http.StatusCreated, st, out)
	st, out = call(t, "GET", srv.URL+"/manage/api/campaigns/"+out["uuid"].(string)+"/qr", restricted, nil)
	require.Equal(t, http.StatusForbidden, st, out)
	require.Equal(t, "campaign.qr_plan_required", out["error"].(map[string]any)["code"])
}
