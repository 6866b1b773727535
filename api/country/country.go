// Package country serves the countries Aporta operates in, from the reference tables, to the pages
// that need them before anyone signs in: GET /api/public/countries (signup, phone verification).
// The signed-in organisation's own country is GET /manage/api/country (api/organization).
package country

import (
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
)

// Shards is what the handler needs of tenants.Tenants.
type Shards interface {
	Countries() []string
	Shard(country string) (*pgxpool.Pool, error)
}

// Handler answers GET /api/public/countries.
type Handler struct{ shards Shards }

// NewHandler builds the handler.
func NewHandler(shards Shards) *Handler { return &Handler{shards: shards} }

// Mount mounts the public route. It stays a plain gin handler: only a successful answer carries the
// Cache-Control header, which endpoint.Handle cannot tell apart.
func (h *Handler) Mount(g endpoint.Groups) {
	g.Public.GET("/api/public/countries", h.list)
}

// list answers {"countries": [...]}: the countries that have a shard. Every shard holds the
// reference tables whole, so any one of them answers.
func (h *Handler) list(c *gin.Context) {
	codes := h.shards.Countries()
	slices.Sort(codes)
	out := []reference.Country{}
	if len(codes) > 0 {
		pool, err := h.shards.Shard(codes[0])
		if err == nil {
			out, err = reference.Countries(c.Request.Context(), sharddb.Store(pool), codes)
		}
		if err != nil {
			apierror.Abort(c, err)
			return
		}
	}
	c.Header("Cache-Control", "public, max-age=300")
	c.JSON(http.StatusOK, gin.H{"countries": out})
}
