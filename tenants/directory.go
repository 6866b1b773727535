package tenants

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
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
	if _, err := t.directory.Exec(ctx, queries.Get("CreateOrganization"),
		o.ID, o.Name, o.Country, shardName(o.Country), o.Status); err != nil {
		return fmt.Errorf("directory insert: %w", err)
	}
	scope, err := t.ForOrganization(ctx, o.ID)
	if err != nil {
		return err
	}
	if scope.Country != o.Country {
		return fmt.Errorf("tenants: organization %s already exists in %s", o.ID, scope.Country)
	}
	return scope.Exec(ctx, queries.Get("CreateShardOrganization"), o.ID, o.Name, o.Country, timezone, o.Status)
}

// GetOrganization reads an organisation from the directory.
func (t *Tenants) GetOrganization(ctx context.Context, id uuid.UUID) (Organization, error) {
	var o Organization
	err := t.directory.QueryRow(ctx, queries.Get("GetOrganization"), id).
		Scan(&o.ID, &o.Name, &o.Country, &o.Shard, &o.Status, &o.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return o, ErrUnknownOrganization
	}
	return o, err
}

// AddPublicRoute publishes a slug for a campaign.
func (t *Tenants) AddPublicRoute(ctx context.Context, slug string, r Route) error {
	_, err := t.directory.Exec(ctx, queries.Get("AddPublicRoute"), slug, r.CampaignID, r.OrganizationID, r.Country)
	return err
}

// RouteBySlug finds the organisation and shard behind a public slug.
func (t *Tenants) RouteBySlug(ctx context.Context, slug string) (Route, error) {
	var r Route
	err := t.directory.QueryRow(ctx, queries.Get("RouteBySlug"), slug).Scan(&r.CampaignID, &r.OrganizationID, &r.Country)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, ErrNotFound
	}
	return r, err
}

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
	_, err := t.directory.Exec(ctx, queries.Get("AddMembership"), userID, orgID, role)
	return err
}

// MembershipsOf lists the organisations a user belongs to, oldest first.
func (t *Tenants) MembershipsOf(ctx context.Context, userID uuid.UUID) ([]Membership, error) {
	rows, err := t.directory.Query(ctx, queries.Get("MembershipsOfUser"), userID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Membership, error) {
		var m Membership
		err := r.Scan(&m.OrganizationID, &m.Role, &m.Name, &m.Country)
		return m, err
	})
}
