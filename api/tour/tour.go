// Package tour keeps each user's progress through the guide modals (§2 Guide modals, §4 Guides):
// step 0 means never seen, so the guide shows; dismissal saves step 1.
package tour

import (
	"context"
	"embed"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// Guides are the known guide names (§9) plus the 4-step campaign guide.
var Guides = map[string]int{
	"registration_completed":  1,
	"upload_documents":        1,
	"payment_gateways_config": 1,
	"create_campaign":         4,
}

// MaxStep bounds a stored step: a guide's step count, or 1 once dismissed.
func MaxStep(guide string) int { return max(Guides[guide], 1) }

// Router resolves an organisation's shard.
type Router interface {
	ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
}

// Handler serves /manage/api/tours.
type Handler struct{ tenants Router }

// NewHandler builds the handler.
func NewHandler(r Router) *Handler { return &Handler{tenants: r} }

// Progress is the body and answer of the tour calls.
type Progress struct {
	Step *int `json:"step"`
}

func (h *Handler) guide(c *gin.Context) (string, tenants.Scope, error) {
	name := c.Param("guide")
	if _, ok := Guides[name]; !ok {
		return "", tenants.Scope{}, apierror.NotFound()
	}
	scope, err := h.tenants.ForOrganization(c.Request.Context(), authz.Organization(c).OrganizationID)
	return name, scope, err
}

// Get is GET /manage/api/tours/{guideName} → {"step": n}, 0 when never seen.
func (h *Handler) Get(c *gin.Context) {
	name, scope, err := h.guide(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	step := 0
	err = scope.QueryRow(c.Request.Context(), queries.Get("GetStep"), scope.OrgID, authz.User(c).ID, name).Scan(&step)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"step": step})
}

// Put is PUT /manage/api/tours/{guideName}/progress {"step": n}.
func (h *Handler) Put(c *gin.Context) {
	var in Progress
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	name, scope, err := h.guide(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if in.Step == nil || *in.Step < 0 || *in.Step > MaxStep(name) {
		apierror.Abort(c, apierror.Validation(map[string]string{"step": "invalid_step"}))
		return
	}
	if err := scope.Exec(c.Request.Context(), queries.Get("SetStep"), scope.OrgID, authz.User(c).ID, name, *in.Step); err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"step": *in.Step})
}

// Routes mounts the tour routes on /manage/api.
func (h *Handler) Routes(manage *gin.RouterGroup, az *authz.Authz) {
	manage.GET("/tours/:guide", az.Require(authz.View), h.Get)
	manage.PUT("/tours/:guide/progress", az.Require(authz.View), h.Put)
}

func init() {
	i18n.Register(i18n.Catalog{
		"invalid_step": {
			i18n.ES: "El paso de la guía no es válido.",
			i18n.EN: "The guide step is not valid.",
			i18n.PT: "A etapa do guia não é válida.",
		},
	})
}
