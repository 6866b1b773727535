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

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
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
	secret := convertSecret()
	_, err := scope.Store().IssueConvertToken(ctx, sharddb.IssueConvertTokenParams{OrganizationID: scope.OrgID, ID: donationID,
		Secret: secret, ExpiresAt: s.now().Add(ConvertTTL)})
	if err != nil {
		if !errors.Is(err, dberr.ErrNotFound) {
			s.log.ErrorContext(ctx, "donation: issue convert token", "donation_id", donationID, "error", err)
		}
		return ""
	}
	return convertTokenOf(scope.OrgID, secret)
}

// convertTokenOf is the token of a convert-to-monthly secret stored with the organisation's donation.
func convertTokenOf(orgID uuid.UUID, secret []byte) string {
	return base64.RawURLEncoding.EncodeToString(append(orgID[:], secret...))
}

// convertSecret is a new convert token's random part.
func convertSecret() []byte {
	secret := make([]byte, convertSecretLen)
	_, _ = rand.Read(secret)
	return secret
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

func (s *Service) convertView(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*ConvertView, error) {
	d, err := scope.Store().DonationForConvert(ctx, sharddb.DonationForConvertParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return nil, err
	}
	return &ConvertView{UUID: id.String(), Recurrency: int(d.Recurrence), Amount: money.New(d.AmountMinor, d.Currency),
		CampaignTitle: d.Title,
		CampaignSlug:  d.Slug, CardBrand: d.Brand, CardLastFour: d.LastFour, FirstName: d.FirstName,
		Convertible: d.Recurrence == 0 && d.Status == "active" && d.PaymentMethodID != nil}, nil
}

// ConvertRequest is a convert-to-monthly link: /api/public/donations/:uuid/convert?token=. The id
// is text so that a malformed one is answered like any invalid link.
type ConvertRequest struct {
	ID    string `path:"uuid" json:"-"`
	Token string `query:"token" json:"-"`
}

// convertToken is a checked convert link: the donation's shard, id and the token's secret.
type convertToken struct {
	scope  tenants.Scope
	id     uuid.UUID
	secret []byte
}

// convertLink checks a convert request's link against the donation: unknown, forged and used
// tokens are a 404 that tells nothing, expired ones a 410.
func (h *Handler) convertLink(ctx context.Context, req *ConvertRequest) (convertToken, error) {
	invalid := apierror.New(http.StatusNotFound, "donation.convert_link_invalid")
	id, err := uuid.Parse(req.ID)
	b, derr := base64.RawURLEncoding.DecodeString(req.Token)
	if err != nil || derr != nil || len(b) != 16+convertSecretLen {
		return convertToken{}, invalid
	}
	orgID, _ := uuid.FromBytes(b[:16])
	scope, err := h.svc.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return convertToken{}, invalid
	}
	t := convertToken{scope: scope, id: id, secret: b[16:]}
	valid, err := scope.Store().ConvertTokenValid(ctx, sharddb.ConvertTokenValidParams{OrganizationID: scope.OrgID, ID: id,
		Secret: t.secret, Now: h.svc.now()})
	switch {
	case errors.Is(err, dberr.ErrNotFound):
		return t, invalid
	case err != nil:
		return t, err
	case !valid:
		return t, apierror.New(http.StatusGone, "donation.convert_link_expired")
	}
	return t, nil
}

// GetConvert answers GET /api/public/donations/:uuid/convert?token=.
func (h *Handler) GetConvert(ctx context.Context, req *ConvertRequest) (*ConvertView, error) {
	t, err := h.convertLink(ctx, req)
	if err != nil {
		return nil, err
	}
	return h.svc.convertView(ctx, t.scope, t.id)
}

// PostConvert answers POST /api/public/donations/:uuid/convert?token=: the one-time donation
// becomes monthly with its own donor and stored card (nothing is read from the body); the next
// charge is next month. The token is used up by the same statement, so it converts once.
func (h *Handler) PostConvert(ctx context.Context, req *ConvertRequest) (*ConvertView, error) {
	t, err := h.convertLink(ctx, req)
	if err != nil {
		return nil, err
	}
	scope, id := t.scope, t.id
	v, err := h.svc.convertView(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	if !v.Convertible {
		return nil, apierror.New(http.StatusConflict, "donation.not_convertible")
	}
	loc, err := orgLocation(ctx, scope)
	if err != nil {
		return nil, err
	}
	now := h.svc.now()
	today := now.In(loc)
	day := collectday.Of(today)
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		return q.WithRollup(ctx, scope.OrgID, []uuid.UUID{id}, func() error {
			_, err := q.ConvertToMonthly(ctx, sharddb.ConvertToMonthlyParams{OrganizationID: scope.OrgID, ID: id,
				CollectDay: day.Column(), NextChargeDate: day.After(today), Secret: t.secret, Now: now})
			return err
		})
	})
	if errors.Is(err, dberr.ErrNotFound) { // used by a concurrent request
		return nil, apierror.New(http.StatusNotFound, "donation.convert_link_invalid")
	}
	if err != nil {
		return nil, err
	}
	h.svc.first.StartCollection(ctx, scope.OrgID, id)
	return h.svc.convertView(ctx, scope, id)
}

func init() {
	i18n.Register(i18n.Catalog{
		"donation.convert_link_invalid": {i18n.ES: "El enlace no es válido o ya fue usado.", i18n.EN: "The link is not valid or was already used.", i18n.PT: "O link não é válido ou já foi usado."},
		"donation.convert_link_expired": {i18n.ES: "El enlace venció: era válido por 7 días.", i18n.EN: "The link has expired: it was valid for 7 days.", i18n.PT: "O link expirou: era válido por 7 dias."},
	})
}
