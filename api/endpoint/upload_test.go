package endpoint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/middleware"
)

type stored struct {
	Name, Note, Body string
}

func store(_ context.Context, f endpoint.File) (*stored, error) {
	b, err := io.ReadAll(f)
	return &stored{Name: f.Name, Note: f.Value("note"), Body: string(b)}, err
}

func invalidUpload(status int) *apierror.Error { return apierror.New(status, "upload.test_invalid") }

func postUpload(t *testing.T, body io.Reader, contentType string, length int64) (int, map[string]any) {
	t.Helper()
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(middleware.Locale())
	r.POST("/up", middleware.UploadLimit(1<<10, func() *apierror.Error { return invalidUpload(http.StatusRequestEntityTooLarge) }),
		endpoint.HandleUpload(endpoint.Upload{Field: "file", Status: http.StatusCreated, Invalid: invalidUpload}, store))
	req := httptest.NewRequest(http.MethodPost, "/up", body)
	req.Header.Set("Content-Type", contentType)
	req.ContentLength = length
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	var out map[string]any
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &out), w.Body.String())
	return w.Code, out
}

func form(t *testing.T, field, content string) (*bytes.Buffer, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	require.NoError(t, mw.WriteField("note", "hola"))
	fw, err := mw.CreateFormFile(field, "a.txt")
	require.NoError(t, err)
	_, _ = fw.Write([]byte(content))
	require.NoError(t, mw.Close())
	return &b, mw.FormDataContentType()
}

func TestHandleUploadPassesTheFileAndFormValues(t *testing.T) {
	b, ct := form(t, "file", "contenido")
	st, out := postUpload(t, b, ct, int64(b.Len()))
	require.Equal(t, http.StatusCreated, st, out)
	require.Equal(t, map[string]any{"Name": "a.txt", "Note": "hola", "Body": "contenido"}, out)
}

func TestHandleUploadRefusesWhatItCannotRead(t *testing.T) {
	b, ct := form(t, "other", "contenido")
	st, out := postUpload(t, b, ct, int64(b.Len()))
	require.Equal(t, http.StatusUnprocessableEntity, st, out)
	require.Equal(t, "validation_failed", out["error"].(map[string]any)["code"])
	require.Equal(t, map[string]any{"file": "Selecciona un archivo."}, out["error"].(map[string]any)["fields"])

	st, out = postUpload(t, strings.NewReader("not multipart"), "text/plain", 13)
	require.Equal(t, http.StatusBadRequest, st, out)
	require.Equal(t, "upload.test_invalid", out["error"].(map[string]any)["code"])

	// A body of undeclared length over the limit fails while being read, reported the same way.
	b, ct = form(t, "file", strings.Repeat("x", 2<<10))
	st, out = postUpload(t, b, ct, -1)
	require.Equal(t, http.StatusRequestEntityTooLarge, st, out)
	require.Equal(t, "upload.test_invalid", out["error"].(map[string]any)["code"])
}
