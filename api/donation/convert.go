package donation

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/tenants"
)

// ConvertToken signs (organisation, donation) for the convert-to-monthly link: the organisation id
// (16 bytes) followed by an HMAC-SHA256 of both ids with the server secret, base64url.
func (s *Service) ConvertToken(orgID, donationID uuid.UUID) string {
	return base64.RawURLEncoding.EncodeToString(append(orgID[:], s.convertMAC(orgID, donationID)...))
}

func (s *Service) convertMAC(orgID, donationID uuid.UUID) []byte {
	return s.mac("convert-to-monthly:", orgID[:], donationID[:])
}

// mac is the HMAC-SHA256 of parts with the server secret, prefixed by purpose so a signature made
// for one kind of link never verifies as another.
func (s *Service) mac(purpose string, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(purpose))
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// orgOfToken checks a convert token and returns its organisation.
func (s *Service) orgOfToken(token string, donationID uuid.UUID) (uuid.UUID, bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) != 16+sha256.Size || len(s.secret) == 0 {
		return uuid.Nil, false
	}
	orgID, _ := uuid.FromBytes(b[:16])
	return orgID, hmac.Equal(b[16:], s.convertMAC(orgID, donationID))
}

// ConvertView is what the convert-to-monthly form shows.
type ConvertView struct {
	UUID            string `json:"uuid"`
	Recurrency      int    `json:"recurrency"`
	Amount          string `json:"amount"`
	AmountFormatted string `json:"amount_formatted"`
	Currency        string `json:"currency"`
	CampaignTitle   string `json:"campaign_title"`
	CampaignSlug    string `json:"campaign_slug"`
	CardBrand       string `json:"card_brand"`
	CardLastFour    string `json:"card_last_four"`
	FirstName       string `json:"first_name"`
	Convertible     bool   `json:"convertible"` // false once monthly, or without a stored card
	CollectDay      *int   `json:"collect_day,omitempty"`
}

func (s *Service) convertView(ctx context.Context, scope tenants.Scope, id uuid.UUID) (ConvertView, error) {
	var v ConvertView
	var status string
	var amount int64
	var pmID *uuid.UUID
	err := scope.QueryRow(ctx, queries.Get("DonationForConvert"), scope.OrgID, id).Scan(new(uuid.UUID), &status, &v.Recurrency,
		&amount, &v.Currency, &pmID, &v.CampaignTitle, &v.CampaignSlug, &v.CardBrand, &v.CardLastFour, &v.FirstName)
	if err != nil {
		return v, err
	}
	v.UUID = id.String()
	v.Amount = decimal(amount, v.Currency)
	v.AmountFormatted = campaign.Format(amount, v.Currency)
	v.Convertible = v.Recurrency == 0 && status == "active" && pmID != nil
	return v, nil
}

func (h *Handler) convertScope(c *gin.Context) (tenants.Scope, uuid.UUID, bool) {
	id, err := uuid.Parse(c.Param("uuid"))
	orgID, ok := h.svc.orgOfToken(c.Query("token"), id)
	if err != nil || !ok {
		apierror.Abort(c, apierror.NotFound())
		return tenants.Scope{}, id, false
	}
	scope, err := h.svc.tenants.ForOrganization(c.Request.Context(), orgID)
	if err != nil {
		apierror.Abort(c, apierror.NotFound())
		return scope, id, false
	}
	return scope, id, true
}

// GetConvert answers GET /api/public/donations/:uuid/convert?token=.
func (h *Handler) GetConvert(c *gin.Context) {
	scope, id, ok := h.convertScope(c)
	if !ok {
		return
	}
	v, err := h.svc.convertView(c.Request.Context(), scope, id)
	if errors.Is(err, pgx.ErrNoRows) {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, v)
}

// PostConvert answers POST /api/public/donations/:uuid/convert?token= (no body): the one-time
// donation becomes monthly with the stored card; the next charge is next month. Repeating it is
// harmless.
func (h *Handler) PostConvert(c *gin.Context) {
	scope, id, ok := h.convertScope(c)
	if !ok {
		return
	}
	ctx := c.Request.Context()
	v, err := h.svc.convertView(ctx, scope, id)
	if errors.Is(err, pgx.ErrNoRows) {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if v.Recurrency == 0 {
		if !v.Convertible {
			apierror.Abort(c, apierror.New(http.StatusConflict, "donation.not_convertible"))
			return
		}
		var tz string
		if err := scope.QueryRow(ctx, "SELECT timezone FROM organizations WHERE organization_id = $1", scope.OrgID).Scan(&tz); err != nil {
			apierror.Abort(c, err)
			return
		}
		loc, lerr := time.LoadLocation(tz)
		if lerr != nil {
			loc = time.UTC
		}
		today := h.svc.now().In(loc)
		day := CollectDay(today)
		if err := scope.Exec(ctx, queries.Get("ConvertToMonthly"), scope.OrgID, id, collectDayParam(day), nextCharge(today, day)); err != nil {
			apierror.Abort(c, err)
			return
		}
		if h.svc.recurring != nil {
			if err := h.svc.recurring.StartRecurring(ctx, scope.OrgID, id); err != nil {
				h.svc.log.ErrorContext(ctx, "donation: start recurring collection", "donation_id", id, "error", err)
			}
		}
		if v, err = h.svc.convertView(ctx, scope, id); err != nil {
			apierror.Abort(c, err)
			return
		}
	}
	c.JSON(http.StatusOK, v)
}
