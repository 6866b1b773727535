// Package dashboard serves the management dashboard (donor spec §2 screen 5, issue 6):
// GET /manage/api/dashboard?from=YYYY-MM-DD&to=YYYY-MM-DD&campaign=<uuid>&frequency=monthly|one_time&agency=<uuid>.
//
// Every widget is one aggregate over the organisation's daily rollup (money, new donations,
// discards), daily visits or pause facts in its shard, all read by one delegated call so the widgets agree
// with each other (one snapshot) in one round trip. Dates are days in the organisation's time zone;
// the period is [from 00:00, to+1 00:00). The definition of each widget is in
// migrations/shard/0670_dashboard_widgets.sql, the function's current body in 0690_dashboard_pause_links.sql;
// the rollup in migrations/shard/0080_dashboard_rollup.sql.
package dashboard

import (
	"context"
	"errors"
	"math"
	"slices"
	"sort"
	"sync"
	"time"
	_ "time/tzdata" // organisations' time zones, whatever the host has

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

const (
	// DefaultDays is the default period: the last 30 days, today included.
	DefaultDays = 30
	// MaxDays bounds a period (about ten years).
	MaxDays = 3660
	// DailyUpTo is the longest period whose series is per day; longer periods are per month.
	DailyUpTo = 92
	// TopReasons is how many pause and discard reasons the dashboard lists.
	TopReasons = 5
	// CampaignGuide is the 4-step guide shown to an organisation without campaigns.
	CampaignGuide = "create_campaign"
)

// Handler serves the dashboard.
type Handler struct {
	now   func() time.Time
	zones sync.Map // organisation id → zone: its time zone as the last request read it
}

// NewHandler builds the handler.
func NewHandler() *Handler { return &Handler{now: time.Now} }

// Mount mounts GET /manage/api/dashboard.
func (h *Handler) Mount(g endpoint.Groups) {
	g.Manage.GET("/dashboard", g.Authz.Require(authz.View), endpoint.HandleScoped(h.Get))
}

// Raised is the approved money of one currency.
type Raised struct {
	Amount       money.Amount `json:"amount"`
	Transactions int64        `json:"transactions"`
}

// Reason is a pause or discard reason and how many donations have it.
type Reason struct {
	Reason *string `json:"reason"` // null: discarded without a reason
	Count  int64   `json:"count"`
}

// Point is one bucket of the chart series.
type Point struct {
	Bucket       string         `json:"bucket"` // YYYY-MM-DD: the day, or the month's first day
	Raised       []money.Amount `json:"raised"`
	NewDonations int64          `json:"new_donations"`
	Visits       int64          `json:"visits"`
}

// Period is the resolved period.
type Period struct {
	From        string `json:"from"`
	To          string `json:"to"`
	Days        int    `json:"days"`
	Granularity string `json:"granularity"` // day or month
	Timezone    string `json:"timezone"`
}

// Filters echoes the applied filters.
type Filters struct {
	Campaign  *uuid.UUID `json:"campaign"`
	Frequency *string    `json:"frequency"`
	Agency    *uuid.UUID `json:"agency"`
}

// Guide is the campaign guide's state for the signed-in user.
type Guide struct {
	Name  string `json:"name"`
	Step  int    `json:"step"`
	Steps int    `json:"steps"`
	Show  bool   `json:"show"` // no campaigns and stored step 0
}

// Dashboard is the response.
type Dashboard struct {
	Period             Period         `json:"period"`
	Filters            Filters        `json:"filters"`
	Raised             []Raised       `json:"raised"`
	Average            []money.Amount `json:"average"`
	ProcessorFees      []money.Amount `json:"processor_fees"` // what the raised money owed integrated payments processors, per currency with any
	NewDonations       int64          `json:"new_donations"`
	PausedDonations    int64          `json:"paused_donations"`
	PausedInGrace      int64          `json:"paused_in_grace"`
	DiscardedDonations int64          `json:"discarded_donations"`
	Recovered          int64          `json:"recovered"` // declined, then charged after the donor's new card (donor portal)
	Visits             int64          `json:"visits"`
	Conversion         *float64       `json:"conversion"`
	PauseReasons       []Reason       `json:"pause_reasons"`
	DiscardReasons     []Reason       `json:"discard_reasons"`
	Series             []Point        `json:"series"`
	HasCampaigns       bool           `json:"has_campaigns"`
	CampaignGuide      Guide          `json:"campaign_guide"`
}

// Request is the dashboard's filters: from and to (YYYY-MM-DD, days in the organisation's time
// zone; default the last 30 days), a campaign, a frequency (monthly or one_time) and an agency (the
// donations it acquired; visits, which come from the public form, are none then).
type Request struct {
	From      string `query:"from" json:"-"`
	To        string `query:"to" json:"-"`
	Campaign  string `query:"campaign" json:"-"`
	Frequency string `query:"frequency" json:"-"`
	Agency    string `query:"agency" json:"-"`

	campaign   *uuid.UUID
	recurrence *int16
	frequency  *string
	agency     *uuid.UUID
}

// Validate checks the filters' shapes and parses them; the period itself is checked once the
// organisation's time zone is known.
func (r *Request) Validate() error {
	fields := map[string]string{}
	for k, v := range map[string]string{"from": r.From, "to": r.To} {
		if _, err := time.Parse(time.DateOnly, v); v != "" && err != nil {
			fields[k] = "dashboard.invalid_date"
		}
	}
	if r.Campaign != "" {
		id, err := uuid.Parse(r.Campaign)
		if err != nil {
			fields["campaign"] = "dashboard.invalid_campaign"
		} else {
			r.campaign = &id
		}
	}
	if r.Agency != "" {
		id, err := uuid.Parse(r.Agency)
		if err != nil {
			fields["agency"] = "dashboard.invalid_agency"
		} else {
			r.agency = &id
		}
	}
	switch v := r.Frequency; v {
	case "":
	case "monthly", "one_time":
		rec := int16(1)
		if v == "one_time" {
			rec = 0
		}
		r.recurrence, r.frequency = &rec, &v
	default:
		fields["frequency"] = "dashboard.invalid_frequency"
	}
	return apierror.Invalid(fields)
}

// Get is GET /manage/api/dashboard: every widget read by one statement, so they agree with each other
// (one snapshot) and cost one round trip.
func (h *Handler) Get(ctx context.Context, scope tenants.Scope, r *Request) (*Dashboard, error) {
	store := scope.Store()
	user := authz.CurrentUser(ctx).ID
	// The period's days and edges depend on the organisation's time zone, which the statement reads too: the
	// zone this process last saw is used, and the statement's answer says whether it still is the
	// organisation's. It changes rarely, so the second attempt has the zone the first one read.
	for attempt := 1; ; attempt++ {
		z, known := h.zones.Load(scope.OrgID)
		if !known {
			name, err := store.DashboardTimezone(ctx, scope.OrgID)
			if err != nil {
				return nil, err
			}
			z = h.remember(scope.OrgID, name)
		}
		d, current, err := h.load(ctx, store, z.(zone), scope.OrgID, user, r)
		if current == z.(zone).name {
			return d, err
		}
		if attempt == zoneAttempts {
			return nil, errors.New("dashboard: the organisation's time zone changed under every read")
		}
		h.remember(scope.OrgID, current)
	}
}

// zoneAttempts bounds Get's reads of one request.
const zoneAttempts = 3

// zone is an organisation's time zone as stored, and as this host knows it (UTC when it does not).
type zone struct {
	name string
	loc  *time.Location
}

func (h *Handler) remember(org uuid.UUID, name string) zone {
	loc, err := time.LoadLocation(name)
	if err != nil {
		loc = time.UTC
	}
	z := zone{name: name, loc: loc}
	h.zones.Store(org, z)
	return z
}

// load resolves the period in the zone z and fills every widget from the statement's rows. It answers the
// organisation's time zone as the statement read it: when it is not z's, the answer is not the organisation's.
func (h *Handler) load(ctx context.Context, store *sharddb.Queries, z zone, org, user uuid.UUID, r *Request) (*Dashboard, string, error) {
	p, err := resolvePeriod(h.now(), z.loc, r.From, r.To)
	if err != nil {
		// The period may be wrong only in a zone that is no longer the organisation's.
		current, zerr := store.DashboardTimezone(ctx, org)
		if zerr != nil {
			return nil, z.name, zerr
		}
		return nil, current, err
	}
	rows, err := store.Dashboard(ctx, sharddb.DashboardParams{Bucket: p.bucket, OrganizationID: org, FirstDay: p.from, LastDay: p.to,
		Campaign: r.campaign, Recurrence: r.recurrence, Agency: r.agency, Start: p.start(), EndAt: p.end(), Now: p.now,
		UserID: user, GuideName: CampaignGuide})
	if err != nil {
		return nil, z.name, err
	}
	d := &Dashboard{Period: p.view(), Filters: Filters{Campaign: r.campaign, Frequency: r.frequency, Agency: r.agency},
		Raised: []Raised{}, Average: []money.Amount{}, ProcessorFees: []money.Amount{}, PauseReasons: []Reason{}, DiscardReasons: []Reason{}}
	s := newSeries(p)
	totals := map[string]*total{}
	current := ""
	for _, row := range rows {
		switch row.Widget {
		case "organization":
			current = row.Label
			d.HasCampaigns = row.N1 == 1
			d.CampaignGuide = Guide{Name: CampaignGuide, Step: int(row.N2), Steps: 4, Show: !d.HasCampaigns && row.N2 == 0}
			if row.N3 == 0 {
				err = apierror.Validation(map[string]string{"campaign": "dashboard.unknown_campaign"})
			} else if row.N4 == 0 {
				err = apierror.Validation(map[string]string{"agency": "dashboard.unknown_agency"})
			}
		case "daily":
			d.addDaily(s.at(row.Bucket), totals, row)
		case "visits":
			d.Visits += row.N1
			if pt := s.at(row.Bucket); pt != nil {
				pt.Visits = row.N1
			}
		case "discarded":
			var reason *string // none given
			if row.Label != "" {
				reason = &row.Label
			}
			d.DiscardedDonations += row.N1
			d.DiscardReasons = append(d.DiscardReasons, Reason{Reason: reason, Count: row.N1})
		case "paused":
			d.PausedDonations += row.N1
			d.PausedInGrace += row.N2
			if row.N1 > 0 {
				d.PauseReasons = append(d.PauseReasons, Reason{Reason: &row.Label, Count: row.N1})
			}
		case "recovered":
			d.Recovered = row.N1
		}
	}
	if current == "" {
		return nil, z.name, dberr.ErrNotFound // no organisations row: the scope's organisation is gone
	}
	if err != nil || current != z.name {
		return nil, current, err
	}
	for _, c := range sortedKeys(totals) {
		t := totals[c]
		d.Raised = append(d.Raised, Raised{Amount: money.New(t.sum, c), Transactions: t.n})
		d.Average = append(d.Average, money.New(int64(math.Round(float64(t.sum)/float64(t.n))), c))
		if t.fees != 0 {
			d.ProcessorFees = append(d.ProcessorFees, money.New(t.fees, c))
		}
	}
	for _, pt := range s.points {
		sort.Slice(pt.Raised, func(a, b int) bool { return pt.Raised[a].Currency < pt.Raised[b].Currency })
	}
	if d.Visits > 0 {
		conv := math.Round(float64(d.NewDonations)/float64(d.Visits)*1e4) / 1e4
		d.Conversion = &conv
	}
	d.DiscardReasons, d.PauseReasons, d.Series = top(d.DiscardReasons), top(d.PauseReasons), s.points
	return d, current, nil
}

// total is one currency's approved money in the period, its transactions and its processors' fees.
type total struct{ sum, n, fees int64 }

// addDaily adds one bucket and currency of the daily rollup: the money raised and the new donations, to the
// totals and to the bucket's point (nil outside the period, which cannot happen: the SQL reads the same one).
func (d *Dashboard) addDaily(pt *Point, totals map[string]*total, row sharddb.DashboardRow) {
	raised, count, fresh, fees := row.N1, row.N2, row.N3, row.N4
	d.NewDonations += fresh
	if pt != nil {
		pt.NewDonations += fresh
	}
	if count == 0 {
		return
	}
	if t := totals[row.Label]; t != nil {
		t.sum, t.n, t.fees = t.sum+raised, t.n+count, t.fees+fees
	} else {
		totals[row.Label] = &total{raised, count, fees}
	}
	if pt != nil {
		pt.Raised = append(pt.Raised, money.New(raised, row.Label))
	}
}

// period is the resolved period: its first and last days (civil dates, as UTC midnights) in loc.
type period struct {
	from, to time.Time
	days     int
	bucket   string // day or month
	loc      *time.Location
	now      time.Time
}

// resolvePeriod turns the requested days into the period: the last DefaultDays up to today by
// default, DefaultDays up to "to" when only "to" is given.
func resolvePeriod(now time.Time, loc *time.Location, fromDay, toDay string) (period, error) {
	today := civil(now.In(loc))
	p := period{from: today.AddDate(0, 0, -(DefaultDays - 1)), to: today, loc: loc, now: now}
	if toDay != "" {
		p.to, _ = time.Parse(time.DateOnly, toDay)
		if fromDay == "" {
			p.from = p.to.AddDate(0, 0, -(DefaultDays - 1))
		}
	}
	if fromDay != "" {
		p.from, _ = time.Parse(time.DateOnly, fromDay)
	}
	p.days = int(p.to.Sub(p.from).Hours()/24) + 1
	switch {
	case p.days < 1:
		return p, apierror.Validation(map[string]string{"to": "dashboard.to_before_from"})
	case p.days > MaxDays:
		return p, apierror.Validation(map[string]string{"from": "dashboard.period_too_long"})
	}
	p.bucket = "day"
	if p.days > DailyUpTo {
		p.bucket = "month"
	}
	return p, nil
}

func (p period) view() Period {
	return Period{From: p.from.Format(time.DateOnly), To: p.to.Format(time.DateOnly), Days: p.days, Granularity: p.bucket, Timezone: p.loc.String()}
}

// start and end are the period's edges as instants: [from 00:00, to+1 00:00) in its time zone.
func (p period) start() time.Time {
	return time.Date(p.from.Year(), p.from.Month(), p.from.Day(), 0, 0, 0, 0, p.loc)
}

func (p period) end() time.Time {
	return time.Date(p.to.Year(), p.to.Month(), p.to.Day()+1, 0, 0, 0, 0, p.loc)
}

// series is the chart: every bucket of the period, present even when empty.
type series struct {
	points []Point
	index  map[string]int
}

func newSeries(p period) series {
	s := series{points: []Point{}, index: map[string]int{}}
	for b := p.from; !b.After(p.to); b = b.AddDate(0, 0, 1) {
		k := b
		if p.bucket == "month" {
			k = time.Date(b.Year(), b.Month(), 1, 0, 0, 0, 0, time.UTC)
		}
		key := k.Format(time.DateOnly)
		if _, ok := s.index[key]; !ok {
			s.index[key] = len(s.points)
			s.points = append(s.points, Point{Bucket: key, Raised: []money.Amount{}})
		}
	}
	return s
}

// at is the bucket starting at b; nil outside the period, which cannot happen: the SQL reads the same one.
func (s series) at(b time.Time) *Point {
	if i, ok := s.index[b.Format(time.DateOnly)]; ok {
		return &s.points[i]
	}
	return nil
}

func civil(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// top orders reasons by count (then by reason, none last) and keeps the first TopReasons.
func top(rs []Reason) []Reason {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Count != rs[j].Count {
			return rs[i].Count > rs[j].Count
		}
		if rs[i].Reason == nil || rs[j].Reason == nil {
			return rs[j].Reason == nil && rs[i].Reason != nil
		}
		return *rs[i].Reason < *rs[j].Reason
	})
	if len(rs) > TopReasons {
		rs = rs[:TopReasons]
	}
	return rs
}

func init() {
	i18n.Register(i18n.Catalog{
		"dashboard.invalid_date": {
			i18n.ES: "La fecha debe tener el formato AAAA-MM-DD.",
			i18n.EN: "The date must look like YYYY-MM-DD.",
			i18n.PT: "A data deve ter o formato AAAA-MM-DD.",
		},
		"dashboard.to_before_from": {
			i18n.ES: "La fecha final no puede ser anterior a la inicial.",
			i18n.EN: "The end date cannot be before the start date.",
			i18n.PT: "A data final não pode ser anterior à inicial.",
		},
		"dashboard.period_too_long": {
			i18n.ES: "El período no puede superar los 10 años.",
			i18n.EN: "The period cannot be longer than 10 years.",
			i18n.PT: "O período não pode ser maior que 10 anos.",
		},
		"dashboard.invalid_campaign": {
			i18n.ES: "La campaña no es válida.",
			i18n.EN: "The campaign is not valid.",
			i18n.PT: "A campanha não é válida.",
		},
		"dashboard.unknown_campaign": {
			i18n.ES: "No encontramos esa campaña en tu organización.",
			i18n.EN: "We could not find that campaign in your organisation.",
			i18n.PT: "Não encontramos essa campanha na sua organização.",
		},
		"dashboard.invalid_agency": {
			i18n.ES: "El equipo externo no es válido.",
			i18n.EN: "The external team is not valid.",
			i18n.PT: "A equipe externa não é válida.",
		},
		"dashboard.unknown_agency": {
			i18n.ES: "No encontramos ese equipo externo en tu organización.",
			i18n.EN: "We could not find that external team in your organisation.",
			i18n.PT: "Não encontramos essa equipe externa na sua organização.",
		},
		"dashboard.invalid_frequency": {
			i18n.ES: "La frecuencia debe ser mensual o única.",
			i18n.EN: "The frequency must be monthly or one-time.",
			i18n.PT: "A frequência deve ser mensal ou única.",
		},
	})
}
