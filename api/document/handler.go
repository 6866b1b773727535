package document

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/tenants"
)

// MaxUploadBody caps an upload request: the largest allowed file plus room for the multipart
// envelope. The upload route mounts middleware.UploadLimit instead of the default 1 MB limit.
const MaxUploadBody = MaxFileBytes + 1<<20

// Presenter renders the organisation O a document call answers with (§7: "the response data
// updates the organisation"); the organisation package, which builds on this one, provides it.
type Presenter[O any] func(ctx context.Context, scope tenants.Scope) (*O, error)

// Handler serves /manage/api/accounts/documents.
type Handler[O any] struct {
	svc     *Service
	present Presenter[O]
}

// NewHandler builds the handler.
func NewHandler[O any](s *Service, present Presenter[O]) *Handler[O] {
	return &Handler[O]{svc: s, present: present}
}

// Mount mounts the document routes. The upload and the download keep Gin handlers: a multipart
// body and a file stream are not JSON (endpoint.HandleUpload reads the one, File writes the other).
func (h *Handler[O]) Mount(g endpoint.Groups) {
	uploads := g.Upload("/manage/api", middleware.UploadLimit(MaxUploadBody, func() *apierror.Error {
		return unreadableFile(http.StatusRequestEntityTooLarge)
	}))
	uploads.POST("/accounts/documents", g.Authz.Require(authz.ManageOrganization), endpoint.HandleUpload(
		endpoint.Upload{Field: "file", Status: http.StatusCreated, Invalid: unreadableFile}, h.Upload))
	g.Manage.POST("/accounts/documents/review", g.Authz.Require(authz.ManageOrganization), endpoint.Handle(h.Review))
	g.Manage.DELETE("/accounts/documents/:id", g.Authz.Require(authz.ManageOrganization), endpoint.Handle(h.Delete))
	g.Manage.GET("/accounts/documents/:id/file", g.Authz.Require(authz.View), h.File)
}

// Upload is POST /manage/api/accounts/documents (multipart: file, document_type).
func (h *Handler[O]) Upload(ctx context.Context, f endpoint.File) (*O, error) {
	docType := f.Value("document_type")
	if docType == "" {
		return nil, apierror.Validation(map[string]string{"document_type": "document.invalid_document_type"})
	}
	return Change(ctx, h.present, func(scope tenants.Scope) error {
		_, err := h.svc.Add(ctx, scope, Upload{DocumentType: docType, Filename: f.Name, Size: f.Size, File: f.File})
		return err
	})
}

// ReviewRequest names the document type to send for review.
type ReviewRequest struct {
	DocumentType string `json:"document_type"`
}

// Review is POST /manage/api/accounts/documents/review {document_type}.
func (h *Handler[O]) Review(ctx context.Context, r *ReviewRequest) (*O, error) {
	return Change(ctx, h.present, func(scope tenants.Scope) error { return h.svc.RequestReview(ctx, scope, r.DocumentType) })
}

// DeleteRequest names the attachment.
type DeleteRequest struct {
	ID uuid.UUID `path:"id"`
}

// Delete is DELETE /manage/api/accounts/documents/{id}.
func (h *Handler[O]) Delete(ctx context.Context, r *DeleteRequest) (*O, error) {
	return Change(ctx, h.present, func(scope tenants.Scope) error { return h.svc.Delete(ctx, scope, r.ID) })
}

// Change runs change on the request's organisation (authz.Scope) and answers present's rendering
// of it: the answer of every call that edits the organisation or its documents.
func Change[O any](ctx context.Context, present Presenter[O], change func(tenants.Scope) error) (*O, error) {
	scope, err := authz.Scope(ctx)
	if err != nil {
		return nil, err
	}
	if err := change(scope); err != nil {
		return nil, err
	}
	return present(ctx, scope)
}

// File is GET /manage/api/accounts/documents/{id}/file: the organisation's own files only.
func (h *Handler[O]) File(c *gin.Context) {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	scope, err := authz.Scope(c.Request.Context())
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	f, err := h.svc.Open(c.Request.Context(), scope, id)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	WriteFile(c, f)
}

// WriteFile streams an opened attachment as a download, never rendered inline by the browser, and
// closes it.
func WriteFile(c *gin.Context, f File) {
	defer f.Reader.Close()
	c.Header("Content-Type", f.ContentType)
	c.Header("Content-Length", strconv.FormatInt(f.Size, 10))
	c.Header("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(f.OriginalFilename))
	c.Header("X-Content-Type-Options", "nosniff")
	c.Header("Cache-Control", "private, no-store")
	c.Status(http.StatusOK)
	_, _ = io.Copy(c.Writer, f.Reader)
}
