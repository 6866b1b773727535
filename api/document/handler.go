package document

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/tenants"
)

// MaxUploadBody caps an upload request: the largest allowed file plus room for the multipart
// envelope. Upload routes mount middleware.UploadLimit instead of the default 1 MB limit.
const MaxUploadBody = MaxFileBytes + 1<<20

// Presenter renders the organisation a document call answers with (§7: "the response data
// updates the organisation").
type Presenter interface {
	Present(c *gin.Context, scope tenants.Scope) (any, error)
}

// Handler serves /manage/api/accounts/documents.
type Handler struct {
	svc *Service
	org Presenter
}

// NewHandler builds the handler.
func NewHandler(s *Service, p Presenter) *Handler { return &Handler{svc: s, org: p} }

// Multipart parses a multipart upload and returns the named file; a body over the limit is
// invalid_file. The caller must call form.RemoveAll.
func Multipart(c *gin.Context, field string) (multipart.File, *multipart.FileHeader, error) {
	if err := c.Request.ParseMultipartForm(8 << 20); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, nil, InvalidFile(http.StatusRequestEntityTooLarge, "invalid_file_size")
		}
		return nil, nil, &apierror.Error{Status: http.StatusBadRequest, Code: "invalid_file", Err: err}
	}
	f, h, err := c.Request.FormFile(field)
	if err != nil {
		return nil, nil, apierror.Validation(map[string]string{field: "file_required"})
	}
	return f, h, nil
}

func (h *Handler) scope(c *gin.Context) (tenants.Scope, error) {
	return h.svc.Scope(c.Request.Context(), authz.Organization(c).OrganizationID)
}

func (h *Handler) respond(c *gin.Context, scope tenants.Scope, status int) {
	out, err := h.org.Present(c, scope)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(status, out)
}

// Upload is POST /manage/api/accounts/documents (multipart: file, document_type).
func (h *Handler) Upload(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	f, fh, err := Multipart(c, "file")
	if c.Request.MultipartForm != nil {
		defer c.Request.MultipartForm.RemoveAll()
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	defer f.Close()
	docType := c.Request.FormValue("document_type")
	if docType == "" {
		apierror.Abort(c, apierror.Validation(map[string]string{"document_type": "invalid_document_type"}))
		return
	}
	if _, err := h.svc.Add(c.Request.Context(), scope, Upload{
		DocumentType: docType, Filename: fh.Filename, Size: fh.Size, File: f,
	}); err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope, http.StatusCreated)
}

// Review is POST /manage/api/accounts/documents/review {document_type}.
func (h *Handler) Review(c *gin.Context) {
	var in struct {
		DocumentType string `json:"document_type"`
	}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if err := h.svc.RequestReview(c.Request.Context(), scope, in.DocumentType); err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope, http.StatusOK)
}

// Delete is DELETE /manage/api/accounts/documents/{id}.
func (h *Handler) Delete(c *gin.Context) {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if err := h.svc.Delete(c.Request.Context(), scope, id); err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope, http.StatusOK)
}

// File is GET /manage/api/accounts/documents/{id}/file: the organisation's own files only.
func (h *Handler) File(c *gin.Context) {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ServeFile(c, h.svc, scope, id)
}

// ServeFile streams an attachment as a download, never rendered inline by the browser.
func ServeFile(c *gin.Context, svc *Service, scope tenants.Scope, id uuid.UUID) {
	f, err := svc.Open(c.Request.Context(), scope, id)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	WriteFile(c, f)
}

// WriteFile streams an opened attachment as a download and closes it.
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

// Routes mounts the document routes. manage is the /manage/api group (CSRF + session, default
// body limit); uploads is a /manage/api group with the same guards but middleware.UploadLimit instead.
func (h *Handler) Routes(manage, uploads *gin.RouterGroup, az *authz.Authz) {
	uploads.POST("/accounts/documents", az.Require(authz.ManageOrganization), h.Upload)
	manage.POST("/accounts/documents/review", az.Require(authz.ManageOrganization), h.Review)
	manage.DELETE("/accounts/documents/:id", az.Require(authz.ManageOrganization), h.Delete)
	manage.GET("/accounts/documents/:id/file", az.Require(authz.View), h.File)
}
