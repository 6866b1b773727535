package campaign

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/internal/blob"
)

// Handler exposes campaigns over HTTP.
type Handler struct {
	svc       *Service
	covers    *blob.Bucket // nil: cover uploads answer 503
	publicURL string
	// tokenizerURL and gatewayPublicKey tell the public form where browsers tokenise cards.
	tokenizerURL, gatewayPublicKey string
	visits                         *ratelimit.Limiter
	leads                          *ratelimit.Limiter
}

// Options are the handler's optional collaborators.
type Options struct {
	Covers    *blob.Bucket // object storage for cover images; nil disables uploads
	PublicURL string       // the site's origin, encoded in QR codes
	// The gateway's browser-facing tokeniser and public key: donors' browsers send card data there
	// directly, never to us.
	TokenizerURL, GatewayPublicKey string
}

// NewHandler builds the handler.
func NewHandler(svc *Service, opts Options) *Handler {
	return &Handler{svc: svc, covers: opts.Covers, publicURL: opts.PublicURL,
		tokenizerURL: opts.TokenizerURL, gatewayPublicKey: opts.GatewayPublicKey,
		visits: ratelimit.New("campaign_visits", 20, time.Minute),
		leads:  ratelimit.New("campaign_leads", 20, time.Minute),
	}
}

// Mount attaches the campaign routes: public ones on public, manage ones on manage (which already
// authenticates), each guarded by the permit it needs. uploads is a manage group with a body limit
// large enough for a cover image (MaxCoverBytes plus multipart overhead).
func (h *Handler) Mount(public, manage, uploads *gin.RouterGroup, require func(permit string) gin.HandlerFunc) {
	public.GET("/api/public/campaigns/:slug", h.GetPublic)
	public.GET("/api/public/campaigns/:slug/cover", h.GetCover)
	public.POST("/api/public/campaigns/:slug/visits", h.visits.PerIP(), h.PostVisit)
	public.POST("/api/public/campaigns/:slug/leads", h.leads.PerIP(), h.PostLead)

	manage.GET("/campaigns", require(authz.View), h.List)
	manage.POST("/campaigns", require(authz.EditCampaigns), h.Create)
	manage.GET("/campaigns/:uuid", require(authz.View), h.Get)
	manage.PATCH("/campaigns/:uuid", require(authz.EditCampaigns), h.Patch)
	manage.PUT("/campaigns/:uuid/form_fields", require(authz.EditCampaigns), h.PutFormFields)
	uploads.POST("/campaigns/:uuid/cover", require(authz.EditCampaigns), h.PostCover)
	manage.GET("/campaigns/:uuid/cover", require(authz.View), h.GetManageCover)
	manage.POST("/campaigns/:uuid/publish", require(authz.PublishCampaigns), h.Publish)
	manage.POST("/campaigns/:uuid/unpublish", require(authz.PublishCampaigns), h.Unpublish)
	manage.GET("/campaigns/:uuid/qr", require(authz.View), h.QR)
}

// abort maps the service's errors to API errors.
func abort(c *gin.Context, err error) {
	var missing *MissingInfoError
	switch {
	case errors.Is(err, ErrNotFound):
		apierror.Abort(c, apierror.NotFound())
	case errors.Is(err, ErrPlan):
		apierror.Abort(c, apierror.New(http.StatusForbidden, "campaign.plan_required"))
	case errors.Is(err, ErrNotEnabled):
		apierror.Abort(c, apierror.New(http.StatusConflict, "campaign.org_not_enabled"))
	case errors.Is(err, ErrSlugTaken):
		apierror.Abort(c, &apierror.Error{Status: http.StatusConflict, Code: "campaign.slug_taken", Fields: map[string]string{"slug": "campaign.slug_taken"}})
	case errors.Is(err, errBadSlug):
		apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "validation_failed", Fields: map[string]string{"slug": "campaign.slug_invalid"}})
	case errors.As(err, &missing):
		apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "campaign.publish_missing", Fields: missing.Fields})
	default:
		apierror.Abort(c, err)
	}
}

func campaignID(c *gin.Context) (uuid.UUID, bool) {
	id, err := uuid.Parse(c.Param("uuid"))
	if err != nil {
		// An id that cannot exist is answered like one of another organisation.
		apierror.Abort(c, apierror.NotFound())
		return id, false
	}
	return id, true
}

// List answers GET /manage/api/campaigns?page=&per_page=.
func (h *Handler) List(c *gin.Context) {
	page, _ := strconv.Atoi(c.DefaultQuery("page", "1"))
	per, _ := strconv.Atoi(c.DefaultQuery("per_page", "25"))
	page, per = max(page, 1), min(max(per, 1), 100)
	list, total, err := h.svc.List(c.Request.Context(), authz.Organization(c).OrganizationID, per, (page-1)*per)
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"campaigns": list, "total": total, "page": page, "per_page": per})
}

// Create answers POST /manage/api/campaigns.
func (h *Handler) Create(c *gin.Context) {
	in := Input{Type: "fundraise", Channel: "public", AllowOneTime: true, AllowOtherAmount: true}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	out, err := h.svc.CreateFromInput(c.Request.Context(), authz.Organization(c).OrganizationID, in)
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusCreated, out)
}

// Get answers GET /manage/api/campaigns/:uuid.
func (h *Handler) Get(c *gin.Context) {
	id, ok := campaignID(c)
	if !ok {
		return
	}
	out, err := h.svc.Get(c.Request.Context(), authz.Organization(c).OrganizationID, id)
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// Patch answers PATCH /manage/api/campaigns/:uuid: only the fields sent change.
func (h *Handler) Patch(c *gin.Context) {
	id, ok := campaignID(c)
	if !ok {
		return
	}
	out, err := h.svc.Update(c.Request.Context(), authz.Organization(c).OrganizationID, id, func(in *Input) error {
		return request.JSON(c, in)
	})
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// PutFormFields answers PUT /manage/api/campaigns/:uuid/form_fields with the ordered list.
func (h *Handler) PutFormFields(c *gin.Context) {
	id, ok := campaignID(c)
	if !ok {
		return
	}
	var body struct {
		FormFields []FormField `json:"form_fields"`
	}
	if err := request.JSON(c, &body); err != nil {
		apierror.Abort(c, err)
		return
	}
	if body.FormFields == nil {
		body.FormFields = []FormField{}
	}
	out, err := h.svc.SetFormFields(c.Request.Context(), authz.Organization(c).OrganizationID, id, body.FormFields)
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// Publish answers POST /manage/api/campaigns/:uuid/publish.
func (h *Handler) Publish(c *gin.Context) { h.setPublished(c, true) }

// Unpublish answers POST /manage/api/campaigns/:uuid/unpublish.
func (h *Handler) Unpublish(c *gin.Context) { h.setPublished(c, false) }

func (h *Handler) setPublished(c *gin.Context, published bool) {
	id, ok := campaignID(c)
	if !ok {
		return
	}
	out, err := h.svc.SetPublished(c.Request.Context(), authz.Organization(c).OrganizationID, id, published)
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}
