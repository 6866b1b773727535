package campaign

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"golang.org/x/text/unicode/norm"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/plans"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// The service's refusals, as the API answers them.
var (
	errPlan       = apierror.New(http.StatusForbidden, "campaign.plan_required")
	errNotEnabled = apierror.New(http.StatusConflict, "campaign.org_not_enabled")
	errSlugTaken  = &apierror.Error{Status: http.StatusConflict, Code: "campaign.slug_taken",
		Fields: map[string]string{"slug": "campaign.slug_taken"}}
	errBadSlug = apierror.Validation(map[string]string{"slug": "campaign.slug_invalid"})
)

// Org is what campaign rules need from the organisation's shard row.
type Org struct {
	ID            uuid.UUID
	EffectivePlan string // Essential during the trial (organization_effective_plans)
	Status        string // onboarding, verifying, enabled, disabled
	Timezone      string
	Country       string
	Name          string
	// AcceptingDonations is false after a trial ended without a plan (workflows/subscription).
	AcceptingDonations bool
}

// Enabled reports whether the organisation's account is activated.
func (o Org) Enabled() bool { return o.Status == "enabled" }

// AllowedByPlan reports whether the organisation's effective plan includes QR download and
// immediate charge.
func (o Org) AllowedByPlan() bool { return plans.AllowedByPlan(o.EffectivePlan) }

// Organization reads the organisation's plan, status and timezone.
func (s *Service) Organization(ctx context.Context, scope tenants.Scope) (Org, error) {
	r, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
	if err != nil {
		return Org{ID: scope.OrgID}, err
	}
	return orgOf(scope.OrgID, r), nil
}

func orgOf(id uuid.UUID, r sharddb.OrganizationFactsRow) Org {
	o := Org{ID: id, EffectivePlan: r.EffectivePlanCode, Status: r.Status, Timezone: r.Timezone, Country: r.Country,
		Name: r.Name, AcceptingDonations: r.AcceptingDonations}
	if o.Timezone == "" {
		o.Timezone = "UTC"
	}
	return o
}

// campaignOf turns a stored row and its organisation's country into the API's campaign.
func campaignOf(r sharddb.Campaign, country string) (*Campaign, error) {
	c := &Campaign{ID: r.ID, Currency: r.Currency, Country: country, Published: r.Published,
		PublishedAt: r.PublishedAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, coverKey: textOf(r.CoverKey),
		minOther: r.MinOtherAmountMinor,
		Input: Input{Slug: r.Slug, Title: r.Title, Description: r.Description, Objective: r.Objective, Type: r.Type,
			Channel: r.Channel, AllowOneTime: r.AllowOneTime, AllowOtherAmount: r.AllowOtherAmount,
			Instalments: int(r.Instalments), FormColor: textOf(r.FormColor), EndsAt: r.EndsAt, ImmediateCharge: r.ImmediateCharge,
			PeriodicIncrease: PeriodicIncrease{Enabled: r.UpgradeEnabled, Percentage: floatOf(r.UpgradePercentage),
				PeriodMonths: intOf(r.UpgradePeriodMonths), MinPercentage: floatOf(r.UpgradeMinPercentage),
				MaxPercentage: floatOf(r.UpgradeMaxPercentage)},
			Analytics: Analytics{PixelID: r.PixelID, AnalyticsID: r.AnalyticsID, TagManagerID: r.TagManagerID},
			Thanks:    Thanks{Instant: r.ThanksInstant, EmailSubject: r.ThanksEmailSubject, Email: r.ThanksEmail}},
	}
	for _, col := range []struct {
		raw json.RawMessage
		dst any
	}{{r.Amounts, &c.amounts}, {r.Event, &c.Event}, {r.FormFields, &c.FormFields}} {
		if len(col.raw) == 0 {
			continue
		}
		if err := json.Unmarshal(col.raw, col.dst); err != nil {
			return nil, err
		}
	}
	c.fill()
	return c, nil
}

func floatOf(n pgtype.Numeric) *float64 {
	if !n.Valid {
		return nil
	}
	f, err := n.Float64Value()
	if err != nil || !f.Valid {
		return nil
	}
	return &f.Float64
}

// textOf is a nullable text column's value, "" for NULL.
func textOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func intOf(n *int16) *int {
	if n == nil {
		return nil
	}
	v := int(*n)
	return &v
}

// Get reads one campaign of the organisation; another organisation's id is ErrNotFound.
func (s *Service) Get(ctx context.Context, orgID, id uuid.UUID) (*Campaign, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return s.get(ctx, scope, id)
}

func (s *Service) get(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*Campaign, error) {
	rows, err := scope.Store().ListCampaigns(ctx, sharddb.ListCampaignsParams{OrganizationID: scope.OrgID, ID: &id, PerPage: 1})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, ErrNotFound
	}
	return campaignOf(rows[0].Campaign, rows[0].Country)
}

// list returns a page of the organisation's campaigns, newest first, and the total.
func (s *Service) list(ctx context.Context, scope tenants.Scope, limit, offset int) ([]*Campaign, int, error) {
	total, err := scope.Store().CountCampaigns(ctx, scope.OrgID)
	if err != nil {
		return nil, 0, err
	}
	rows, err := scope.Store().ListCampaigns(ctx, sharddb.ListCampaignsParams{OrganizationID: scope.OrgID,
		PerPage: int32(limit), Skip: int32(offset)})
	if err != nil {
		return nil, 0, err
	}
	out := make([]*Campaign, 0, len(rows))
	for _, r := range rows {
		c, err := campaignOf(r.Campaign, r.Country)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, c)
	}
	return out, int(total), nil
}

// CreateFromInput validates in and creates the campaign (unpublished) with all its settings.
func (s *Service) CreateFromInput(ctx context.Context, orgID uuid.UUID, in Input) (*Campaign, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return s.createFromInput(ctx, scope, in)
}

func (s *Service) createFromInput(ctx context.Context, scope tenants.Scope, in Input) (*Campaign, error) {
	ch, err := s.checkNew(ctx, scope, in)
	if err != nil {
		return nil, err
	}
	id, err := s.createWithSlug(ctx, scope, strings.TrimSpace(in.Slug), ch)
	if err != nil {
		return nil, err
	}
	if err := s.save(ctx, scope, id, ch); err != nil {
		return nil, err
	}
	return s.get(ctx, scope, id)
}

// checkNew validates a new campaign's settings in the organisation's currency and plan.
func (s *Service) checkNew(ctx context.Context, scope tenants.Scope, in Input) (checked, error) {
	org, err := s.Organization(ctx, scope)
	if err != nil {
		return checked{}, err
	}
	if in.Channel == "" {
		in.Channel = "public"
	}
	currency, err := scope.Store().CountryCurrency(ctx, scope.Country)
	if err != nil {
		return checked{}, err
	}
	ch, err := validate(in, currency)
	if err != nil {
		return checked{}, err
	}
	if ch.ImmediateCharge && !org.AllowedByPlan() {
		return checked{}, errPlan
	}
	if slug := strings.TrimSpace(in.Slug); slug != "" && !slugRe.MatchString(slug) {
		return checked{}, errBadSlug
	}
	return ch, nil
}

// createWithSlug creates the campaign's row and public route under the chosen slug ("" to make one
// from the title) and returns its id. A chosen slug that is taken is refused; a made one gets a
// random suffix until it is free.
func (s *Service) createWithSlug(ctx context.Context, scope tenants.Scope, slug string, ch checked) (uuid.UUID, error) {
	chosen := slug != ""
	if !chosen {
		slug = Slugify(ch.Title)
	}
	id := uuid.New()
	for attempt := 0; ; attempt++ {
		if _, taken := s.tenants.RouteBySlug(ctx, slug); taken == nil {
			if chosen {
				return id, errSlugTaken
			}
			slug = Slugify(ch.Title) + "-" + randomSuffix()
			continue
		}
		err := s.create(ctx, scope, New{ID: id, Slug: slug, Title: ch.Title, Description: ch.Description, Type: ch.Type, Channel: ch.Channel})
		switch {
		case err == nil:
			return id, nil
		case !dberr.IsConflict(err, ""):
			return id, err
		case chosen:
			return id, errSlugTaken
		case attempt > 5:
			return id, err
		}
		// The slug is taken (here or in another organisation): the campaign row may exist already
		// with this id; a fresh id and slug start over cleanly.
		id, slug = uuid.New(), Slugify(ch.Title)+"-"+randomSuffix()
	}
}

// Update applies patch to the current settings, validates the result and saves it.
func (s *Service) Update(ctx context.Context, orgID, id uuid.UUID, patch func(*Input) error) (*Campaign, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return s.update(ctx, scope, id, patch)
}

func (s *Service) update(ctx context.Context, scope tenants.Scope, id uuid.UUID, patch func(*Input) error) (*Campaign, error) {
	cur, err := s.get(ctx, scope, id)
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
		if !org.AllowedByPlan() {
			return nil, errPlan
		}
	}
	if err := s.save(ctx, scope, id, ch); err != nil {
		return nil, err
	}
	return s.get(ctx, scope, id)
}

func (s *Service) save(ctx context.Context, scope tenants.Scope, id uuid.UUID, ch checked) error {
	p := ch.PeriodicIncrease
	amounts := ch.amounts
	if amounts == nil {
		amounts = []storedAmount{}
	}
	amountsJSON, err := json.Marshal(amounts)
	if err != nil {
		return err
	}
	fieldsJSON, err := json.Marshal(normalizeFields(ch.FormFields))
	if err != nil {
		return err
	}
	var eventJSON json.RawMessage // nil: NULL
	if ch.Event != nil {
		if eventJSON, err = json.Marshal(ch.Event); err != nil {
			return err
		}
	}
	var period *int16
	if p.PeriodMonths != nil {
		v := int16(*p.PeriodMonths)
		period = &v
	}
	err = scope.Store().UpdateCampaign(ctx, sharddb.UpdateCampaignParams{OrganizationID: scope.OrgID, ID: id,
		Title: ch.Title, Description: ch.Description, Objective: ch.Objective, Type: ch.Type, Channel: ch.Channel,
		Amounts: amountsJSON, AllowOneTime: ch.AllowOneTime, AllowOtherAmount: ch.AllowOtherAmount,
		MinOtherAmountMinor: ch.minOther, Instalments: int16(ch.Instalments), FormColor: ch.FormColor, EndsAt: ch.EndsAt,
		UpgradeEnabled: p.Enabled, UpgradePercentage: p.Percentage, UpgradePeriodMonths: period,
		UpgradeMinPercentage: p.MinPercentage, UpgradeMaxPercentage: p.MaxPercentage,
		PixelID: ch.Analytics.PixelID, AnalyticsID: ch.Analytics.AnalyticsID, TagManagerID: ch.Analytics.TagManagerID,
		ThanksInstant: ch.Thanks.Instant, ThanksEmailSubject: ch.Thanks.EmailSubject, ThanksEmail: ch.Thanks.Email,
		ImmediateCharge: ch.ImmediateCharge, Event: eventJSON, FormFields: fieldsJSON})
	if err != nil {
		return err
	}
	s.public.forget(id)
	return crmlink.Enqueue(ctx, scope.Store(), scope.OrgID, crmlink.Campaign, id)
}

// SetPublished publishes or unpublishes. Publishing needs the required information and an
// enabled organisation.
func (s *Service) SetPublished(ctx context.Context, orgID, id uuid.UUID, published bool) (*Campaign, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return s.setPublished(ctx, scope, id, published)
}

func (s *Service) setPublished(ctx context.Context, scope tenants.Scope, id uuid.UUID, published bool) (*Campaign, error) {
	cur, err := s.get(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	if published {
		if err := s.checkPublishable(ctx, scope, cur); err != nil {
			return nil, err
		}
	}
	err = scope.Store().SetCampaignPublished(ctx, sharddb.SetCampaignPublishedParams{OrganizationID: scope.OrgID, Now: time.Now(),
		ID: id, Published: published})
	if err != nil {
		return nil, err
	}
	s.public.forget(id)
	return s.get(ctx, scope, id)
}

// checkPublishable refuses a campaign that lacks required information or whose organisation is not
// enabled, and makes sure a half-done creation has its directory route.
func (s *Service) checkPublishable(ctx context.Context, scope tenants.Scope, c *Campaign) error {
	if missing := missingForPublish(c); len(missing) > 0 {
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "campaign.publish_missing", Fields: missing}
	}
	org, err := s.Organization(ctx, scope)
	if err != nil {
		return err
	}
	if !org.Enabled() {
		return errNotEnabled
	}
	return s.addRoute(ctx, scope, c.ID, c.Slug)
}

// Form is a published campaign with its organisation, for the public form and donations.
type Form struct {
	Campaign *Campaign
	Org      Org
	Scope    tenants.Scope
}

// FormBySlug finds a published campaign through the directory's public route.
func (s *Service) FormBySlug(ctx context.Context, slug string) (Form, error) {
	route, err := s.route(ctx, slug)
	if err != nil {
		return Form{}, err
	}
	return s.formOf(ctx, route)
}

// route is the slug's public route in the directory; ErrNotFound when none.
func (s *Service) route(ctx context.Context, slug string) (tenants.Route, error) {
	route, err := s.tenants.RouteBySlug(ctx, slug)
	if errors.Is(err, tenants.ErrNotFound) {
		return route, ErrNotFound
	}
	return route, err
}

// formOf is the route's published campaign with its organisation; ErrNotFound when unpublished.
func (s *Service) formOf(ctx context.Context, route tenants.Route) (Form, error) {
	scope, err := s.tenants.ForOrganization(ctx, route.OrganizationID)
	if err != nil {
		return Form{}, err
	}
	r, err := scope.Store().FormCampaign(ctx, sharddb.FormCampaignParams{OrganizationID: scope.OrgID, ID: route.CampaignID})
	if errors.Is(err, dberr.ErrNotFound) {
		return Form{}, ErrNotFound
	}
	if err != nil {
		return Form{}, err
	}
	c, err := campaignOf(r.Campaign, r.Country)
	if err != nil {
		return Form{}, err
	}
	if !c.Published {
		return Form{}, ErrNotFound
	}
	return Form{Campaign: c, Scope: scope, Org: orgOf(scope.OrgID, sharddb.OrganizationFactsRow{Name: r.Name, Country: r.Country,
		Timezone: r.Timezone, Locale: r.Locale, Status: r.Status, PlanCode: r.PlanCode, EffectivePlanCode: r.EffectivePlanCode,
		AcceptingDonations: r.AcceptingDonations})}, nil
}

// CountVisit adds one visit to today's count (in the organisation's timezone).
func (s *Service) CountVisit(ctx context.Context, f Form) error {
	return f.Scope.Store().CountCampaignVisit(ctx, sharddb.CountCampaignVisitParams{OrganizationID: f.Scope.OrgID,
		CampaignID: f.Campaign.ID, Timezone: f.Org.Timezone})
}

// SaveLead records (or refreshes) a person who typed a valid e-mail but did not finish.
// Leads older than 90 days are purged on the way.
func (s *Service) SaveLead(ctx context.Context, f Form, email, firstName string) error {
	return f.Scope.Tx(ctx, func(tx pgx.Tx) error {
		store := sharddb.Store(tx)
		if err := store.PurgeLeads(ctx, f.Scope.OrgID); err != nil {
			return err
		}
		return store.UpsertLead(ctx, sharddb.UpsertLeadParams{OrganizationID: f.Scope.OrgID, ID: uuid.New(),
			CampaignID: f.Campaign.ID, Email: email, FirstName: firstName})
	})
}

var (
	slugRe  = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{1,78}[a-z0-9])$`)
	nonSlug = regexp.MustCompile(`[^a-z0-9]+`)
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
