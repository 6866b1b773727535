package campaign

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"gocloud.dev/gcerrors"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/tenants"
)

// MaxCoverBytes is the largest cover image (§5: under 5 MB).
const MaxCoverBytes = 5 << 20

// coverTypes are the image types §5 allows, by content (jpeg covers .jpg and .jpeg).
var coverTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true}

func coverKey(orgID, id uuid.UUID) string {
	return "campaign-covers/" + orgID.String() + "/" + id.String()
}

// SetCover stores a cover image after checking its content and size.
func (h *Handler) setCover(ctx context.Context, orgID, id uuid.UUID, data []byte) error {
	if _, err := h.svc.Get(ctx, orgID, id); err != nil {
		return err
	}
	key := coverKey(orgID, id)
	if err := h.covers.WriteAll(ctx, key, data, nil); err != nil {
		return err
	}
	scope, err := h.svc.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return err
	}
	return scope.Exec(ctx, queries.Get("SetCover"), orgID, id, key)
}

// PostCover answers POST /manage/api/campaigns/:uuid/cover with the image as multipart field
// "cover" (or "file"), or as the raw body with an image content type.
func (h *Handler) PostCover(c *gin.Context) {
	id, ok := campaignID(c)
	if !ok {
		return
	}
	if h.covers == nil {
		apierror.Abort(c, apierror.New(http.StatusServiceUnavailable, "campaign.storage_unavailable"))
		return
	}
	var r io.Reader = c.Request.Body
	if fh, err := c.FormFile("cover"); err == nil {
		f, err := fh.Open()
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		defer f.Close()
		r = f
	} else if fh, err := c.FormFile("file"); err == nil {
		f, err := fh.Open()
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxCoverBytes+1))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) || len(data) > MaxCoverBytes {
		apierror.Abort(c, &apierror.Error{Status: http.StatusRequestEntityTooLarge, Code: "campaign.image_too_large", Fields: map[string]string{"cover": "campaign.image_too_large"}})
		return
	}
	if err != nil {
		apierror.Abort(c, apierror.BadRequest("campaign.image_invalid"))
		return
	}
	if len(data) == 0 || !coverTypes[http.DetectContentType(data)] {
		apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "campaign.image_invalid", Fields: map[string]string{"cover": "campaign.image_invalid"}})
		return
	}
	orgID := authz.Organization(c).OrganizationID
	if err := h.setCover(c.Request.Context(), orgID, id, data); err != nil {
		abort(c, err)
		return
	}
	out, err := h.svc.Get(c.Request.Context(), orgID, id)
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// GetCover answers GET /api/public/campaigns/:slug/cover for a published campaign.
func (h *Handler) GetCover(c *gin.Context) {
	f, err := h.svc.FormBySlug(c.Request.Context(), c.Param("slug"))
	if err != nil {
		abort(c, err)
		return
	}
	h.streamCover(c, f.Scope, f.Campaign)
}

// GetManageCover answers GET /manage/api/campaigns/:uuid/cover (drafts included).
func (h *Handler) GetManageCover(c *gin.Context) {
	id, ok := campaignID(c)
	if !ok {
		return
	}
	cp, err := h.svc.Get(c.Request.Context(), authz.Organization(c).OrganizationID, id)
	if err != nil {
		abort(c, err)
		return
	}
	h.streamCover(c, tenants.Scope{}, cp)
}

func (h *Handler) streamCover(c *gin.Context, _ tenants.Scope, cp *Campaign) {
	if h.covers == nil || cp.coverKey == "" {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	data, err := h.covers.ReadAll(c.Request.Context(), cp.coverKey)
	if gcerrors.Code(err) == gcerrors.NotFound {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.Header("Cache-Control", "public, max-age=300")
	c.DataFromReader(http.StatusOK, int64(len(data)), http.DetectContentType(data), bytes.NewReader(data), nil)
}
