package campaign

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/internal/blob"
	"github.com/aporta/aporta/tenants"
)

// Handler exposes campaigns over HTTP.
type Handler struct {
	svc        *Service
	covers     *blob.Bucket // nil: cover uploads answer 503
	publicURL  string
	visits     *ratelimit.Limiter
	leads      *ratelimit.Limiter
	cardErrors *ratelimit.Limiter
	log        *slog.Logger
}

// Options are the handler's optional collaborators.
type Options struct {
	Covers    *blob.Bucket // object storage for cover images; nil disables uploads
	PublicURL string       // the site's origin, encoded in QR codes
	Log       *slog.Logger // where donors' card tokenisation failures are reported (slog.Default() when nil)
}

// NewHandler builds the handler.
func NewHandler(svc *Service, opts Options) *Handler {
	return &Handler{svc: svc, covers: opts.Covers, publicURL: opts.PublicURL,
		visits:     ratelimit.New("campaign_visits", 20, time.Minute),
		leads:      ratelimit.New("campaign_leads", 20, time.Minute),
		cardErrors: ratelimit.New("campaign_card_errors", 10, time.Minute),
		log:        cmp.Or(opts.Log, slog.Default()),
	}
}

// Mount attaches the public routes and the manage ones, each guarded by the permit it needs. The
// cover upload has a group of its own whose body limit fits an image (MaxCoverBytes plus multipart
// overhead).
func (h *Handler) Mount(g endpoint.Groups) {
	g.Public.GET("/api/public/campaigns/:slug", endpoint.Handle(h.GetPublic))
	g.Public.GET("/api/public/campaigns/:slug/cover", h.GetCover)
	g.Public.POST("/api/public/campaigns/:slug/visits", h.visits.PerIP(), endpoint.Handle(h.PostVisit))
	g.Public.POST("/api/public/campaigns/:slug/leads", h.leads.PerIP(), endpoint.Handle(h.PostLead))
	g.Public.POST("/api/public/campaigns/:slug/card_errors", h.cardErrors.PerIP(), endpoint.Handle(h.PostCardError))

	view, edit, publish := g.Authz.Require(authz.View), g.Authz.Require(authz.EditCampaigns), g.Authz.Require(authz.PublishCampaigns)
	g.Manage.GET("/campaigns", view, endpoint.HandleScoped(h.List))
	g.Manage.POST("/campaigns", edit, endpoint.HandleScoped(h.Create))
	g.Manage.GET("/campaigns/:uuid", view, endpoint.Handle(h.Get))
	g.Manage.PATCH("/campaigns/:uuid", edit, endpoint.Handle(h.Patch))
	g.Manage.PUT("/campaigns/:uuid/form_fields", edit, endpoint.Handle(h.PutFormFields))
	g.Upload("/manage/api", middleware.BodyLimit(MaxCoverBytes+1<<20)).POST("/campaigns/:uuid/cover", edit, h.PostCover)
	g.Manage.GET("/campaigns/:uuid/cover", view, h.GetManageCover)
	g.Manage.POST("/campaigns/:uuid/publish", publish, endpoint.Handle(h.Publish))
	g.Manage.POST("/campaigns/:uuid/unpublish", publish, endpoint.Handle(h.Unpublish))
	g.Manage.GET("/campaigns/:uuid/qr", view, endpoint.Handle(h.QR))
}

// ListRequest is a page of the list.
type ListRequest struct {
	Page    *int `query:"page" json:"-"`
	PerPage *int `query:"per_page" json:"-"`
}

// ListResponse is a page of campaigns and the total.
type ListResponse struct {
	Campaigns []*Campaign `json:"campaigns"`
	Total     int         `json:"total"`
	Page      int         `json:"page"`
	PerPage   int         `json:"per_page"`
}

// List answers GET /manage/api/campaigns?page=&per_page= (25 a page, at most 100).
func (h *Handler) List(ctx context.Context, scope tenants.Scope, r *ListRequest) (*ListResponse, error) {
	page, per := 1, 25
	if r.Page != nil {
		page = max(*r.Page, 1)
	}
	if r.PerPage != nil {
		per = min(max(*r.PerPage, 1), 100)
	}
	list, total, err := h.svc.list(ctx, scope, per, (page-1)*per)
	if err != nil {
		return nil, err
	}
	return &ListResponse{Campaigns: list, Total: total, Page: page, PerPage: per}, nil
}

// Changes is a campaign's settings as a request body sent them, kept as sent so they are decoded
// onto the current values: absent fields keep theirs (a PATCH) or the defaults (a creation).
// Decoding checks the body as Input would, so unknown fields and wrong types are refused before
// anything is read.
type Changes json.RawMessage

// UnmarshalJSON keeps the body after checking it.
func (ch *Changes) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(new(Input)); err != nil {
		return err
	}
	*ch = append((*ch)[:0], b...)
	return nil
}

func (ch Changes) applyTo(in *Input) error { return json.Unmarshal(ch, in) }

func (ch Changes) present() error {
	if len(ch) == 0 {
		return apierror.BadRequest("malformed_json")
	}
	return nil
}

// CreateRequest is a new campaign's settings.
type CreateRequest struct {
	Body Changes `json:"body"` // the whole body: see UnmarshalJSON
}

// UnmarshalJSON reads the whole body as the campaign's settings.
func (r *CreateRequest) UnmarshalJSON(b []byte) error { return r.Body.UnmarshalJSON(b) }

// Validate refuses an empty body.
func (r *CreateRequest) Validate() error { return r.Body.present() }

// Created is the new campaign, answered with 201.
type Created struct{ *Campaign }

func (Created) StatusCode() int { return http.StatusCreated }

// Create answers POST /manage/api/campaigns: a public fundraiser taking one-time gifts and other
// amounts unless the body says otherwise.
func (h *Handler) Create(ctx context.Context, scope tenants.Scope, r *CreateRequest) (*Created, error) {
	in := Input{Type: "fundraise", Channel: "public", AllowOneTime: true, AllowOtherAmount: true}
	if err := r.Body.applyTo(&in); err != nil {
		return nil, err
	}
	c, err := h.svc.createFromInput(ctx, scope, in)
	if err != nil {
		return nil, err
	}
	return &Created{c}, nil
}

// CampaignRef names a campaign of the current organisation in the path.
type CampaignRef struct {
	UUID string `path:"uuid" json:"-"`
}

// id is the campaign's id; one that cannot exist is answered like one of another organisation.
func (r CampaignRef) id() (uuid.UUID, error) {
	id, err := uuid.Parse(r.UUID)
	if err != nil {
		return id, apierror.NotFound()
	}
	return id, nil
}

// Get answers GET /manage/api/campaigns/:uuid.
func (h *Handler) Get(ctx context.Context, r *CampaignRef) (*Campaign, error) {
	return onCampaign(ctx, *r, h.svc.get)
}

// PatchRequest is the settings that change.
type PatchRequest struct {
	CampaignRef
	Body Changes `json:"body"` // the whole body: see UnmarshalJSON
}

// UnmarshalJSON reads the whole body as the changed settings.
func (r *PatchRequest) UnmarshalJSON(b []byte) error { return r.Body.UnmarshalJSON(b) }

// Validate refuses an empty body.
func (r *PatchRequest) Validate() error { return r.Body.present() }

// Patch answers PATCH /manage/api/campaigns/:uuid: only the fields sent change.
func (h *Handler) Patch(ctx context.Context, r *PatchRequest) (*Campaign, error) {
	return h.update(ctx, r.CampaignRef, r.Body.applyTo)
}

// FormFieldsRequest is the ordered list of form fields.
type FormFieldsRequest struct {
	CampaignRef
	FormFields []FormField `json:"form_fields"`
}

// PutFormFields answers PUT /manage/api/campaigns/:uuid/form_fields: the list replaces the current one.
func (h *Handler) PutFormFields(ctx context.Context, r *FormFieldsRequest) (*Campaign, error) {
	ff := r.FormFields
	if ff == nil {
		ff = []FormField{}
	}
	return h.update(ctx, r.CampaignRef, func(in *Input) error { in.FormFields = ff; return nil })
}

func (h *Handler) update(ctx context.Context, ref CampaignRef, patch func(*Input) error) (*Campaign, error) {
	return onCampaign(ctx, ref, func(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*Campaign, error) {
		return h.svc.update(ctx, scope, id, patch)
	})
}

// Publish answers POST /manage/api/campaigns/:uuid/publish.
func (h *Handler) Publish(ctx context.Context, r *CampaignRef) (*Campaign, error) {
	return h.setPublished(ctx, *r, true)
}

// Unpublish answers POST /manage/api/campaigns/:uuid/unpublish.
func (h *Handler) Unpublish(ctx context.Context, r *CampaignRef) (*Campaign, error) {
	return h.setPublished(ctx, *r, false)
}

func (h *Handler) setPublished(ctx context.Context, ref CampaignRef, published bool) (*Campaign, error) {
	return onCampaign(ctx, ref, func(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*Campaign, error) {
		return h.svc.setPublished(ctx, scope, id, published)
	})
}

// onCampaign runs fn on the campaign ref names in the current organisation's shard.
func onCampaign[T any](ctx context.Context, ref CampaignRef, fn func(context.Context, tenants.Scope, uuid.UUID) (T, error)) (T, error) {
	var zero T
	id, err := ref.id()
	if err != nil {
		return zero, err
	}
	scope, err := authz.Scope(ctx)
	if err != nil {
		return zero, err
	}
	return fn(ctx, scope, id)
}
