package donation

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
)

// ConvertTTL is how long a convert-to-monthly link works.
const ConvertTTL = 7 * 24 * time.Hour

// convertSecretLen is the size of a convert token's random part.
const convertSecretLen = 32

// issueConvertToken gives a one-time donation its convert-to-monthly token: the organisation id
// (16 bytes, which finds the shard) followed by a random secret, base64url. The donation keeps
// only the secret's hash with its donor and the expiry, so the token works once, for ConvertTTL,
// for that donor; it is handed out once, in the answer that created the donation. "" when the
// donation cannot be converted (or the write failed, logged).
func (s *Service) issueConvertToken(ctx context.Context, scope tenants.Scope, donationID uuid.UUID) string {
	secret := make([]byte, convertSecretLen)
	_, _ = rand.Read(secret)
	var id uuid.UUID
	err := scope.QueryRow(ctx, queries.Get("IssueConvertToken"), scope.OrgID, donationID, secret, s.now().Add(ConvertTTL)).Scan(&id)
	if err != nil {
		if !errors.Is(err, pgx.ErrNoRows) {
			s.log.ErrorContext(ctx, "donation: issue convert token", "donation_id", donationID, "error", err)
		}
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(append(scope.OrgID[:], secret...))
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

// ConvertView is what the convert-to-monthly form shows.
type ConvertView struct {
	UUID          string       `json:"uuid"`
	Recurrency    int          `json:"recurrency"`
	Amount        money.Amount `json:"amount"`
	CampaignTitle string       `json:"campaign_title"`
	CampaignSlug  string       `json:"campaign_slug"`
	CardBrand     string       `json:"card_brand"`
	CardLastFour  string       `json:"card_last_four"`
	FirstName     string       `json:"first_name"`
	Convertible   bool         `json:"convertible"` // false once monthly, or without a stored card
	CollectDay    *int         `json:"collect_day,omitempty"`
}

func (s *Service) convertView(ctx context.Context, scope tenants.Scope, id uuid.UUID) (ConvertView, error) {
	var v ConvertView
	var status string
	var amount int64
	var currency string
	var pmID *uuid.UUID
	err := scope.QueryRow(ctx, queries.Get("DonationForConvert"), scope.OrgID, id).Scan(new(uuid.UUID), &status, &v.Recurrency,
		&amount, &currency, &pmID, &v.CampaignTitle, &v.CampaignSlug, &v.CardBrand, &v.CardLastFour, &v.FirstName)
	if err != nil {
		return v, err
	}
	v.UUID = id.String()
	v.Amount = money.New(amount, currency)
	v.Convertible = v.Recurrency == 0 && status == "active" && pmID != nil
	return v, nil
}

// convertToken is a checked convert link: the donation's shard, id and the token's secret.
type convertToken struct {
	scope  tenants.Scope
	id     uuid.UUID
	secret []byte
}

// convertLink checks the :uuid and ?token= of a convert request against the donation: unknown,
// forged and used tokens are a 404 that tells nothing, expired ones a 410.
func (h *Handler) convertLink(c *gin.Context) (convertToken, bool) {
	ctx := c.Request.Context()
	invalid := apierror.New(http.StatusNotFound, "donation.convert_link_invalid")
	id, err := uuid.Parse(c.Param("uuid"))
	b, derr := base64.RawURLEncoding.DecodeString(c.Query("token"))
	if err != nil || derr != nil || len(b) != 16+convertSecretLen {
		apierror.Abort(c, invalid)
		return convertToken{}, false
	}
	orgID, _ := uuid.FromBytes(b[:16])
	scope, err := h.svc.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		apierror.Abort(c, invalid)
		return convertToken{}, false
	}
	t := convertToken{scope: scope, id: id, secret: b[16:]}
	var valid bool
	err = scope.QueryRow(ctx, queries.Get("ConvertTokenValid"), scope.OrgID, id, t.secret, h.svc.now()).Scan(&valid)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		apierror.Abort(c, invalid)
		return t, false
	case err != nil:
		apierror.Abort(c, err)
		return t, false
	case !valid:
		apierror.Abort(c, apierror.New(http.StatusGone, "donation.convert_link_expired"))
		return t, false
	}
	return t, true
}

// GetConvert answers GET /api/public/donations/:uuid/convert?token=.
func (h *Handler) GetConvert(c *gin.Context) {
	t, ok := h.convertLink(c)
	if !ok {
		return
	}
	v, err := h.svc.convertView(c.Request.Context(), t.scope, t.id)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, v)
}

// PostConvert answers POST /api/public/donations/:uuid/convert?token=: the one-time donation
// becomes monthly with its own donor and stored card (nothing is read from the body); the next
// charge is next month. The token is used up by the same statement, so it converts once.
func (h *Handler) PostConvert(c *gin.Context) {
	t, ok := h.convertLink(c)
	if !ok {
		return
	}
	ctx := c.Request.Context()
	scope, id := t.scope, t.id
	v, err := h.svc.convertView(ctx, scope, id)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
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
	now := h.svc.now()
	today := now.In(loc)
	day := CollectDay(today)
	err = scope.QueryRow(ctx, queries.Get("ConvertToMonthly"), scope.OrgID, id, collectDayParam(day), nextCharge(today, day),
		t.secret, now).Scan(new(uuid.UUID))
	if errors.Is(err, pgx.ErrNoRows) { // used by a concurrent request
		apierror.Abort(c, apierror.New(http.StatusNotFound, "donation.convert_link_invalid"))
		return
	}
	if err != nil {
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
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, v)
}

func init() {
	i18n.Register(i18n.Catalog{
		"donation.convert_link_invalid": {i18n.ES: "El enlace no es válido o ya fue usado.", i18n.EN: "The link is not valid or was already used.", i18n.PT: "O link não é válido ou já foi usado."},
		"donation.convert_link_expired": {i18n.ES: "El enlace venció: era válido por 7 días.", i18n.EN: "The link has expired: it was valid for 7 days.", i18n.PT: "O link expirou: era válido por 7 dias."},
	})
}
