// Package campaign holds campaigns: the manage API (every field of the donor spec §3, form fields,
// cover, publish, QR) and the public read a donation form starts from.
package campaign

import (
	"context"
	"embed"
	"errors"

	"github.com/google/uuid"

	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// Public is what a donation form needs to render.
type Public struct {
	ID           uuid.UUID `json:"uuid"`
	Slug         string    `json:"slug"`
	Title        string    `json:"title"`
	Description  string    `json:"description"`
	Type         string    `json:"type"`
	Currency     string    `json:"currency"`
	Organization string    `json:"organization_name"`
	Country      string    `json:"country"`
}

// New is a campaign to create.
type New struct {
	ID          uuid.UUID
	Slug        string
	Title       string
	Description string
	Type        string
	Channel     string
	Published   bool
}

// Router is what the campaign handlers need from the tenancy layer.
type Router interface {
	RouteBySlug(ctx context.Context, slug string) (tenants.Route, error)
	ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	AddPublicRoute(ctx context.Context, slug string, r tenants.Route) error
}

// Service reads and writes campaigns in their organisation's shard.
type Service struct {
	tenants Router
	// LimitsOverride, when set, gives a form's donation limits from its gateway (ok=false: defaults).
	LimitsOverride func(ctx context.Context, f Form) (Limits, bool)
}

// NewService builds the service.
func NewService(r Router) *Service { return &Service{tenants: r} }

// ErrNotFound is returned for an unknown or unpublished campaign.
var ErrNotFound = errors.New("campaign: not found")

// Create stores a campaign in the organisation's shard and publishes its slug in the directory.
// Both steps are idempotent on the campaign id, so a retry completes a half-done creation.
func (s *Service) Create(ctx context.Context, orgID uuid.UUID, c New) error {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return err
	}
	if c.Channel == "" {
		c.Channel = "public"
	}
	if err := scope.Exec(ctx, queries.Get("CreateCampaign"), scope.OrgID, c.ID, c.Slug, c.Title, c.Description,
		c.Type, c.Channel, scope.Country, c.Published); err != nil {
		return err
	}
	err = s.tenants.AddPublicRoute(ctx, c.Slug, tenants.Route{CampaignID: c.ID, OrganizationID: orgID, Country: scope.Country})
	if err != nil {
		if existing, lookupErr := s.tenants.RouteBySlug(ctx, c.Slug); lookupErr == nil && existing.CampaignID == c.ID {
			return nil
		}
	}
	return err
}
