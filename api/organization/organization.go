// Package organization serves the organisation as the manage area sees it (§3 Organisation: data,
// documents by type, account state), the country data, and the organisation general page: data,
// logo and donor-contact consents (§2, §5, §6).
package organization

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"regexp"
	"strings"
	"time"
	_ "time/tzdata" // timezones validate without the host's zoneinfo

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/document"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// Limits (§5, §9).
const (
	MaxDescription = 500
	MaxLogoBytes   = 5 << 20 // under 5 MB
	LogoURL        = "/manage/api/organization/logo"
)

// Permissions are the donor-contact consents the organisation gives Aporta (§6).
type Permissions struct {
	SuggestMonthlyRecurrence  bool `json:"suggest_monthly_recurrence"`
	ImproveDonationExperience bool `json:"improve_donation_experience"`
	RecoverRejectedDonations  bool `json:"recover_rejected_donations"`
}

// Address is the organisation's postal address.
type Address struct {
	Street     string `json:"street"`
	Number     string `json:"number"`
	City       string `json:"city"`
	State      string `json:"state"`
	PostalCode string `json:"postal_code"`
}

// Contact is the administrative contact.
type Contact struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Phone string `json:"phone"`
}

// OnboardingSteps is what the step bar and the campaign guide read.
type OnboardingSteps struct {
	Completed    []string `json:"completed"`
	HasCampaigns bool     `json:"has_campaigns"`
}

// Organization is GET /manage/api/organization.
type Organization struct {
	ID                    uuid.UUID                    `json:"id"`
	Name                  string                       `json:"name"`
	Country               string                       `json:"country"`
	UIDType               string                       `json:"uid_type"`
	UID                   string                       `json:"uid"`
	Timezone              string                       `json:"timezone"`
	PlanCode              string                       `json:"plan_code"`
	Status                string                       `json:"status"`
	CreatedAt             time.Time                    `json:"created_at"`
	ShortDescription      string                       `json:"short_description"`
	AllowedDomains        []string                     `json:"allowed_domains"`
	Address               Address                      `json:"address"`
	AdministrativeContact Contact                      `json:"administrative_contact"`
	LogoURL               *string                      `json:"logo_url"`
	Permissions           Permissions                  `json:"permissions"`
	OnboardingSteps       OnboardingSteps              `json:"onboarding_steps"`
	OnboardingInProgress  bool                         `json:"onboarding_in_progress"`
	Documents             map[string]document.Document `json:"documents"`
	DocumentTypes         []string                     `json:"document_types"`
	Account               document.Account             `json:"account"`
}

// Service reads and writes the organisation in its shard.
type Service struct {
	docs   *document.Service
	bucket *blob.Bucket
}

// NewService builds the service.
func NewService(d *document.Service, b *blob.Bucket) *Service { return &Service{docs: d, bucket: b} }

// Get builds the organisation with its documents; url makes attachment links for the viewer.
func (s *Service) Get(ctx context.Context, scope tenants.Scope, lang i18n.Lang, url document.URLFunc) (Organization, error) {
	o := Organization{ID: scope.OrgID}
	var address, contact []byte
	var logo *string
	err := scope.QueryRow(ctx, queries.Get("GetOrganization"), scope.OrgID).Scan(
		&o.Name, &o.Country, &o.UIDType, &o.UID, &o.Timezone, &o.PlanCode, &o.Status,
		&o.OnboardingSteps.Completed, &o.CreatedAt,
		&o.ShortDescription, &o.AllowedDomains, &address, &contact, &logo,
		&o.Permissions.SuggestMonthlyRecurrence, &o.Permissions.ImproveDonationExperience,
		&o.Permissions.RecoverRejectedDonations, &o.OnboardingSteps.HasCampaigns)
	if errors.Is(err, pgx.ErrNoRows) {
		return o, apierror.NotFound()
	}
	if err != nil {
		return o, err
	}
	_ = json.Unmarshal(address, &o.Address)
	_ = json.Unmarshal(contact, &o.AdministrativeContact)
	if logo != nil {
		u := LogoURL
		o.LogoURL = &u
	}
	o.OnboardingInProgress = o.Status != "enabled"
	ov, err := s.docs.Overview(ctx, scope, lang, url)
	if err != nil {
		return o, err
	}
	o.Documents, o.DocumentTypes, o.Account = ov.Documents, ov.DocumentTypes, ov.Account
	return o, nil
}

// Present renders the organisation for the manage area (document.Presenter).
func (s *Service) Present(c *gin.Context, scope tenants.Scope) (any, error) {
	return s.Get(c.Request.Context(), scope, apierror.Lang(c), document.ManageURL)
}

// Country is GET /manage/api/country (§3 Country data): the reference data and the documents the
// organisation must upload.
type Country struct {
	reference.Country
	Documents []document.Requirement `json:"documents"`
}

// Update is PATCH /manage/organization; absent fields stay as they are.
type Update struct {
	ShortDescription      *string  `json:"short_description"`
	AllowedDomains        *string  `json:"allowed_domains"` // comma-separated domains
	Address               *Address `json:"address"`
	AdministrativeContact *Contact `json:"administrative_contact"`
	Timezone              *string  `json:"timezone"`
}

var domainRe = regexp.MustCompile(`^(?i)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.[a-z]{2,63}$`)

// ParseDomains splits "a.org, b.com" into domains; anything but bare domains fails (§5).
func ParseDomains(s string) ([]string, bool) {
	out := []string{}
	if strings.TrimSpace(s) == "" {
		return out, true
	}
	for _, d := range strings.Split(s, ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		if len(d) > 253 || !domainRe.MatchString(d) {
			return nil, false
		}
		out = append(out, d)
	}
	return out, true
}

// ValidTimezone accepts IANA names only.
func ValidTimezone(tz string) bool {
	if tz == "" || tz == "Local" || strings.EqualFold(tz, "utc") && tz != "UTC" {
		return false
	}
	_, err := time.LoadLocation(tz)
	return err == nil
}

// Patch validates and applies an update.
func (s *Service) Patch(ctx context.Context, scope tenants.Scope, u Update) error {
	fields := map[string]string{}
	var domains []string
	if u.ShortDescription != nil {
		*u.ShortDescription = strings.TrimSpace(*u.ShortDescription)
		if len([]rune(*u.ShortDescription)) > MaxDescription {
			fields["short_description"] = "short_description_too_long"
		}
	}
	if u.AllowedDomains != nil {
		var ok bool
		if domains, ok = ParseDomains(*u.AllowedDomains); !ok {
			fields["allowed_domains"] = "invalid_allowed_domains"
		}
	}
	if u.Timezone != nil && !ValidTimezone(*u.Timezone) {
		fields["timezone"] = "invalid_timezone"
	}
	if c := u.AdministrativeContact; c != nil && strings.TrimSpace(c.Email) != "" {
		if a, err := mail.ParseAddress(c.Email); err != nil || a.Address != strings.TrimSpace(c.Email) {
			fields["administrative_contact.email"] = "email_invalid_contact"
		}
	}
	if len(fields) > 0 {
		return apierror.Validation(fields)
	}
	var address, contact []byte
	if u.Address != nil {
		address, _ = json.Marshal(u.Address)
	}
	if u.AdministrativeContact != nil {
		contact, _ = json.Marshal(u.AdministrativeContact)
	}
	return scope.Tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, queries.Get("EnsureProfile"), scope.OrgID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, queries.Get("UpdateProfile"), scope.OrgID, u.ShortDescription, domainsArg(u.AllowedDomains, domains), address, contact); err != nil {
			return err
		}
		if u.Timezone != nil {
			if _, err := tx.Exec(ctx, queries.Get("UpdateTimezone"), scope.OrgID, *u.Timezone); err != nil {
				return err
			}
		}
		return nil
	})
}

func domainsArg(given *string, domains []string) any {
	if given == nil {
		return nil
	}
	return domains
}

// PermissionsUpdate is PATCH /manage/organization/permissions; absent consents stay.
type PermissionsUpdate struct {
	SuggestMonthlyRecurrence  *bool `json:"suggest_monthly_recurrence"`
	ImproveDonationExperience *bool `json:"improve_donation_experience"`
	RecoverRejectedDonations  *bool `json:"recover_rejected_donations"`
}

// SetPermissions records the consents.
func (s *Service) SetPermissions(ctx context.Context, scope tenants.Scope, p PermissionsUpdate) error {
	return scope.Tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, queries.Get("EnsureProfile"), scope.OrgID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, queries.Get("UpdatePermissions"), scope.OrgID,
			p.SuggestMonthlyRecurrence, p.ImproveDonationExperience, p.RecoverRejectedDonations)
		return err
	})
}

// SetLogo validates an image by name and content (jpeg, jpg, png, gif under 5 MB), stores it and
// points the profile at it; the previous logo object is deleted after the commit.
func (s *Service) SetLogo(ctx context.Context, scope tenants.Scope, filename string, size int64, f interface {
	io.Reader
	io.ReaderAt
}) error {
	if size <= 0 || size >= MaxLogoBytes {
		return invalidLogo(http.StatusRequestEntityTooLarge)
	}
	kind, ok := document.KindOf(filename, document.ImageExtensions, f, size)
	if !ok {
		return invalidLogo(http.StatusUnprocessableEntity)
	}
	ext := "." + kind
	if kind == document.KindJPEG {
		ext = ".jpg"
	}
	key := fmt.Sprintf("organizations/%s/logo/%s%s", scope.OrgID, uuid.New(), ext)
	err := s.bucket.Upload(ctx, key, io.NewSectionReader(f, 0, size), &blob.WriterOptions{ContentType: document.ContentTypes[kind]})
	if err != nil {
		return fmt.Errorf("store logo: %w", err)
	}
	var old *string
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, queries.Get("EnsureProfile"), scope.OrgID); err != nil {
			return err
		}
		return tx.QueryRow(ctx, queries.Get("SetLogo"), scope.OrgID, key).Scan(&old)
	})
	if err != nil {
		_ = s.bucket.Delete(context.WithoutCancel(ctx), key)
		return err
	}
	if old != nil && *old != key {
		_ = s.bucket.Delete(context.WithoutCancel(ctx), *old)
	}
	return nil
}

func invalidLogo(status int) *apierror.Error {
	return &apierror.Error{Status: status, Code: "invalid_logo", Fields: map[string]string{"logo": "invalid_logo"}}
}

// Handler serves the organisation routes.
type Handler struct{ svc *Service }

// NewHandler builds the handler.
func NewHandler(s *Service) *Handler { return &Handler{svc: s} }

func (h *Handler) scope(c *gin.Context) (tenants.Scope, error) {
	return h.svc.docs.Scope(c.Request.Context(), authz.Organization(c).OrganizationID)
}

func (h *Handler) respond(c *gin.Context, scope tenants.Scope) {
	o, err := h.svc.Present(c, scope)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, o)
}

// Get is GET /manage/api/organization.
func (h *Handler) Get(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope)
}

// Country is GET /manage/api/country: the current organisation's country.
func (h *Handler) Country(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := c.Request.Context()
	var out Country
	if out.Country, err = reference.Get(ctx, scope.Store(), scope.Country); err != nil {
		apierror.Abort(c, err)
		return
	}
	if out.Documents, err = h.svc.docs.Requirements(ctx, scope, apierror.Lang(c)); err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// Patch is PATCH /manage/organization.
func (h *Handler) Patch(c *gin.Context) {
	var in Update
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if err := h.svc.Patch(c.Request.Context(), scope, in); err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope)
}

// PatchPermissions is PATCH /manage/organization/permissions.
func (h *Handler) PatchPermissions(c *gin.Context) {
	var in PermissionsUpdate
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if err := h.svc.SetPermissions(c.Request.Context(), scope, in); err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope)
}

// PutLogo is PUT /manage/organization/logo (multipart field "logo").
func (h *Handler) PutLogo(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	f, fh, err := document.Multipart(c, "logo")
	if c.Request.MultipartForm != nil {
		defer c.Request.MultipartForm.RemoveAll()
	}
	if err != nil {
		var e *apierror.Error
		if errors.As(err, &e) && e.Code == "invalid_file" {
			err = invalidLogo(e.Status)
		}
		apierror.Abort(c, err)
		return
	}
	defer f.Close()
	if err := h.svc.SetLogo(c.Request.Context(), scope, fh.Filename, fh.Size, f); err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope)
}

// GetLogo is GET /manage/api/organization/logo.
func (h *Handler) GetLogo(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := c.Request.Context()
	var key *string
	if err := scope.QueryRow(ctx, queries.Get("GetLogoKey"), scope.OrgID).Scan(&key); err != nil || key == nil {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	r, err := h.svc.bucket.NewReader(ctx, *key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	defer r.Close()
	ct := "application/octet-stream"
	for kind, ext := range map[string]string{document.KindPNG: ".png", document.KindJPEG: ".jpg", document.KindGIF: ".gif"} {
		if strings.HasSuffix(*key, ext) {
			ct = document.ContentTypes[kind]
		}
	}
	c.Header("X-Content-Type-Options", "nosniff")
	c.Header("Cache-Control", "private, max-age=300")
	c.DataFromReader(http.StatusOK, r.Size(), ct, r, nil)
}

// Routes mounts the routes. manage is /manage/api; page is /manage (CSRF + session, default body
// limit); uploads is /manage with the same guards and an upload body limit.
func (h *Handler) Routes(manage, page, uploads *gin.RouterGroup, az *authz.Authz) {
	manage.GET("/organization", az.Require(authz.View), h.Get)
	manage.GET("/organization/logo", az.Require(authz.View), h.GetLogo)
	manage.GET("/country", az.Require(authz.View), h.Country)
	page.PATCH("/organization", az.Require(authz.ManageOrganization), h.Patch)
	page.PATCH("/organization/permissions", az.Require(authz.ManageOrganization), h.PatchPermissions)
	uploads.PUT("/organization/logo", az.Require(authz.ManageOrganization), h.PutLogo)
}

func init() {
	i18n.Register(i18n.Catalog{
		"invalid_logo": {
			i18n.ES: "El logo debe ser una imagen JPEG, JPG, PNG o GIF de menos de 5 MB.",
			i18n.EN: "The logo must be a JPEG, JPG, PNG or GIF image under 5 MB.",
			i18n.PT: "O logo deve ser uma imagem JPEG, JPG, PNG ou GIF com menos de 5 MB.",
		},
		"short_description_too_long": {
			i18n.ES: "La descripción corta puede tener hasta 500 caracteres.",
			i18n.EN: "The short description can have up to 500 characters.",
			i18n.PT: "A descrição curta pode ter até 500 caracteres.",
		},
		"invalid_allowed_domains": {
			i18n.ES: "Ingresa solo dominios separados por comas (por ejemplo: fundacion.org, donar.fundacion.org).",
			i18n.EN: "Enter domains only, separated by commas (for example: foundation.org, give.foundation.org).",
			i18n.PT: "Informe apenas domínios separados por vírgulas (por exemplo: fundacao.org, doar.fundacao.org).",
		},
		"invalid_timezone": {
			i18n.ES: "Elige una zona horaria válida.",
			i18n.EN: "Choose a valid time zone.",
			i18n.PT: "Escolha um fuso horário válido.",
		},
		"email_invalid_contact": {
			i18n.ES: "El e-mail del contacto administrativo no es válido.",
			i18n.EN: "The administrative contact's e-mail is not valid.",
			i18n.PT: "O e-mail do contato administrativo não é válido.",
		},
	})
}
