package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// newServer builds the real router against the test stack, in process.
func newServer(t *testing.T) (*httptest.Server, *tenants.Tenants) {
	t.Helper()
	tt := tenantstest.Open(t)
	return apitest.Router(t, tenantstest.Config(t), tt), tt
}

type envelope struct {
	Error struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		RequestID string `json:"request_id"`
	} `json:"error"`
}

func get(t *testing.T, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, b
}

func TestReadyzReportsEveryDependency(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, body := get(t, srv.URL+"/readyz")
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	var out struct {
		Status string `json:"status"`
		Checks []struct {
			Name string `json:"name"`
			OK   bool   `json:"ok"`
		} `json:"checks"`
	}
	require.NoError(t, json.Unmarshal(body, &out))
	require.Equal(t, "ok", out.Status)
	names := []string{}
	for _, c := range out.Checks {
		require.True(t, c.OK, c.Name)
		names = append(names, c.Name)
	}
	require.ElementsMatch(t, []string{"directory", "temporal", "kratos", "keto",
		"shard_ar", "shard_br", "shard_cl", "shard_co", "shard_mx", "shard_pe", "shard_uy"}, names)

	res, _ = get(t, srv.URL+"/healthz")
	require.Equal(t, http.StatusOK, res.StatusCode)
}

func TestErrorsAreJSONInTheRequestLanguage(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)

	res, body := get(t, srv.URL+"/manage/api/nothing-here")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	var e envelope
	require.NoError(t, json.Unmarshal(body, &e))
	require.Equal(t, "not_found", e.Error.Code)
	require.Equal(t, "No encontramos lo que buscas.", e.Error.Message)
	require.Equal(t, res.Header.Get("X-Request-Id"), e.Error.RequestID)
	require.NotEmpty(t, e.Error.RequestID)

	res, body = get(t, srv.URL+"/api/public/campaigns/does-not-exist", "Accept-Language", "pt-BR")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.NoError(t, json.Unmarshal(body, &e))
	require.Equal(t, "Não encontramos o que você procura.", e.Error.Message)

	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/readyz?locale=en", strings.NewReader("{}"))
	r, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, r.StatusCode)
	require.NoError(t, json.Unmarshal(b, &e))
	require.Equal(t, "Method not allowed for this path.", e.Error.Message)
}

func TestPageCarriesCSRFTokenAndAppRoutesFallBackToIt(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	for path, status := range map[string]int{
		"/": http.StatusOK, "/manage/dashboard": http.StatusOK, "/manage/campaigns/" + uuid.NewString(): http.StatusOK,
		"/d/some-campaign": http.StatusNotFound, "/no-such-page": http.StatusNotFound, "/manage/dashboard/extra": http.StatusNotFound,
	} {
		res, body := get(t, srv.URL+path)
		require.Equal(t, status, res.StatusCode, path)
		require.Contains(t, string(body), `<meta name="csrf-token" content="`, path)
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	}
	res, _ := get(t, srv.URL+"/assets/missing-file.js")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
}

func TestKratosPublicAPIIsOnOurOrigin(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, body := get(t, srv.URL+"/.ory/kratos/public/self-service/login/browser", "Accept", "application/json")
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.Contains(t, string(body), `"ui"`)
}

func TestPublicCampaignIsReadFromItsShard(t *testing.T) {
	t.Parallel()
	srv, tt := newServer(t)
	ctx := context.Background()
	org := tenants.Organization{ID: uuid.New(), Name: "Instituto Esperança", Country: "BR"}
	scope := tenantstest.Organization(t, tt, org, "")
	// Rows written directly, so this test checks routing, not the campaign package's validation.
	addCampaign := func(slug, title string, published bool) {
		id := uuid.New()
		require.NoError(t, scope.Exec(ctx, `INSERT INTO campaigns (organization_id, id, slug, title, type, currency, published)
			VALUES ($1, $2, $3, $4, 'fundraise', 'BRL', $5)`, org.ID, id, slug, title, published))
		require.NoError(t, tt.AddPublicRoute(ctx, slug, tenants.Route{CampaignID: id, OrganizationID: org.ID, Country: "BR"}))
	}
	slug := "esperanca-" + uuid.NewString()[:8]
	addCampaign(slug, "Doe agora", true)

	res, body := get(t, srv.URL+"/api/public/campaigns/"+slug)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	var p map[string]any
	require.NoError(t, json.Unmarshal(body, &p))
	require.Equal(t, "Doe agora", p["title"])
	require.Equal(t, "BRL", p["currency"])
	res, body = get(t, srv.URL+"/d/"+slug)
	require.Equal(t, http.StatusOK, res.StatusCode, "a published campaign's form page is live")
	require.Contains(t, string(body), `<meta name="csrf-token"`)

	unpublished := "rascunho-" + uuid.NewString()[:8]
	addCampaign(unpublished, "Rascunho", false)
	res, _ = get(t, srv.URL+"/api/public/campaigns/"+unpublished)
	require.Equal(t, http.StatusNotFound, res.StatusCode, "an unpublished campaign is not public")
	for _, path := range []string{"/d/" + unpublished, "/d/nope-" + uuid.NewString()[:8], "/d/nope/thanks?ref=x"} {
		res, body = get(t, srv.URL+path)
		require.Equal(t, http.StatusNotFound, res.StatusCode, "no published campaign has it: %s", path)
		require.Contains(t, string(body), `<meta name="csrf-token"`, "the donation app still answers, with its not-found message")
	}
}
