// Package export is the download-by-email API: the leads dialog asks for an export, a workflow
// (workflows/export) builds the CSV and e-mails a signed link, and the link streams the file while
// it is valid.
//
//	POST /manage/api/leads/export   {email}   (export_data; optional Idempotency-Key header)
//	GET  /api/exports/{token}?expires=…&sig=…  (public: the signature is the credential)
package export

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/idempotency"
	"github.com/aporta/aporta/internal/i18n"
	flow "github.com/aporta/aporta/workflows/export"
)

// Handler serves the export routes.
type Handler struct {
	Temporal client.Client
	Bucket   *blob.Bucket
	Secret   []byte
	Queue    string // flow.TaskQueue unless a test runs its own worker
	Now      func() time.Time
}

// NewHandler builds the handler on the production task queue.
func NewHandler(c client.Client, b *blob.Bucket, secret []byte) *Handler {
	return &Handler{Temporal: c, Bucket: b, Secret: secret, Queue: flow.TaskQueue, Now: time.Now}
}

// Mount mounts the routes. The download stays a plain Gin handler: it streams a file.
func (h *Handler) Mount(g endpoint.Groups) {
	g.Manage.POST("/leads/export", g.Authz.Require(authz.ExportData), idempotency.Replay(h.Secret, idempotency.ByOrganization), endpoint.Handle(h.Start))
	g.Public.GET("/api/exports/:token", h.download)
}

// StartRequest is where the link goes.
type StartRequest struct {
	Email string `json:"email"`
}

// Started answers 202: the workflow e-mails the link when the file is ready.
type Started struct {
	Status   string `json:"status"`
	Email    string `json:"email"`
	ExportID string `json:"export_id,omitempty"`
}

func (Started) StatusCode() int { return http.StatusAccepted }

// Start starts the export workflow, named after the request's Idempotency-Key when it has one, so
// a retried request finds the export it started instead of a second one.
func (h *Handler) Start(ctx context.Context, r *StartRequest) (*Started, error) {
	addr, err := mail.ParseAddress(strings.TrimSpace(r.Email))
	if err != nil || addr.Name != "" || !strings.Contains(addr.Address, ".") {
		return nil, apierror.Validation(map[string]string{"email": "export.email_invalid"})
	}
	key := idempotency.Key(ctx)
	if len(key) > 100 {
		return nil, apierror.BadRequest("invalid_id")
	}
	run, err := flow.Start(ctx, h.Temporal, h.Queue, key, flow.Input{
		OrganizationID: authz.CurrentOrganization(ctx).OrganizationID.String(), Email: addr.Address, Lang: string(i18n.FromContext(ctx)),
	})
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) { // the same request, already done
		return &Started{Status: "sent", Email: addr.Address}, nil
	}
	if err != nil {
		return nil, err
	}
	return &Started{Status: "sent", Email: addr.Address, ExportID: run.GetID()}, nil
}

func (h *Handler) download(c *gin.Context) {
	token := c.Param("token")
	expires, err := strconv.ParseInt(c.Query("expires"), 10, 64)
	if err != nil || !flow.ValidToken(token) || !flow.Verify(h.Secret, token, expires, c.Query("sig")) {
		apierror.Abort(c, apierror.New(http.StatusForbidden, "export.link_invalid"))
		return
	}
	if !h.Now().Before(time.Unix(expires, 0)) {
		apierror.Abort(c, apierror.New(http.StatusGone, "export.link_expired"))
		return
	}
	r, err := h.Bucket.NewReader(c.Request.Context(), flow.ObjectKey(token), nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		apierror.Abort(c, apierror.New(http.StatusGone, "export.link_expired"))
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	defer r.Close()
	c.Header("Content-Type", "text/csv; charset=utf-8")
	c.Header("Content-Disposition", `attachment; filename="leads.csv"`)
	c.Header("Cache-Control", "no-store")
	c.Header("X-Content-Type-Options", "nosniff")
	c.Header("Content-Length", strconv.FormatInt(r.Size(), 10))
	c.Status(http.StatusOK)
	_, _ = io.Copy(c.Writer, r)
}

func init() {
	i18n.Register(i18n.Catalog{
		"export.email_invalid": {i18n.ES: "Ingresa un e-mail válido para recibir el enlace.", i18n.EN: "Enter a valid e-mail to receive the link.", i18n.PT: "Informe um e-mail válido para receber o link."},
		"export.link_expired":  {i18n.ES: "El enlace de descarga expiró: era válido por 24 horas. Solicita la descarga de nuevo.", i18n.EN: "The download link has expired: it was valid for 24 hours. Request the download again.", i18n.PT: "O link de download expirou: era válido por 24 horas. Solicite o download novamente."},
		"export.link_invalid":  {i18n.ES: "El enlace de descarga no es válido.", i18n.EN: "The download link is not valid.", i18n.PT: "O link de download não é válido."},
	})
}
