package endpoint_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/tenants"
)

type renameRequest struct {
	ID    uuid.UUID `path:"id" json:"-"`
	Page  *int      `query:"page" json:"-"`
	Trace string    `header:"X-Trace" json:"-"`
	Name  string    `json:"name"`
	Fails string    `json:"fails"`
}

func (r *renameRequest) Validate() error {
	if r.Name == "" {
		return apierror.Validation(map[string]string{"name": "validation_failed"})
	}
	return nil
}

type renamed struct {
	ID    uuid.UUID `json:"id"`
	Page  *int      `json:"page"`
	Trace string    `json:"trace,omitempty"`
	Name  string    `json:"name"`
}

func (renamed) StatusCode() int { return http.StatusCreated }

// rename answers what it was given, or the database error its "fails" field names.
func rename(_ context.Context, r *renameRequest) (*renamed, error) {
	switch r.Fails {
	case "none":
		return nil, dberr.Map(pgx.ErrNoRows)
	case "unique":
		return nil, dberr.Map(&pgconn.PgError{Code: "23505", ConstraintName: "campaigns_slug_key"})
	case "check":
		return nil, dberr.Map(&pgconn.PgError{Code: "23514", ConstraintName: "amount_positive"})
	case "empty":
		return nil, nil
	}
	return &renamed{ID: r.ID, Page: r.Page, Trace: r.Trace, Name: r.Name}, nil
}

func serve(t *testing.T, method, target, body string, headers ...string) (int, map[string]any) {
	t.Helper()
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(middleware.Locale())
	r.POST("/things/:id", endpoint.Handle(rename))
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	var out map[string]any
	if w.Body.Len() > 0 {
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &out), w.Body.String())
	}
	return w.Code, out
}

func TestHandleBindsPathQueryAndBody(t *testing.T) {
	id := uuid.New()
	st, out := serve(t, http.MethodPost, fmt.Sprintf("/things/%s?page=3", id), `{"name":"Ana"}`)
	require.Equal(t, http.StatusCreated, st, out)
	require.Equal(t, map[string]any{"id": id.String(), "page": float64(3), "name": "Ana"}, out)
}

func TestHandleBindsHeaders(t *testing.T) {
	id := uuid.New()
	st, out := serve(t, http.MethodPost, "/things/"+id.String(), `{"name":"Ana"}`, "X-Trace", "t=1,v1=ab")
	require.Equal(t, http.StatusCreated, st, out)
	require.Equal(t, "t=1,v1=ab", out["trace"])
	// Nor can a body set what a header carries.
	st, out = serve(t, http.MethodPost, "/things/"+id.String(), `{"name":"Ana","Trace":"forged"}`)
	require.Equal(t, http.StatusBadRequest, st, out)
}

// The id in the URL is the one the permission was checked on: a body naming another is refused.
func TestHandleBodyCannotNamePathOrQueryFields(t *testing.T) {
	id, other := uuid.New(), uuid.New()
	for _, body := range []string{fmt.Sprintf(`{"name":"Ana","ID":%q}`, other), `{"name":"Ana","Page":9}`} {
		st, out := serve(t, http.MethodPost, "/things/"+id.String(), body)
		require.Equal(t, http.StatusBadRequest, st, out)
	}
}

func TestHandleRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, target, body string
		status             int
		code               string
	}{
		{"path id", "/things/not-a-uuid", `{"name":"Ana"}`, http.StatusBadRequest, "invalid_id"},
		{"query type", "/things/" + uuid.NewString() + "?page=x", `{"name":"Ana"}`, http.StatusUnprocessableEntity, "validation_failed"},
		{"unknown field", "/things/" + uuid.NewString(), `{"name":"Ana","nmae":"x"}`, http.StatusBadRequest, "malformed_json"},
		{"validation", "/things/" + uuid.NewString(), `{"name":""}`, http.StatusUnprocessableEntity, "validation_failed"},
		{"no rows", "/things/" + uuid.NewString(), `{"name":"Ana","fails":"none"}`, http.StatusNotFound, "not_found"},
		{"unique", "/things/" + uuid.NewString(), `{"name":"Ana","fails":"unique"}`, http.StatusConflict, "request.conflict"},
		{"check", "/things/" + uuid.NewString(), `{"name":"Ana","fails":"check"}`, http.StatusUnprocessableEntity, "validation_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, out := serve(t, http.MethodPost, tc.target, tc.body)
			require.Equal(t, tc.status, st, out)
			require.Equal(t, tc.code, out["error"].(map[string]any)["code"])
			require.NotEmpty(t, out["error"].(map[string]any)["message"])
		})
	}
}

func TestHandleNilResponseIsNoContent(t *testing.T) {
	st, _ := serve(t, http.MethodPost, "/things/"+uuid.NewString(), `{"name":"Ana","fails":"empty"}`)
	require.Equal(t, http.StatusNoContent, st)
}

func TestHandleRefusesUnbindableFieldsAtMount(t *testing.T) {
	type bad struct {
		IDs []float64 `query:"ids"`
	}
	require.Panics(t, func() {
		endpoint.Handle(func(context.Context, *bad) (*renamed, error) { return nil, nil })
	})
}

// A scoped endpoint gets the scope the permission middleware stored; mounted without one it
// answers an internal error and does not run.
func TestHandleScopedPassesTheRequestsScope(t *testing.T) {
	gin.SetMode(gin.TestMode)
	org := uuid.New()
	var ran []uuid.UUID
	whose := endpoint.HandleScoped(func(_ context.Context, scope tenants.Scope, _ *struct{}) (*renamed, error) {
		ran = append(ran, scope.OrgID)
		return &renamed{ID: scope.OrgID}, nil
	})
	r := gin.New()
	r.Use(middleware.Locale())
	r.GET("/scoped", func(c *gin.Context) {
		c.Request = c.Request.WithContext(tenants.WithScope(c.Request.Context(), tenants.Scope{OrgID: org}))
	}, whose)
	r.GET("/unscoped", whose)

	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/scoped", nil))
	require.Equal(t, http.StatusCreated, w.Code, w.Body.String())
	require.Contains(t, w.Body.String(), org.String())
	w = httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/unscoped", nil))
	require.Equal(t, http.StatusInternalServerError, w.Code, w.Body.String())
	require.Equal(t, []uuid.UUID{org}, ran)
}
