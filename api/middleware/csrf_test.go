package middleware

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"
)

func TestCSRF(t *testing.T) {
	t.Parallel()
	gin.SetMode(gin.TestMode)
	x := NewCSRF([]byte("0123456789abcdef0123456789abcdef"), false)
	other := NewCSRF([]byte("another-secret-another-secret-xx"), false)
	r := gin.New()
	r.Use(Locale())
	var issued string
	r.GET("/page", func(c *gin.Context) { issued = x.Token(c); c.Status(http.StatusOK) })
	r.POST("/act", x.Require(), func(c *gin.Context) { c.Status(http.StatusNoContent) })
	r.GET("/act", x.Require(), func(c *gin.Context) { c.Status(http.StatusNoContent) })

	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/page", nil))
	cookie := w.Result().Cookies()[0]
	require.Equal(t, csrfCookie, cookie.Name)
	require.True(t, cookie.HttpOnly)
	require.Equal(t, issued, cookie.Value)

	forged := "00000000000000000000000000000000." + other.sign("00000000000000000000000000000000")
	cases := []struct {
		name, method, cookie, header string
		status                       int
	}{
		{"matching token", http.MethodPost, issued, issued, http.StatusNoContent},
		{"safe method needs none", http.MethodGet, "", "", http.StatusNoContent},
		{"no header", http.MethodPost, issued, "", http.StatusForbidden},
		{"no cookie", http.MethodPost, "", issued, http.StatusForbidden},
		{"header differs", http.MethodPost, issued, issued + "x", http.StatusForbidden},
		{"signed with another secret", http.MethodPost, forged, forged, http.StatusForbidden},
	}
	for _, tc := range cases {
		req := httptest.NewRequest(tc.method, "/act", nil)
		if tc.cookie != "" {
			req.AddCookie(&http.Cookie{Name: csrfCookie, Value: tc.cookie})
		}
		if tc.header != "" {
			req.Header.Set(CSRFHeader, tc.header)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		require.Equal(t, tc.status, w.Code, tc.name)
	}

	// A valid cookie is reused, not replaced, when the page is loaded again.
	req := httptest.NewRequest(http.MethodGet, "/page", nil)
	req.AddCookie(&http.Cookie{Name: csrfCookie, Value: issued})
	w = httptest.NewRecorder()
	previous := issued
	r.ServeHTTP(w, req)
	require.Equal(t, previous, issued)
	require.Empty(t, w.Result().Cookies())
}
