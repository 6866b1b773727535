package campaign_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// TestManageThroughARealSession drives the manage API as the web app does: a Kratos browser
// session, the page's CSRF token and the Keto permits of an organisation administrator.
func TestManageThroughARealSession(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	stranger := s.NewOrgAdmin(t, "AR")

	res := admin.JSON("POST", "/manage/api/campaigns", map[string]any{"title": "Sesión real", "amounts": []any{map[string]any{"amount": "700"}}})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var c struct {
		UUID string `json:"uuid"`
		Slug string `json:"slug"`
	}
	res.Decode(t, &c)

	// A new organisation is onboarding: publishing is refused with a clear message.
	res = admin.JSON("POST", "/manage/api/campaigns/"+c.UUID+"/publish", nil)
	require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
	require.Equal(t, "campaign.org_not_enabled", res.ErrorCode())

	// It is on the Original plan: no QR.
	res = admin.JSON("GET", "/manage/api/campaigns/"+c.UUID+"/qr", nil)
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "campaign.qr_plan_required", res.ErrorCode())

	tenantstest.SetStatus(t, s.Tenants, admin.OrgID, "enabled", "professional_monthly")
	res = admin.JSON("POST", "/manage/api/campaigns/"+c.UUID+"/publish", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res = admin.JSON("GET", "/manage/api/campaigns/"+c.UUID+"/qr", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))

	// Another organisation's administrator finds nothing.
	for _, p := range []string{"", "/qr"} {
		res = stranger.JSON("GET", "/manage/api/campaigns/"+c.UUID+p, nil)
		require.Equal(t, http.StatusNotFound, res.Status, p)
	}
	res = stranger.JSON("PATCH", "/manage/api/campaigns/"+c.UUID, map[string]any{"title": "x"})
	require.Equal(t, http.StatusNotFound, res.Status)
	res = stranger.JSON("GET", "/manage/api/campaigns", nil)
	require.Equal(t, http.StatusOK, res.Status)
	require.NotContains(t, string(res.Body), c.UUID)

	// A 2 MB cover passes the upload route's own body limit; 6 MB is refused.
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 2<<20)...)
	res = admin.Multipart("POST", "/manage/api/campaigns/"+c.UUID+"/cover", "cover", "cover.png", bytes.NewReader(png), nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	big := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 6<<20)...)
	res = admin.Multipart("POST", "/manage/api/campaigns/"+c.UUID+"/cover", "cover", "cover.png", bytes.NewReader(big), nil)
	require.Equal(t, http.StatusRequestEntityTooLarge, res.Status)

	// Without the CSRF token or the session, writes are refused.
	req, _ := http.NewRequest("POST", s.Server.URL+"/manage/api/campaigns", bytes.NewReader([]byte(`{"title":"x"}`)))
	req.Header.Set("Content-Type", "application/json")
	r2, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	r2.Body.Close()
	require.Contains(t, []int{http.StatusForbidden, http.StatusUnauthorized}, r2.StatusCode)
}
