package sandboxserve

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCompressGzipsForClientsThatTakeIt(t *testing.T) {
	body := `[{"id":"visa","status":"active"}]`
	h := compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/empty" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	get := func(path, accept string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}

	res := get("/v1/payment_methods", "gzip, br")
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("headers %v, want gzip-encoded JSON", res.Header)
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); string(got) != body {
		t.Fatalf("body %q, want %q", got, body)
	}

	res = get("/v1/payment_methods", "")
	if got, _ := io.ReadAll(res.Body); res.Header.Get("Content-Encoding") != "" || string(got) != body {
		t.Fatalf("without Accept-Encoding: %v %q", res.Header, got)
	}
	res = get("/empty", "gzip")
	if got, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusNoContent || res.Header.Get("Content-Encoding") != "" || len(got) != 0 {
		t.Fatalf("204: %v %q", res.Header, got)
	}
	if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("Vary %q", res.Header.Get("Vary"))
	}
}
