package campaign

import (
	"bytes"
	"errors"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"gocloud.dev/gcerrors"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/internal/sharddb"
)

// The cover endpoints are plain Gin handlers: the upload takes a multipart field "cover" or "file"
// or a raw image body (endpoint.HandleUpload reads one multipart field only), and the reads stream
// the image.

// MaxCoverBytes is the largest cover image (§5: under 5 MB).
const MaxCoverBytes = 5 << 20

// coverTypes are the image types §5 allows, by content (jpeg covers .jpg and .jpeg).
var coverTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true}

func coverKey(orgID, id uuid.UUID) string {
	return "campaign-covers/" + orgID.String() + "/" + id.String()
}

// PostCover answers POST /manage/api/campaigns/:uuid/cover with the image as multipart field
// "cover" (or "file"), or as the raw body with an image content type.
func (h *Handler) PostCover(c *gin.Context) {
	id, err := CampaignRef{UUID: c.Param("uuid")}.id()
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if h.covers == nil {
		apierror.Abort(c, apierror.New(http.StatusServiceUnavailable, "campaign.storage_unavailable"))
		return
	}
	data, err := readCover(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	out, err := h.setCover(c, id, data)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// readCover reads the uploaded image and checks its size and type.
func readCover(c *gin.Context) ([]byte, error) {
	var r io.Reader = c.Request.Body
	for _, field := range []string{"cover", "file"} {
		fh, err := c.FormFile(field)
		if err != nil {
			continue
		}
		f, err := fh.Open()
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
		break
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxCoverBytes+1))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) || len(data) > MaxCoverBytes {
		return nil, &apierror.Error{Status: http.StatusRequestEntityTooLarge, Code: "campaign.image_too_large", Fields: map[string]string{"cover": "campaign.image_too_large"}}
	}
	if err != nil {
		return nil, apierror.BadRequest("campaign.image_invalid")
	}
	if len(data) == 0 || !coverTypes[http.DetectContentType(data)] {
		return nil, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "campaign.image_invalid", Fields: map[string]string{"cover": "campaign.image_invalid"}}
	}
	return data, nil
}

// setCover stores the image of a campaign of the current organisation and answers the campaign.
func (h *Handler) setCover(c *gin.Context, id uuid.UUID, data []byte) (*Campaign, error) {
	ctx := c.Request.Context()
	scope, err := authz.Scope(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := h.svc.get(ctx, scope, id); err != nil {
		return nil, err
	}
	key := coverKey(scope.OrgID, id)
	if err := h.covers.WriteAll(ctx, key, data, nil); err != nil {
		return nil, err
	}
	err = scope.Store().SetCampaignCover(ctx, sharddb.SetCampaignCoverParams{OrganizationID: scope.OrgID, ID: id, CoverKey: &key})
	if err != nil {
		return nil, err
	}
	h.svc.public.forget(id)
	return h.svc.get(ctx, scope, id)
}

// GetCover answers GET /api/public/campaigns/:slug/cover for a published campaign.
func (h *Handler) GetCover(c *gin.Context) {
	f, err := h.svc.FormBySlug(c.Request.Context(), c.Param("slug"))
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	h.streamCover(c, f.Campaign)
}

// GetManageCover answers GET /manage/api/campaigns/:uuid/cover (drafts included).
func (h *Handler) GetManageCover(c *gin.Context) {
	cp, err := onCampaign(c.Request.Context(), CampaignRef{UUID: c.Param("uuid")}, h.svc.get)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	h.streamCover(c, cp)
}

func (h *Handler) streamCover(c *gin.Context, cp *Campaign) {
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
