package spa

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"
)

func TestServe(t *testing.T) {
	t.Parallel()
	gin.SetMode(gin.TestMode)
	dist := fstest.MapFS{
		"index.html":    {Data: []byte("<html><head><title>app</title></head></html>")},
		"donate.html":   {Data: []byte("<html><head><title>donate</title></head></html>")},
		"assets/app.js": {Data: []byte("console.log(1)")},
		"favicon.svg":   {Data: []byte("<svg/>")},
	}
	routes := fstest.MapFS{"routes.json": {Data: []byte(`["/","/manage/dashboard","/manage/campaigns/$uuid","/staff/"]`)}}
	h := New(dist, func(*gin.Context) string { return `tok"en` })
	r := gin.New()
	r.NoRoute(h.Serve)
	serve := func(path string, cookies ...*http.Cookie) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for _, c := range cookies {
			req.AddCookie(c)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		return w
	}

	w := serve("/manage/dashboard")
	require.Equal(t, http.StatusOK, w.Code)
	require.Contains(t, w.Body.String(), "<title>app</title>")
	require.Contains(t, w.Body.String(), `<meta name="csrf-token" content="tok&#34;en"></head>`, "the token is escaped")
	require.NotContains(t, w.Body.String(), "aporta-locale", "no choice, no declaration: the app defaults to Spanish")

	w = serve("/d/dona-demo", &http.Cookie{Name: "aporta_locale", Value: "pt-BR"})
	require.Contains(t, w.Body.String(), "<title>donate</title>", "the donation form has its own page")
	require.Contains(t, w.Body.String(), `<meta name="aporta-locale" content="pt-BR">`, "the regional variant is declared; the web reads its language and variant")

	require.Equal(t, http.StatusOK, serve("/d/no-such-campaign").Code, "without a check every form page is served")
	h.CheckForms(func(_ context.Context, slug string) (bool, error) {
		if slug == "broken" {
			return false, errors.New("directory down")
		}
		return slug == "dona-demo", nil
	})
	for path, status := range map[string]int{
		"/d/dona-demo": http.StatusOK, "/d/dona-demo/thanks?ref=x": http.StatusOK,
		"/d/no-such-campaign": http.StatusNotFound, "/d/no-such-campaign/thanks": http.StatusNotFound,
		"/d/broken": http.StatusInternalServerError, "/manage/dashboard": http.StatusOK,
	} {
		w = serve(path)
		require.Equal(t, status, w.Code, path)
		require.Contains(t, w.Body.String(), "<title>", "the app still answers, with its own not-found message: %s", path)
	}
	require.Contains(t, serve("/d/dona-demo/thanks").Body.String(),
		`<link rel="preload" as="fetch" crossorigin="anonymous" href="/api/public/campaigns/dona-demo"></head>`,
		"a form's page starts reading its campaign with the page")
	require.NotContains(t, serve("/d/no-such-campaign").Body.String(), "preload", "nothing to read for a missing form")

	// With the app's route list, a path no route matches is a 404 too, still answered with the app.
	for name, file := range dist {
		routes[name] = file
	}
	h = New(routes, func(*gin.Context) string { return "t" })
	r = gin.New()
	r.NoRoute(h.Serve)
	for path, status := range map[string]int{
		"/": http.StatusOK, "/manage/dashboard": http.StatusOK, "/manage/campaigns/1f0e": http.StatusOK, "/staff": http.StatusOK, "/staff/": http.StatusOK,
		"/manage/nope": http.StatusNotFound, "/manage/settings/nope": http.StatusNotFound, "/staff/nope": http.StatusNotFound,
		"/manage/campaigns/1f0e/more": http.StatusNotFound, "/manage/campaigns//": http.StatusNotFound,
		"/d/anything": http.StatusOK, // without a form check
	} {
		w = serve(path)
		require.Equal(t, status, w.Code, path)
		require.Contains(t, w.Body.String(), "<title>", path)
	}
	require.Contains(t, serve("/routes.json").Body.String(), "<title>app</title>", "the route list is read, not served")

	w = serve("/", &http.Cookie{Name: "aporta_locale", Value: `"><script>`})
	require.NotContains(t, w.Body.String(), "aporta-locale", "an unknown cookie value is ignored")

	w = serve("/assets/app.js")
	require.Equal(t, http.StatusOK, w.Code)
	require.Equal(t, "public, max-age=31536000, immutable", w.Header().Get("Cache-Control"))
	require.Equal(t, "console.log(1)", w.Body.String(), "not gzipped for a client that did not ask")
	for enc, gz := range map[string]bool{"gzip, deflate, br": true, "br;q=1.0, gzip;q=0.5": true, "gzip;q=0": false, "deflate": false} {
		req := httptest.NewRequest(http.MethodGet, "/assets/app.js", nil)
		req.Header.Set("Accept-Encoding", enc)
		w = httptest.NewRecorder()
		r.ServeHTTP(w, req)
		require.Equal(t, http.StatusOK, w.Code, enc)
		require.Equal(t, "Accept-Encoding", w.Header().Get("Vary"), enc)
		body := w.Body.String()
		if gz {
			require.Equal(t, "gzip", w.Header().Get("Content-Encoding"), enc)
			require.Contains(t, w.Header().Get("Content-Type"), "javascript", enc)
			zr, err := gzip.NewReader(w.Body)
			require.NoError(t, err, enc)
			raw, err := io.ReadAll(zr)
			require.NoError(t, err, enc)
			body = string(raw)
		} else {
			require.Empty(t, w.Header().Get("Content-Encoding"), enc)
		}
		require.Equal(t, "console.log(1)", body, enc)
	}
	require.Equal(t, http.StatusNotFound, serve("/assets/nope.js").Code)
	require.Equal(t, "<svg/>", serve("/favicon.svg").Body.String())
	require.Contains(t, serve("/donate.html").Body.String(), "<title>app</title>", "the raw page file is not served bare")
}
