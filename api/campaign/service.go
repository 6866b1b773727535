package campaign

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/text/unicode/norm"

	"github.com/aporta/aporta/tenants"
)

// PlanOriginal is the plan without QR, immediate charge and global payments (organisation spec).
const PlanOriginal = "original"

// Org is what campaign rules need from the organisation's shard row.
type Org struct {
	ID       uuid.UUID
	PlanCode string
	Status   string // onboarding, verifying, enabled, disabled
	Timezone string
	Country  string
	Name     string
	// AcceptingDonations is false after a trial ended without a plan (workflows/subscription).
	AcceptingDonations bool
}

// Enabled reports whether the organisation's account is activated.
func (o Org) Enabled() bool { return o.Status == "enabled" }

// OnOriginalPlan reports whether the organisation is on the Original plan.
func (o Org) OnOriginalPlan() bool { return o.PlanCode == PlanOriginal }

// Organization reads the organisation's plan, status and timezone.
func (s *Service) Organization(ctx context.Context, scope tenants.Scope) (Org, error) {
	o := Org{ID: scope.OrgID}
	err := scope.QueryRow(ctx, queries.Get("OrganizationPlan"), scope.OrgID).
		Scan(&o.PlanCode, &o.Status, &o.Timezone, &o.Country, &o.Name, &o.AcceptingDonations)
	if errors.Is(err, pgx.ErrNoRows) {
		return o, ErrNotFound
	}
	if o.Timezone == "" {
		o.Timezone = "UTC"
	}
	return o, err
}

func scanCampaign(row pgx.Row) (*Campaign, error) {
	c := &Campaign{}
	var upgradePeriod *int
	err := row.Scan(&c.ID, &c.Slug, &c.Title, &c.Description, &c.Objective, &c.Type, &c.Channel, &c.Currency, &c.Country,
		&c.Published, &c.PublishedAt, &c.amounts, &c.AllowOneTime, &c.AllowOtherAmount, &c.minOther, &c.Instalments,
		&c.FormColor, &c.coverKey, &c.EndsAt, &c.PeriodicIncrease.Enabled, &c.PeriodicIncrease.Percentage, &upgradePeriod,
		&c.PeriodicIncrease.MinPercentage, &c.PeriodicIncrease.MaxPercentage, &c.Analytics.PixelID, &c.Analytics.AnalyticsID,
		&c.Analytics.TagManagerID, &c.Thanks.Instant, &c.Thanks.EmailSubject, &c.Thanks.Email, &c.ImmediateCharge,
		&c.Event, &c.FormFields, &c.CreatedAt, &c.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	c.PeriodicIncrease.PeriodMonths = upgradePeriod
	c.fill()
	return c, nil
}

// Get reads one campaign of the organisation; another organisation's id is ErrNotFound.
func (s *Service) Get(ctx context.Context, orgID, id uuid.UUID) (*Campaign, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return scanCampaign(scope.QueryRow(ctx, queries.Get("CampaignByID"), orgID, id))
}

// List returns a page of the organisation's campaigns, newest first, and the total.
func (s *Service) List(ctx context.Context, orgID uuid.UUID, limit, offset int) ([]*Campaign, int, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, 0, err
	}
	var total int
	if err := scope.QueryRow(ctx, queries.Get("CountCampaigns"), orgID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := scope.Query(ctx, queries.Get("ListCampaigns"), orgID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []*Campaign{}
	for rows.Next() {
		c, err := scanCampaign(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, c)
	}
	return out, total, rows.Err()
}

// ErrPlan is returned when the organisation's plan does not include a feature.
var ErrPlan = errors.New("campaign: not in the organisation's plan")

// ErrSlugTaken is returned when a chosen slug is already used by any campaign.
var ErrSlugTaken = errors.New("campaign: slug taken")

// CreateFromInput validates in and creates the campaign (unpublished) with all its settings.
func (s *Service) CreateFromInput(ctx context.Context, orgID uuid.UUID, in Input) (*Campaign, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	org, err := s.Organization(ctx, scope)
	if err != nil {
		return nil, err
	}
	if in.Channel == "" {
		in.Channel = "public"
	}
	currency, err := s.currencyOf(ctx, scope)
	if err != nil {
		return nil, err
	}
	ch, err := validate(in, currency)
	if err != nil {
		return nil, err
	}
	if ch.ImmediateCharge && org.OnOriginalPlan() {
		return nil, ErrPlan
	}
	slug := strings.TrimSpace(in.Slug)
	if slug != "" && !slugRe.MatchString(slug) {
		return nil, errBadSlug
	}
	chosen := slug != ""
	if !chosen {
		slug = Slugify(ch.Title)
	}
	id := uuid.New()
	for attempt := 0; ; attempt++ {
		if _, taken := s.tenants.RouteBySlug(ctx, slug); taken == nil {
			if chosen {
				return nil, ErrSlugTaken
			}
			slug = Slugify(ch.Title) + "-" + randomSuffix()
			continue
		}
		err = s.Create(ctx, orgID, New{ID: id, Slug: slug, Title: ch.Title, Description: ch.Description, Type: ch.Type, Channel: ch.Channel})
		if err == nil {
			break
		}
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
			return nil, err
		}
		if chosen {
			return nil, ErrSlugTaken
		}
		if attempt > 5 {
			return nil, err
		}
		// The slug is taken (here or in another organisation): the campaign row may exist already
		// with this id; a fresh id and slug start over cleanly.
		id, slug = uuid.New(), Slugify(ch.Title)+"-"+randomSuffix()
	}
	if err := s.save(ctx, scope, id, ch); err != nil {
		return nil, err
	}
	return s.Get(ctx, orgID, id)
}

// Update applies patch to the current settings, validates the result and saves it.
func (s *Service) Update(ctx context.Context, orgID, id uuid.UUID, patch func(*Input) error) (*Campaign, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	cur, err := scanCampaign(scope.QueryRow(ctx, queries.Get("CampaignByID"), orgID, id))
	if err != nil {
		return nil, err
	}
	in := cur.Input
	if err := patch(&in); err != nil {
		return nil, err
	}
	in.Slug = cur.Slug // the public link never changes
	ch, err := validate(in, cur.Currency)
	if err != nil {
		return nil, err
	}
	if ch.ImmediateCharge && !cur.ImmediateCharge {
		org, err := s.Organization(ctx, scope)
		if err != nil {
			return nil, err
		}
		if org.OnOriginalPlan() {
			return nil, ErrPlan
		}
	}
	if err := s.save(ctx, scope, id, ch); err != nil {
		return nil, err
	}
	return s.Get(ctx, orgID, id)
}

func (s *Service) save(ctx context.Context, scope tenants.Scope, id uuid.UUID, ch checked) error {
	p := ch.PeriodicIncrease
	amounts := ch.amounts
	if amounts == nil {
		amounts = []storedAmount{}
	}
	return scope.Exec(ctx, queries.Get("UpdateCampaign"), scope.OrgID, id, ch.Title, ch.Description, ch.Objective,
		ch.Type, ch.Channel, amounts, ch.AllowOneTime, ch.AllowOtherAmount, ch.minOther, ch.Instalments, ch.FormColor,
		ch.EndsAt, p.Enabled, p.Percentage, p.PeriodMonths, p.MinPercentage, p.MaxPercentage, ch.Analytics.PixelID,
		ch.Analytics.AnalyticsID, ch.Analytics.TagManagerID, ch.Thanks.Instant, ch.Thanks.EmailSubject, ch.Thanks.Email,
		ch.ImmediateCharge, ch.Event, normalizeFields(ch.FormFields))
}

// SetFormFields replaces the ordered list of form fields.
func (s *Service) SetFormFields(ctx context.Context, orgID, id uuid.UUID, ff []FormField) (*Campaign, error) {
	return s.Update(ctx, orgID, id, func(in *Input) error { in.FormFields = ff; return nil })
}

// ErrNotEnabled is returned when publishing for an organisation whose account is not activated.
var ErrNotEnabled = errors.New("campaign: organisation not enabled")

// MissingInfoError lists what a campaign lacks before it can be published.
type MissingInfoError struct{ Fields map[string]string }

func (e *MissingInfoError) Error() string { return fmt.Sprintf("campaign: missing %v", e.Fields) }

// SetPublished publishes or unpublishes. Publishing needs the required information and an
// enabled organisation.
func (s *Service) SetPublished(ctx context.Context, orgID, id uuid.UUID, published bool) (*Campaign, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	cur, err := scanCampaign(scope.QueryRow(ctx, queries.Get("CampaignByID"), orgID, id))
	if err != nil {
		return nil, err
	}
	if published {
		if missing := missingForPublish(cur); len(missing) > 0 {
			return nil, &MissingInfoError{Fields: missing}
		}
		org, err := s.Organization(ctx, scope)
		if err != nil {
			return nil, err
		}
		if !org.Enabled() {
			return nil, ErrNotEnabled
		}
		// The directory route is written at creation; make sure a half-done creation has it.
		err = s.tenants.AddPublicRoute(ctx, cur.Slug, tenants.Route{CampaignID: id, OrganizationID: orgID, Country: scope.Country})
		if err != nil {
			if r, lookupErr := s.tenants.RouteBySlug(ctx, cur.Slug); lookupErr != nil || r.CampaignID != id {
				return nil, err
			}
		}
	}
	if err := scope.Exec(ctx, queries.Get("SetPublished"), orgID, id, published); err != nil {
		return nil, err
	}
	return s.Get(ctx, orgID, id)
}

// Form is a published campaign with its organisation, for the public form and donations.
type Form struct {
	Campaign *Campaign
	Org      Org
	Scope    tenants.Scope
}

// FormBySlug finds a published campaign through the directory's public route.
func (s *Service) FormBySlug(ctx context.Context, slug string) (Form, error) {
	route, err := s.tenants.RouteBySlug(ctx, slug)
	if errors.Is(err, tenants.ErrNotFound) {
		return Form{}, ErrNotFound
	}
	if err != nil {
		return Form{}, err
	}
	scope, err := s.tenants.ForOrganization(ctx, route.OrganizationID)
	if err != nil {
		return Form{}, err
	}
	c, err := scanCampaign(scope.QueryRow(ctx, queries.Get("CampaignByID"), scope.OrgID, route.CampaignID))
	if err != nil {
		return Form{}, err
	}
	if !c.Published {
		return Form{}, ErrNotFound
	}
	org, err := s.Organization(ctx, scope)
	if err != nil {
		return Form{}, err
	}
	return Form{Campaign: c, Org: org, Scope: scope}, nil
}

// CountVisit adds one visit to today's count (in the organisation's timezone).
func (s *Service) CountVisit(ctx context.Context, f Form) error {
	return f.Scope.Exec(ctx, queries.Get("CountVisit"), f.Scope.OrgID, f.Campaign.ID, f.Org.Timezone)
}

// SaveLead records (or refreshes) a person who typed a valid e-mail but did not finish.
// Leads older than 90 days are purged on the way.
func (s *Service) SaveLead(ctx context.Context, f Form, email, firstName string) error {
	return f.Scope.Tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, queries.Get("PurgeLeads"), f.Scope.OrgID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, queries.Get("UpsertLead"), f.Scope.OrgID, uuid.New(), f.Campaign.ID, email, firstName)
		return err
	})
}

func (s *Service) currencyOf(ctx context.Context, scope tenants.Scope) (string, error) {
	var currency string
	err := scope.QueryRow(ctx, "SELECT currency FROM countries WHERE code = $1", scope.Country).Scan(&currency)
	return currency, err
}

var (
	slugRe     = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{1,78}[a-z0-9])$`)
	errBadSlug = errors.New("campaign: bad slug")
	nonSlug    = regexp.MustCompile(`[^a-z0-9]+`)
)

// Slugify makes a URL slug from a title: lowercase ASCII, accents dropped, dashes between words.
func Slugify(title string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(title)) {
		if r < 128 {
			b.WriteRune(r)
		}
	}
	s := strings.Trim(nonSlug.ReplaceAllString(b.String(), "-"), "-")
	if len(s) > 60 {
		s = strings.TrimRight(s[:60], "-")
	}
	if len(s) < 3 {
		s = "campana-" + randomSuffix()
	}
	return s
}

func randomSuffix() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
