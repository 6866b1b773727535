// Package organization serves the organisation as the manage area sees it (§3 Organisation: data,
// documents by type, account state), the country data, and the organisation general page: data,
// logo and donor-contact consents (§2, §5, §6).
package organization

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/mail"
	"regexp"
	"strings"
	"time"
	_ "time/tzdata" // timezones validate without the host's zoneinfo

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/document"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

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
	LegalName             string                       `json:"legal_name"`
	Categories            []string                     `json:"categories"`
	Pictures              []Picture                    `json:"pictures"`
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
	p, err := scope.Store().OrganizationProfile(ctx, scope.OrgID)
	if err != nil {
		return Organization{}, err
	}
	o := Organization{
		ID: scope.OrgID, Name: p.Name, Country: p.Country, UIDType: p.UidType, UID: p.Uid, Timezone: p.Timezone,
		PlanCode: p.PlanCode, Status: p.Status, CreatedAt: p.CreatedAt,
		ShortDescription: p.ShortDescription, AllowedDomains: p.AllowedDomains,
		Permissions: Permissions{
			SuggestMonthlyRecurrence:  p.SuggestMonthlyRecurrence,
			ImproveDonationExperience: p.ImproveDonationExperience,
			RecoverRejectedDonations:  p.RecoverRejectedDonations,
		},
		OnboardingSteps: OnboardingSteps{Completed: p.OnboardingSteps, HasCampaigns: p.HasCampaigns},
	}
	_ = json.Unmarshal(p.Address, &o.Address)
	_ = json.Unmarshal(p.AdministrativeContact, &o.AdministrativeContact)
	if p.LogoKey != nil {
		u := LogoURL
		o.LogoURL = &u
	}
	o.OnboardingInProgress = o.Status != "enabled"
	if err := s.identity(ctx, scope, &o); err != nil {
		return o, err
	}
	ov, err := s.docs.Overview(ctx, scope, lang, url)
	if err != nil {
		return o, err
	}
	o.Documents, o.DocumentTypes, o.Account = ov.Documents, ov.DocumentTypes, ov.Account
	return o, nil
}

// Present renders the organisation for the manage area, in the request's language
// (document.Presenter).
func (s *Service) Present(ctx context.Context, scope tenants.Scope) (*Organization, error) {
	o, err := s.Get(ctx, scope, i18n.FromContext(ctx), document.ManageURL)
	if err != nil {
		return nil, err
	}
	return &o, nil
}

// Country is GET /manage/api/country (§3 Country data): the reference data and the documents the
// organisation must upload.
type Country struct {
	reference.Country
	Documents  []document.Requirement `json:"documents"`
	BankParams reference.BankParams   `json:"bank_params"` // the payout bank account form
}

// Update is PATCH /manage/organization; absent fields stay as they are.
type Update struct {
	LegalName             *string   `json:"legal_name"`
	Categories            *[]string `json:"categories"` // codes of the country data's categories
	ShortDescription      *string   `json:"short_description"`
	AllowedDomains        *string   `json:"allowed_domains"` // comma-separated domains
	Address               *Address  `json:"address"`
	AdministrativeContact *Contact  `json:"administrative_contact"`
	Timezone              *string   `json:"timezone"`
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
			fields["short_description"] = "organization.short_description_too_long"
		}
	}
	if u.AllowedDomains != nil {
		var ok bool
		if domains, ok = ParseDomains(*u.AllowedDomains); !ok {
			fields["allowed_domains"] = "organization.invalid_allowed_domains"
		}
	}
	if u.Timezone != nil && !ValidTimezone(*u.Timezone) {
		fields["timezone"] = "organization.invalid_timezone"
	}
	if c := u.AdministrativeContact; c != nil && strings.TrimSpace(c.Email) != "" {
		if a, err := mail.ParseAddress(c.Email); err != nil || a.Address != strings.TrimSpace(c.Email) {
			fields["administrative_contact.email"] = "organization.invalid_contact_email"
		}
	}
	if err := checkIdentity(ctx, scope.Store(), &u, fields); err != nil {
		return err
	}
	if len(fields) > 0 {
		return apierror.Validation(fields)
	}
	identity := sharddb.SetOrganizationIdentityParams{OrganizationID: scope.OrgID, LegalName: u.LegalName}
	if u.Categories != nil {
		identity.Categories = *u.Categories
		if identity.Categories == nil {
			identity.Categories = []string{}
		}
	}
	profile := sharddb.UpdateOrganizationProfileParams{
		OrganizationID: scope.OrgID, ShortDescription: u.ShortDescription, AllowedDomains: domains,
	}
	if u.Address != nil {
		profile.Address, _ = json.Marshal(u.Address)
	}
	if u.AdministrativeContact != nil {
		profile.AdministrativeContact, _ = json.Marshal(u.AdministrativeContact)
	}
	return s.editProfile(ctx, scope, func(store *sharddb.Queries) error {
		if err := store.UpdateOrganizationProfile(ctx, profile); err != nil {
			return err
		}
		if err := store.SetOrganizationIdentity(ctx, identity); err != nil {
			return err
		}
		if u.Timezone == nil {
			return nil
		}
		if err := store.UpdateOrganizationTimezone(ctx, sharddb.UpdateOrganizationTimezoneParams{OrganizationID: scope.OrgID, Timezone: *u.Timezone}); err != nil {
			return err
		}
		// The dashboard rollup counts days in the organisation's time zone.
		return store.RebuildRollup(ctx, scope.OrgID)
	})
}

// editProfile runs edit in a transaction, on a profile row created if missing.
func (s *Service) editProfile(ctx context.Context, scope tenants.Scope, edit func(*sharddb.Queries) error) error {
	return scope.Tx(ctx, func(tx pgx.Tx) error {
		store := sharddb.Store(tx)
		if err := store.EnsureOrganizationProfile(ctx, scope.OrgID); err != nil {
			return err
		}
		return edit(store)
	})
}

// PermissionsUpdate is PATCH /manage/organization/permissions; absent consents stay.
type PermissionsUpdate struct {
	SuggestMonthlyRecurrence  *bool `json:"suggest_monthly_recurrence"`
	ImproveDonationExperience *bool `json:"improve_donation_experience"`
	RecoverRejectedDonations  *bool `json:"recover_rejected_donations"`
}

// SetPermissions records the consents.
func (s *Service) SetPermissions(ctx context.Context, scope tenants.Scope, p PermissionsUpdate) error {
	return s.editProfile(ctx, scope, func(store *sharddb.Queries) error {
		return store.UpdateOrganizationPermissions(ctx, sharddb.UpdateOrganizationPermissionsParams{
			OrganizationID:            scope.OrgID,
			SuggestMonthlyRecurrence:  p.SuggestMonthlyRecurrence,
			ImproveDonationExperience: p.ImproveDonationExperience,
			RecoverRejectedDonations:  p.RecoverRejectedDonations,
		})
	})
}

// SetLogo validates an image by name and content (jpeg, jpg, png, gif under 5 MB), stores it and
// points the profile at it; the previous logo object is deleted after the commit.
func (s *Service) SetLogo(ctx context.Context, scope tenants.Scope, filename string, size int64, f interface {
	io.Reader
	io.ReaderAt
}) error {
	key, _, err := s.storeImage(ctx, scope, "logo", filename, size, f, invalidLogo)
	if err != nil {
		return err
	}
	var old *string
	err = s.editProfile(ctx, scope, func(store *sharddb.Queries) (err error) {
		old, err = store.SetOrganizationLogo(ctx, sharddb.SetOrganizationLogoParams{OrganizationID: scope.OrgID, LogoKey: key})
		return err
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

// Logo opens the organisation's logo; none is not found.
func (s *Service) Logo(ctx context.Context, scope tenants.Scope) (document.File, error) {
	key, err := scope.Store().OrganizationLogoKey(ctx, scope.OrgID)
	if errors.Is(err, dberr.ErrNotFound) || err == nil && key == nil {
		err = apierror.NotFound()
	}
	if err != nil {
		return document.File{}, err
	}
	r, err := s.bucket.NewReader(ctx, *key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return document.File{}, apierror.NotFound()
	}
	if err != nil {
		return document.File{}, err
	}
	f := document.File{Reader: r, ContentType: "application/octet-stream", Size: r.Size()}
	for kind, ext := range map[string]string{document.KindPNG: ".png", document.KindJPEG: ".jpg", document.KindGIF: ".gif"} {
		if strings.HasSuffix(*key, ext) {
			f.ContentType = document.ContentTypes[kind]
		}
	}
	return f, nil
}

func invalidLogo(status int) *apierror.Error {
	return &apierror.Error{Status: status, Code: "organization.invalid_logo", Fields: map[string]string{"logo": "organization.invalid_logo"}}
}

func init() {
	i18n.Register(i18n.Catalog{
		"organization.invalid_logo": {
			i18n.ES: "El logo debe ser una imagen JPEG, JPG, PNG o GIF de menos de 5 MB.",
			i18n.EN: "The logo must be a JPEG, JPG, PNG or GIF image under 5 MB.",
			i18n.PT: "O logo deve ser uma imagem JPEG, JPG, PNG ou GIF com menos de 5 MB.",
		},
		"organization.short_description_too_long": {
			i18n.ES: "La descripción corta puede tener hasta 500 caracteres.",
			i18n.EN: "The short description can have up to 500 characters.",
			i18n.PT: "A descrição curta pode ter até 500 caracteres.",
		},
		"organization.invalid_allowed_domains": {
			i18n.ES:   "Ingresa solo dominios separados por comas (por ejemplo: fundacion.org, donar.fundacion.org).",
			i18n.ESAR: "Ingresá solo dominios separados por comas (por ejemplo: fundacion.org, donar.fundacion.org).",
			i18n.EN:   "Enter domains only, separated by commas (for example: foundation.org, give.foundation.org).",
			i18n.PT:   "Informe apenas domínios separados por vírgulas (por exemplo: fundacao.org, doar.fundacao.org).",
		},
		"organization.invalid_timezone": {
			i18n.ES:   "Elige una zona horaria válida.",
			i18n.ESAR: "Elegí una zona horaria válida.",
			i18n.EN:   "Choose a valid time zone.",
			i18n.PT:   "Escolha um fuso horário válido.",
		},
		"organization.invalid_contact_email": {
			i18n.ES: "El e-mail del contacto administrativo no es válido.",
			i18n.EN: "The administrative contact's e-mail is not valid.",
			i18n.PT: "O e-mail do contato administrativo não é válido.",
		},
	})
}
