package middleware

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/request"
)

func TestRefuseCardData(t *testing.T) {
	t.Parallel()
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(Locale(), BodyLimit(256), RefuseCardData())
	r.POST("/echo", func(c *gin.Context) {
		var v map[string]any
		if err := request.JSON(c, &v); err != nil {
			c.AbortWithStatusJSON(http.StatusTeapot, gin.H{"err": err.Error()})
			return
		}
		c.JSON(http.StatusOK, v)
	})
	send := func(body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/echo?locale=en", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.ContentLength = -1 // streamed: the limit bites while the guard reads
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		return w
	}

	// A card number in a document field: refused, the field named, in the caller's language.
	w := send(`{"donor": {"uid_number": "4509 9535 6623 3704"}, "notes": "ok"}`)
	require.Equal(t, http.StatusUnprocessableEntity, w.Code)
	var e struct {
		Error struct {
			Code    string            `json:"code"`
			Message string            `json:"message"`
			Fields  map[string]string `json:"fields"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e))
	require.Equal(t, "card.data_refused", e.Error.Code)
	require.Contains(t, e.Error.Message, "For security")
	require.Equal(t, map[string]string{"donor.uid_number": "This looks like a card number: do not enter it here"}, e.Error.Fields)

	// A clean body reaches the handler whole.
	w = send(`{"donor": {"uid_number": "30123456"}}`)
	require.Equal(t, http.StatusOK, w.Code)
	require.JSONEq(t, `{"donor": {"uid_number": "30123456"}}`, w.Body.String())

	// A body over the limit reaches the handler with its error, which reports it as before.
	w = send(`{"notes": "` + strings.Repeat("a", 300) + `"}`)
	require.Equal(t, http.StatusTeapot, w.Code)
	require.Contains(t, w.Body.String(), "body_too_large")
}
