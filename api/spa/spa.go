// Package spa serves the embedded web app: hashed assets with long caching, donate.html (the public
// donation form's own light bundle) for /d/… pages, and index.html for every other page path, each with
// the page's CSRF token and the person's chosen language written into it.
package spa

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"html"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/internal/httpgzip"
	"github.com/aporta/aporta/internal/i18n"
)

// Handler serves the app from dist; token returns the request's CSRF token.
type Handler struct {
	assets http.Handler
	index  []byte // nil when the web app has not been built
	donate []byte // the donation form's page; nil until built
	token  func(*gin.Context) string
	dist   fs.FS
	// published says whether a published campaign has the slug; nil answers every /d/ page as found.
	published func(ctx context.Context, slug string) (bool, error)
	// pages are the app's route paths split in segments ("$uuid" matches any one); nil answers every page as found.
	pages [][]string
	// gzipped holds each text asset compressed, made on its first request: assets never change.
	gzipped sync.Map // name → []byte
}

// New prepares the handler. A missing index.html (web app not built) is answered with a hint.
func New(dist fs.FS, token func(*gin.Context) string) *Handler {
	index, _ := fs.ReadFile(dist, "index.html")
	donate, _ := fs.ReadFile(dist, "donate.html")
	return &Handler{assets: http.FileServerFS(dist), index: index, donate: donate, token: token, dist: dist, pages: routePages(dist)}
}

// routePages reads routes.json, the app's page paths the web build writes from its router
// ("/manage/campaigns/$uuid"); nil when there is none (an old or absent build).
func routePages(dist fs.FS) [][]string {
	raw, err := fs.ReadFile(dist, "routes.json")
	if err != nil {
		return nil
	}
	var paths []string
	if json.Unmarshal(raw, &paths) != nil {
		return nil
	}
	pages := make([][]string, 0, len(paths))
	for _, p := range paths {
		pages = append(pages, segments(p))
	}
	return pages
}

func segments(path string) []string {
	path = strings.Trim(path, "/")
	if path == "" {
		return nil
	}
	return strings.Split(path, "/")
}

// isPage says whether one of the app's routes matches the path: the same segments, a "$param" standing
// for any one.
func (h *Handler) isPage(path string) bool {
	if h.pages == nil {
		return true
	}
	got := segments(path)
	for _, page := range h.pages {
		if len(page) != len(got) {
			continue
		}
		match := true
		for i, seg := range page {
			if seg != got[i] && (!strings.HasPrefix(seg, "$") || got[i] == "") {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// CheckForms makes /d/<slug>… pages answer 404 (still with the donation app, which shows its
// not-found message) when no published campaign has the slug, so crawlers, link checkers and
// monitoring do not take a dead link for a live page.
func (h *Handler) CheckForms(published func(ctx context.Context, slug string) (bool, error)) {
	h.published = published
}

// servedOnlyAsPage are build outputs the handler reads, never served as they are.
var servedOnlyAsPage = map[string]bool{"index.html": true, "donate.html": true, "routes.json": true}

// compressible are the assets sent gzipped to a browser that takes it (issue 19: the donate page's script is a
// third of its size so, which Lighthouse counts on a phone's connection); images and fonts are compressed already.
var compressible = map[string]bool{".js": true, ".css": true, ".svg": true, ".json": true, ".html": true, ".txt": true}

// serveAsset answers an asset of dist, gzipped when it is text and the browser accepts gzip.
func (h *Handler) serveAsset(c *gin.Context, name string) {
	c.Header("Vary", "Accept-Encoding")
	if !compressible[path.Ext(name)] || !httpgzip.Accepted(c.GetHeader("Accept-Encoding")) {
		h.assets.ServeHTTP(c.Writer, c.Request)
		return
	}
	gz, ok := h.gzipped.Load(name)
	if !ok {
		raw, err := fs.ReadFile(h.dist, name)
		if err != nil {
			h.assets.ServeHTTP(c.Writer, c.Request)
			return
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = zw.Write(raw)
		_ = zw.Close()
		gz, _ = h.gzipped.LoadOrStore(name, b.Bytes())
	}
	c.Header("Content-Encoding", "gzip")
	c.Data(http.StatusOK, mime.TypeByExtension(path.Ext(name)), gz.([]byte))
}

// Serve answers a GET for anything the API did not route.
func (h *Handler) Serve(c *gin.Context) {
	p := c.Request.URL.Path
	if strings.HasPrefix(p, "/assets/") {
		if _, err := fs.Stat(h.dist, strings.TrimPrefix(p, "/")); err != nil {
			c.Status(http.StatusNotFound)
			return
		}
		// Vite puts a content hash in every asset name, so an asset never changes.
		c.Header("Cache-Control", "public, max-age=31536000, immutable")
		h.serveAsset(c, strings.TrimPrefix(p, "/"))
		return
	}
	if name := strings.TrimPrefix(p, "/"); name != "" && !strings.HasSuffix(name, "/") {
		if st, err := fs.Stat(h.dist, name); err == nil && !st.IsDir() && !servedOnlyAsPage[name] {
			h.assets.ServeHTTP(c.Writer, c.Request) // favicon, robots.txt and other public files
			return
		}
	}
	page, status, head := h.index, http.StatusOK, ""
	if slug, ok := strings.CutPrefix(p, "/d/"); ok {
		if h.donate != nil {
			page = h.donate
		}
		slug, _, _ = strings.Cut(slug, "/")
		if h.published != nil {
			found, err := h.published(c.Request.Context(), slug)
			switch {
			case err != nil:
				_ = c.Error(err)
				status = http.StatusInternalServerError // the app reads the form itself and says it failed
			case !found:
				status = http.StatusNotFound
			}
		}
		if status == http.StatusOK && slug != "" {
			// The form's data starts downloading with the page, beside the script that asks for it (issue 19:
			// it was the last link of the chain before the form painted).
			head = `<link rel="preload" as="fetch" crossorigin="anonymous" href="` +
				html.EscapeString("/api/public/campaigns/"+url.PathEscape(slug)) + `">`
		}
	} else if !h.isPage(p) {
		status = http.StatusNotFound // still the app, which shows its not-found page
	}
	if page == nil {
		c.String(http.StatusServiceUnavailable, "The web app is not built: run `make build`.")
		return
	}
	meta := `<meta name="csrf-token" content="` + html.EscapeString(h.token(c)) + `">` + head
	// Only an explicit choice is declared: without one the app speaks Spanish, the product's default.
	if chosen, err := c.Cookie(middleware.LocaleCookie); err == nil {
		if l, ok := i18n.Parse(chosen); ok {
			meta += `<meta name="aporta-locale" content="` + string(l) + `">`
		}
	}
	page = bytes.Replace(page, []byte("</head>"), []byte(meta+"</head>"), 1)
	c.Header("Cache-Control", "no-store")
	c.Data(status, "text/html; charset=utf-8", page)
}
