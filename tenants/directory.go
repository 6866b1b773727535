package tenants

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/sharddb"
)

// Organization is the directory's view of an organisation.
type Organization struct {
	ID        uuid.UUID
	Name      string
	Country   string
	Shard     string
	Status    string
	CreatedAt time.Time
}

// Route is where a public form's slug leads.
type Route struct {
	CampaignID     uuid.UUID
	OrganizationID uuid.UUID
	Country        string
}

// ErrNotFound is returned when a directory lookup finds nothing.
var ErrNotFound = errors.New("tenants: not found")

// CreateOrganization registers an organisation in the directory and creates its row in its country
// shard. Both writes are idempotent on the id, so a retry after a failure half way finishes the job.
func (t *Tenants) CreateOrganization(ctx context.Context, o Organization, timezone string) error {
	o.Country = strings.ToUpper(o.Country)
	if _, err := t.Shard(o.Country); err != nil {
		return err
	}
	if o.Status == "" {
		o.Status = "onboarding"
	}
	if err := t.dir().CreateDirectoryOrganization(ctx, dirdb.CreateDirectoryOrganizationParams{
		ID: o.ID, Name: o.Name, Country: o.Country, Shard: shardName(o.Country), Status: o.Status,
	}); err != nil {
		return fmt.Errorf("directory insert: %w", err)
	}
	scope, err := t.ForOrganization(ctx, o.ID)
	if err != nil {
		return err
	}
	if scope.Country != o.Country {
		return fmt.Errorf("tenants: organization %s already exists in %s", o.ID, scope.Country)
	}
	return scope.Store().CreateShardOrganization(ctx, sharddb.CreateShardOrganizationParams{
		OrganizationID: o.ID, Name: o.Name, Country: o.Country, Timezone: timezone, Status: o.Status,
	})
}

// GetOrganization reads an organisation from the directory.
func (t *Tenants) GetOrganization(ctx context.Context, id uuid.UUID) (Organization, error) {
	o, err := t.dir().DirectoryOrganization(ctx, id)
	if errors.Is(err, dberr.ErrNotFound) {
		return Organization{}, ErrUnknownOrganization
	}
	return Organization{ID: o.ID, Name: o.Name, Country: o.Country, Shard: o.Shard, Status: o.Status, CreatedAt: o.CreatedAt}, err
}

// AddPublicRoute publishes a slug for a campaign.
func (t *Tenants) AddPublicRoute(ctx context.Context, slug string, r Route) error {
	return t.dir().AddPublicRoute(ctx, dirdb.AddPublicRouteParams{
		Slug: slug, CampaignID: r.CampaignID, OrganizationID: r.OrganizationID, Country: r.Country,
	})
}

// RouteBySlug finds the organisation and shard behind a public slug.
func (t *Tenants) RouteBySlug(ctx context.Context, slug string) (Route, error) {
	r, err := t.dir().PublicRouteBySlug(ctx, slug)
	if errors.Is(err, dberr.ErrNotFound) {
		return Route{}, ErrNotFound
	}
	return Route(r), err
}

// dir is the generated directory store.
func (t *Tenants) dir() *dirdb.Queries { return dirdb.Store(t.directory) }

// shardName is the logical shard name stored in the directory; today one shard per country.
func shardName(country string) string { return "shard_" + strings.ToLower(country) }

// Membership is a user's place in an organisation.
type Membership struct {
	OrganizationID uuid.UUID
	Role           string
	Name           string
	Country        string
}

// AddMembership records that a user belongs to an organisation with a role.
func (t *Tenants) AddMembership(ctx context.Context, userID, orgID uuid.UUID, role string) error {
	return t.dir().AddMembership(ctx, dirdb.AddMembershipParams{UserID: userID, OrganizationID: orgID, Role: role})
}

// MembershipsOf lists the organisations a user belongs to, oldest first.
func (t *Tenants) MembershipsOf(ctx context.Context, userID uuid.UUID) ([]Membership, error) {
	rows, err := t.dir().ActiveMembershipsOfUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]Membership, len(rows))
	for i, r := range rows {
		out[i] = Membership(r)
	}
	return out, nil
}
