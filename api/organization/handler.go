package organization

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/document"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/tenants"
)

// Handler serves the organisation routes.
type Handler struct{ svc *Service }

// NewHandler builds the handler.
func NewHandler(s *Service) *Handler { return &Handler{svc: s} }

// Mount mounts the routes: the spec's PATCH paths under /manage (Settings), the rest under
// /manage/api. The logo's upload and download keep Gin handlers: a multipart body and an image
// stream are not JSON (endpoint.HandleUpload reads the one, GetLogo writes the other).
func (h *Handler) Mount(g endpoint.Groups) {
	g.Manage.GET("/organization", g.Authz.Require(authz.View), endpoint.HandleScoped(h.Get))
	g.Manage.GET("/organization/logo", g.Authz.Require(authz.View), h.GetLogo)
	g.Manage.GET("/country", g.Authz.Require(authz.View), endpoint.HandleScoped(h.Country))
	g.Settings.PATCH("/organization", g.Authz.Require(authz.ManageOrganization), endpoint.Handle(h.Patch))
	g.Settings.PATCH("/organization/permissions", g.Authz.Require(authz.ManageOrganization), endpoint.Handle(h.PatchPermissions))
	uploads := g.Upload("/manage", middleware.UploadLimit(MaxLogoBytes+1<<20, func() *apierror.Error {
		return invalidLogo(http.StatusRequestEntityTooLarge)
	}))
	uploads.PUT("/organization/logo", g.Authz.Require(authz.ManageOrganization),
		endpoint.HandleUpload(endpoint.Upload{Field: "logo", Invalid: invalidLogo}, h.PutLogo))
	pictures := g.Upload("/manage", middleware.UploadLimit(MaxLogoBytes+1<<20, func() *apierror.Error {
		return invalidPicture(http.StatusRequestEntityTooLarge)
	}))
	pictures.POST("/organization/pictures", g.Authz.Require(authz.ManageOrganization),
		endpoint.HandleUpload(endpoint.Upload{Field: "picture[image]", Status: http.StatusCreated, Invalid: invalidPicture}, h.PostPicture))
	g.Settings.DELETE("/organization/pictures/:id", g.Authz.Require(authz.ManageOrganization), endpoint.Handle(h.DeletePicture))
	g.Manage.GET("/organization/pictures/:id", g.Authz.Require(authz.View), h.GetPicture)
}

// Get is GET /manage/api/organization.
func (h *Handler) Get(ctx context.Context, scope tenants.Scope, _ *struct{}) (*Organization, error) {
	return h.svc.Present(ctx, scope)
}

// Country is GET /manage/api/country: the current organisation's country.
func (h *Handler) Country(ctx context.Context, scope tenants.Scope, _ *struct{}) (*Country, error) {
	var out Country
	var err error
	if out.Country, err = reference.Get(ctx, scope.Store(), scope.Country); err != nil {
		return nil, err
	}
	if out.Documents, err = h.svc.docs.Requirements(ctx, scope, i18n.FromContext(ctx)); err != nil {
		return nil, err
	}
	if out.BankParams, err = reference.Banks(ctx, scope.Store(), scope.Country); err != nil {
		return nil, err
	}
	return &out, nil
}

// Patch is PATCH /manage/organization.
func (h *Handler) Patch(ctx context.Context, u *Update) (*Organization, error) {
	return document.Change(ctx, h.svc.Present, func(scope tenants.Scope) error { return h.svc.Patch(ctx, scope, *u) })
}

// PatchPermissions is PATCH /manage/organization/permissions.
func (h *Handler) PatchPermissions(ctx context.Context, p *PermissionsUpdate) (*Organization, error) {
	return document.Change(ctx, h.svc.Present, func(scope tenants.Scope) error { return h.svc.SetPermissions(ctx, scope, *p) })
}

// PutLogo is PUT /manage/organization/logo (multipart field "logo").
func (h *Handler) PutLogo(ctx context.Context, f endpoint.File) (*Organization, error) {
	return document.Change(ctx, h.svc.Present, func(scope tenants.Scope) error {
		return h.svc.SetLogo(ctx, scope, f.Name, f.Size, f.File)
	})
}

// GetLogo is GET /manage/api/organization/logo.
func (h *Handler) GetLogo(c *gin.Context) {
	serve(c, func(ctx context.Context, scope tenants.Scope) (document.File, error) { return h.svc.Logo(ctx, scope) })
}

// PostPicture is POST /manage/organization/pictures (multipart: image_for, picture[image]).
func (h *Handler) PostPicture(ctx context.Context, f endpoint.File) (*Organization, error) {
	return document.Change(ctx, h.svc.Present, func(scope tenants.Scope) error {
		return h.svc.AddPicture(ctx, scope, f.Value("image_for"), f.Name, f.Size, f.File)
	})
}

// PictureRequest names one of the organisation's pictures.
type PictureRequest struct {
	ID uuid.UUID `path:"id" json:"-"`
}

// DeletePicture is DELETE /manage/organization/pictures/:id.
func (h *Handler) DeletePicture(ctx context.Context, r *PictureRequest) (*Organization, error) {
	return document.Change(ctx, h.svc.Present, func(scope tenants.Scope) error { return h.svc.DeletePicture(ctx, scope, r.ID) })
}

// GetPicture is GET /manage/api/organization/pictures/:id.
func (h *Handler) GetPicture(c *gin.Context) {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	serve(c, func(ctx context.Context, scope tenants.Scope) (document.File, error) {
		return h.svc.Picture(ctx, scope, id)
	})
}

// serve streams one of the organisation's images to its members.
func serve(c *gin.Context, open func(context.Context, tenants.Scope) (document.File, error)) {
	scope, err := authz.Scope(c.Request.Context())
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	f, err := open(c.Request.Context(), scope)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	defer f.Reader.Close()
	c.Header("X-Content-Type-Options", "nosniff")
	c.Header("Cache-Control", "private, max-age=300")
	c.DataFromReader(http.StatusOK, f.Size, f.ContentType, f.Reader, nil)
}
