package request_test

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/api/request"
)

// formLike has the shapes public bodies use: nested objects, lists, pointers, numbers and a free map.
type formLike struct {
	Donation struct {
		Recurrency *int `json:"recurrency"`
		Items      []struct {
			Amount   json.Number `json:"amount"`
			Quantity int         `json:"quantity"`
		} `json:"items"`
	} `json:"donation"`
	Gateway map[string]any `json:"gateway"`
	Email   string         `json:"email"`
	Flag    *bool          `json:"flag"`
}

const fuzzBodyLimit = 512

// FuzzJSON sends any body and content type through the real middleware and decoder. Every answer
// is 200 or a translated client error (400, 413, 415, 422), never a panic or a 5xx; the decoder
// agrees with encoding/json: what it accepts is one valid JSON value within the limit that
// encoding/json decodes to the same value without unknown fields, and a body both accept is 200.
func FuzzJSON(f *testing.F) {
	for _, b := range []string{`{"donation":{"recurrency":1,"items":[{"amount":"1500.50","quantity":1}]},"email":"ana@example.org"}`,
		`{"gateway":{"name":"mercadopago","token":"abc","extras":{"device_id":"x"}},"flag":true}`, `{"email":`, `{} {}`, `{"emial":"a"}`,
		`{"donation":{"recurrency":"1"}}`, `{"donation":{"items":[{"amount":1e400}]}}`, `{"EMAIL":"a","email":"b"}`, `null`, `[]`, `"\ud800"`,
		`{"donation":{"recurrency":99999999999999999999}}`, "\ufeff{}", `{"gateway":{"a":` + string(bytes.Repeat([]byte("["), 600)) + `}}`} {
		f.Add("application/json", []byte(b))
	}
	f.Add("application/json; charset=utf-8", []byte(`{}`))
	f.Add("text/plain", []byte(`{}`))
	f.Add("application/json;;", []byte(`{}`))
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(middleware.Locale(), middleware.BodyLimit(fuzzBodyLimit))
	r.POST("/p", func(c *gin.Context) {
		var v formLike
		if err := request.JSON(c, &v); err != nil {
			apierror.Abort(c, err)
			return
		}
		c.JSON(http.StatusOK, v)
	})
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/p?locale=en", bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		mt, _, _ := mime.ParseMediaType(contentType)
		var std formLike
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		stdOK := mt == "application/json" && len(body) <= fuzzBodyLimit && json.Valid(body) && dec.Decode(&std) == nil

		switch w.Code {
		case http.StatusOK:
			var echoed formLike
			if !stdOK || json.Unmarshal(w.Body.Bytes(), &echoed) != nil || !reflect.DeepEqual(echo(t, std), echo(t, echoed)) {
				t.Fatalf("%q %q accepted as %s; encoding/json: ok %v, %+v", contentType, body, w.Body, stdOK, std)
			}
			return
		case http.StatusUnsupportedMediaType:
			if mt == "application/json" {
				t.Fatalf("%q refused as unsupported", contentType)
			}
		case http.StatusRequestEntityTooLarge:
			if len(body) <= fuzzBodyLimit {
				t.Fatalf("%d bytes refused as too large", len(body))
			}
		case http.StatusBadRequest, http.StatusUnprocessableEntity:
		default:
			t.Fatalf("%q %q: status %d %s", contentType, body, w.Code, w.Body)
		}
		if stdOK {
			t.Fatalf("%q %q refused with %d %s, encoding/json accepts it", contentType, body, w.Code, w.Body)
		}
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error.Code == "" || e.Error.Message == "" {
			t.Fatalf("%q %q: %d without a translated error: %s", contentType, body, w.Code, w.Body)
		}
	})
}

// echo is v as JSON, so values compare the way the API sends them (json.Number "1e1" and "10" stay apart).
func echo(t *testing.T, v formLike) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
