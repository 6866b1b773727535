package middleware

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// The donation page alone may load a campaign's analytics (after the donor's consent): its policy
// adds their origins to script, connect and image sources, and every other page keeps the strict one.
func TestDonationPagePolicy(t *testing.T) {
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(SecurityHeaders([]string{"http://127.0.0.1:18090"}, "http://127.0.0.1:18090/authorization", false))
	r.GET("/*any", func(c *gin.Context) { c.Status(http.StatusOK) })
	policy := func(path string) map[string]string {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		out := map[string]string{}
		for _, d := range strings.Split(w.Header().Get("Content-Security-Policy"), "; ") {
			name, sources, _ := strings.Cut(d, " ")
			out[name] = sources
		}
		return out
	}
	donate, manage := policy("/d/dona-demo"), policy("/manage/campaigns")
	for _, origin := range []string{"https://www.googletagmanager.com", "https://connect.facebook.net"} {
		if !strings.Contains(donate["script-src"], origin) || strings.Contains(manage["script-src"], origin) {
			t.Errorf("script-src: donate %q, manage %q", donate["script-src"], manage["script-src"])
		}
	}
	if !strings.Contains(donate["connect-src"], "https://www.google-analytics.com") || !strings.Contains(donate["connect-src"], "http://127.0.0.1:18090") {
		t.Errorf("donate connect-src %q", donate["connect-src"])
	}
	if manage["script-src"] != "'self'" || strings.Contains(donate["script-src"], "unsafe") || donate["frame-ancestors"] != "'none'" {
		t.Errorf("policies: donate %v, manage %v", donate, manage)
	}
}
