// Package spa serves the embedded web app: hashed assets with long caching, donate.html (the public
// donation form's own light bundle) for /d/… pages, and index.html for every other page path, each with
// the page's CSRF token and the person's chosen language written into it.
package spa

import (
	"bytes"
	"html"
	"io/fs"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/internal/i18n"
)

// Handler serves the app from dist; token returns the request's CSRF token.
type Handler struct {
	assets http.Handler
	index  []byte // nil when the web app has not been built
	donate []byte // the donation form's page; nil until built
	token  func(*gin.Context) string
	dist   fs.FS
}

// New prepares the handler. A missing index.html (web app not built) is answered with a hint.
func New(dist fs.FS, token func(*gin.Context) string) *Handler {
	index, _ := fs.ReadFile(dist, "index.html")
	donate, _ := fs.ReadFile(dist, "donate.html")
	return &Handler{assets: http.FileServerFS(dist), index: index, donate: donate, token: token, dist: dist}
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
		h.assets.ServeHTTP(c.Writer, c.Request)
		return
	}
	if name := strings.TrimPrefix(p, "/"); name != "" && !strings.HasSuffix(name, "/") {
		if st, err := fs.Stat(h.dist, name); err == nil && !st.IsDir() && name != "index.html" && name != "donate.html" {
			h.assets.ServeHTTP(c.Writer, c.Request) // favicon, robots.txt and other public files
			return
		}
	}
	page := h.index
	if strings.HasPrefix(p, "/d/") && h.donate != nil {
		page = h.donate
	}
	if page == nil {
		c.String(http.StatusServiceUnavailable, "The web app is not built: run `make build`.")
		return
	}
	meta := `<meta name="csrf-token" content="` + html.EscapeString(h.token(c)) + `">`
	// Only an explicit choice is declared: without one the app speaks Spanish, the product's default.
	if chosen, err := c.Cookie(middleware.LocaleCookie); err == nil {
		if l, ok := i18n.Parse(chosen); ok {
			meta += `<meta name="aporta-locale" content="` + string(l) + `">`
		}
	}
	page = bytes.Replace(page, []byte("</head>"), []byte(meta+"</head>"), 1)
	c.Header("Cache-Control", "no-store")
	c.Data(http.StatusOK, "text/html; charset=utf-8", page)
}
