package middleware

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/i18n"
)

// One language per request, read the same by apierror (gin handlers) and by Execute functions.
func TestLocaleReachesTheRequestContext(t *testing.T) {
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(Locale())
	var fromGin, fromCtx i18n.Lang
	r.GET("/", func(c *gin.Context) { fromGin, fromCtx = apierror.Lang(c), i18n.FromContext(c.Request.Context()) })
	req := httptest.NewRequest(http.MethodGet, "/?locale=pt", nil)
	r.ServeHTTP(httptest.NewRecorder(), req)
	require.Equal(t, i18n.PT, fromGin)
	require.Equal(t, i18n.PT, fromCtx)
}
