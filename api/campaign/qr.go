package campaign

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"
	qrcode "github.com/skip2/go-qrcode"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/tenants"
)

// QR is the answer of GET /manage/api/campaigns/:uuid/qr (§3).
type QR struct {
	Base64SVG string `json:"base64_svg"`
	Base64PNG string `json:"base64_png"`
	Filename  string `json:"filename"` // without extension: the dialog adds .svg or .png
	URL       string `json:"url"`      // what the code encodes
}

// MakeQR renders url as a QR code in PNG (512 px) and SVG (from the same bitmap).
func MakeQR(url, name string) (QR, error) {
	code, err := qrcode.New(url, qrcode.Medium)
	if err != nil {
		return QR{}, err
	}
	png, err := code.PNG(512)
	if err != nil {
		return QR{}, err
	}
	return QR{
		Base64SVG: base64.StdEncoding.EncodeToString([]byte(svgOf(code.Bitmap()))),
		Base64PNG: base64.StdEncoding.EncodeToString(png),
		Filename:  "qr-" + name,
		URL:       url,
	}, nil
}

// svgOf draws the dark modules as one path, one unit per module (the bitmap includes the quiet zone).
func svgOf(bitmap [][]bool) string {
	n := len(bitmap)
	var path strings.Builder
	for y, row := range bitmap {
		for x := 0; x < len(row); x++ {
			if !row[x] {
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			fmt.Fprintf(&path, "M%d %dh%dv1h-%dz", start, y, x-start, x-start)
		}
	}
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="512" height="512" shape-rendering="crispEdges">`+
		`<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="%s"/></svg>`, n, n, n, n, path.String())
}

// QR answers GET /manage/api/campaigns/:uuid/qr. Organisations whose effective plan is Original are refused.
func (h *Handler) QR(ctx context.Context, r *CampaignRef) (*QR, error) {
	return onCampaign(ctx, *r, func(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*QR, error) {
		cp, err := h.svc.get(ctx, scope, id)
		if err != nil {
			return nil, err
		}
		org, err := h.svc.Organization(ctx, scope)
		if err != nil {
			return nil, err
		}
		if !org.AllowedByPlan() {
			return nil, apierror.New(http.StatusForbidden, "campaign.qr_plan_required")
		}
		q, err := MakeQR(strings.TrimRight(h.publicURL, "/")+cp.PublicPath, cp.Slug)
		return &q, err
	})
}
