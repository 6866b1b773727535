// Package campaign holds campaigns: the manage API (every field of the donor spec §3, form fields,
// cover, publish, QR) and the public read a donation form starts from.
package campaign

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

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

// Service reads and writes campaigns in their organisation's shard. Its exported methods take an
// organisation id, for other packages (donations, the seed, benches); the endpoints call the
// unexported ones with the scope authz.Require resolved.
type Service struct {
	tenants Router
	// Accounts finds the gateway account a form takes donations with: its limits, card brands and
	// public key come from it, and without one the form is closed (gateway_missing). Nil: none.
	Accounts AccountSource
	// Tokenizers are where browsers tokenise cards, by gateway (the gateway's own origin).
	Tokenizers map[string]string
	// Vault is the card vault browsers also tokenise a card at when a global processor retries the
	// campaign's declined charges (Account.Retried).
	Vault Vault
	Log   *slog.Logger // slog.Default() when nil
	// Now is the clock the public read's kept answers age by (PublicRecheck); time.Now when nil.
	Now func() time.Time

	public publicForms // the public read's answers (publiccache.go)
}

// NewService builds the service.
func NewService(r Router) *Service { return &Service{tenants: r} }

// ErrNotFound is an unknown or unpublished campaign: dberr's, so the API answers it as 404.
var ErrNotFound = dberr.ErrNotFound

// Create stores a campaign in the organisation's shard and publishes its slug in the directory.
func (s *Service) Create(ctx context.Context, orgID uuid.UUID, c New) error {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return err
	}
	return s.create(ctx, scope, c)
}

// create is Create on a resolved scope. Both steps are idempotent on the campaign id, so a retry
// completes a half-done creation; a slug already taken is a *dberr.Conflict.
func (s *Service) create(ctx context.Context, scope tenants.Scope, c New) error {
	if c.Channel == "" {
		c.Channel = "public"
	}
	err := scope.Store().CreateCampaign(ctx, sharddb.CreateCampaignParams{OrganizationID: scope.OrgID, ID: c.ID,
		Slug: c.Slug, Title: c.Title, Description: c.Description, Type: c.Type, Channel: c.Channel,
		Country: scope.Country, Published: c.Published})
	if err != nil {
		return err
	}
	if err := crmlink.Enqueue(ctx, scope.Store(), scope.OrgID, crmlink.Campaign, c.ID); err != nil {
		return err // a retry creates nothing twice and queues the sync again
	}
	return s.addRoute(ctx, scope, c.ID, c.Slug)
}

// addRoute writes the campaign's public route in the directory; a route that is already this
// campaign's is fine.
func (s *Service) addRoute(ctx context.Context, scope tenants.Scope, id uuid.UUID, slug string) error {
	err := s.tenants.AddPublicRoute(ctx, slug, tenants.Route{CampaignID: id, OrganizationID: scope.OrgID, Country: scope.Country})
	if err == nil {
		return nil
	}
	if existing, lookupErr := s.tenants.RouteBySlug(ctx, slug); lookupErr == nil && existing.CampaignID == id {
		return nil
	}
	return dberr.Map(err)
}
