// Package spa serves the embedded web app: hashed assets with long caching, and index.html for every
// other page path, with the page's CSRF token written into it.
package spa

import (
	"bytes"
	"html"
	"io/fs"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// Handler serves the app from dist; token returns the request's CSRF token.
type Handler struct {
	assets http.Handler
	index  []byte // nil when the web app has not been built
	token  func(*gin.Context) string
	dist   fs.FS
}

// New prepares the handler. A missing index.html (web app not built) is answered with a hint.
func New(dist fs.FS, token func(*gin.Context) string) *Handler {
	index, _ := fs.ReadFile(dist, "index.html")
	return &Handler{assets: http.FileServerFS(dist), index: index, token: token, dist: dist}
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
		if st, err := fs.Stat(h.dist, name); err == nil && !st.IsDir() && name != "index.html" {
			h.assets.ServeHTTP(c.Writer, c.Request) // favicon, robots.txt and other public files
			return
		}
	}
	if h.index == nil {
		c.String(http.StatusServiceUnavailable, "The web app is not built: run `make build`.")
		return
	}
	meta := `<meta name="csrf-token" content="` + html.EscapeString(h.token(c)) + `">`
	page := bytes.Replace(h.index, []byte("</head>"), []byte(meta+"</head>"), 1)
	c.Header("Cache-Control", "no-store")
	c.Data(http.StatusOK, "text/html; charset=utf-8", page)
}
