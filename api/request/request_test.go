package request_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/api/request"
)

type payload struct {
	Name   string `json:"name"`
	Amount int    `json:"amount"`
}

func router() *gin.Engine {
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(middleware.Locale(), middleware.BodyLimit(64))
	r.POST("/p", func(c *gin.Context) {
		var p payload
		if err := request.JSON(c, &p); err != nil {
			apierror.Abort(c, err)
			return
		}
		c.JSON(http.StatusOK, p)
	})
	return r
}

func TestJSONDecoding(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body, contentType, lang string
		status                        int
		code, message                 string
	}{
		{"valid", `{"name":"Ana","amount":10}`, "application/json", "es", 200, "", ""},
		{"malformed", `{"name":`, "application/json", "es", 400, "malformed_json", "El cuerpo de la solicitud no es un JSON válido."},
		{"malformed in English", `{"name":`, "application/json", "en", 400, "malformed_json", "The request body is not valid JSON."},
		{"trailing data", `{"name":"Ana"} {}`, "application/json", "es", 400, "malformed_json", ""},
		{"wrong type", `{"amount":"ten"}`, "application/json", "es", 422, "validation_failed", ""},
		{"unknown field", `{"nmae":"Ana"}`, "application/json", "es", 400, "malformed_json", ""},
		{"wrong content type", `name=Ana`, "application/x-www-form-urlencoded", "es", 415, "unsupported_media", ""},
		{"too large", `{"name":"` + strings.Repeat("a", 100) + `"}`, "application/json", "pt", 413, "body_too_large", "A solicitação é grande demais (máximo 64 B)."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(http.MethodPost, "/p?locale="+tc.lang, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", tc.contentType)
			w := httptest.NewRecorder()
			router().ServeHTTP(w, req)
			require.Equal(t, tc.status, w.Code, w.Body.String())
			if tc.code == "" {
				return
			}
			var env struct {
				Error struct {
					Code    string            `json:"code"`
					Message string            `json:"message"`
					Fields  map[string]string `json:"fields"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &env))
			require.Equal(t, tc.code, env.Error.Code)
			require.NotEmpty(t, env.Error.Message)
			if tc.message != "" {
				require.Equal(t, tc.message, env.Error.Message)
			}
			if tc.name == "wrong type" {
				require.Equal(t, "El valor no tiene el tipo esperado.", env.Error.Fields["amount"])
			}
		})
	}
}
