// Package dashboard serves the management dashboard (donor spec §2 screen 5, issue 6):
// GET /manage/api/dashboard?from=YYYY-MM-DD&to=YYYY-MM-DD&campaign=<uuid>&frequency=monthly|one_time.
//
// Every widget is one aggregate over the organisation's daily rollup (money, new donations,
// discards), daily visits or pause history in its shard, read in one read-only repeatable-read
// transaction so the widgets agree with each other. Dates are days in the organisation's time zone;
// the period is [from 00:00, to+1 00:00). The SQL, with the definition of each widget, is in
// sql/dashboard.sql; the rollup in migrations/shard/0080_dashboard_rollup.sql.
package dashboard

import (
	"context"
	"embed"
	"errors"
	"math"
	"net/http"
	"slices"
	"sort"
	"time"
	_ "time/tzdata" // organisations' time zones, whatever the host has

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

const (
	// DefaultDays is the default period: the last 30 days, today included.
	DefaultDays = 30
	// MaxDays bounds a period (about ten years).
	MaxDays = 3660
	// DailyUpTo is the longest period whose series is per day; longer periods are per month.
	DailyUpTo = 92
	// TopReasons is how many pause and discard reasons the dashboard lists.
	TopReasons = 5
	// PauseGrace is the spec's resume window (§9): a pause resumed within it never counts.
	PauseGrace = 7 * 24 * time.Hour
	// CampaignGuide is the 4-step guide shown to an organisation without campaigns.
	CampaignGuide = "create_campaign"
)

// Router resolves an organisation's shard.
type Router interface {
	ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
}

// Handler serves the dashboard.
type Handler struct {
	tenants Router
	now     func() time.Time
}

// NewHandler builds the handler.
func NewHandler(r Router) *Handler { return &Handler{tenants: r, now: time.Now} }

// Routes mounts GET /manage/api/dashboard.
func (h *Handler) Routes(manage *gin.RouterGroup, az *authz.Authz) {
	manage.GET("/dashboard", az.Require(authz.View), h.Get)
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
	NewDonations       int64          `json:"new_donations"`
	PausedDonations    int64          `json:"paused_donations"`
	PausedInGrace      int64          `json:"paused_in_grace"`
	DiscardedDonations int64          `json:"discarded_donations"`
	Visits             int64          `json:"visits"`
	Conversion         *float64       `json:"conversion"`
	PauseReasons       []Reason       `json:"pause_reasons"`
	DiscardReasons     []Reason       `json:"discard_reasons"`
	Series             []Point        `json:"series"`
	HasCampaigns       bool           `json:"has_campaigns"`
	CampaignGuide      Guide          `json:"campaign_guide"`
}

// query is a validated request.
type query struct {
	from, to   string // as given, or "" for the default
	campaign   *uuid.UUID
	recurrence *int16
	frequency  *string
}

func parse(c *gin.Context) (query, error) {
	var q query
	fields := map[string]string{}
	for _, k := range []string{"from", "to"} {
		v := c.Query(k)
		if v == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			fields[k] = "dashboard_invalid_date"
			continue
		}
		if k == "from" {
			q.from = v
		} else {
			q.to = v
		}
	}
	if v := c.Query("campaign"); v != "" {
		id, err := uuid.Parse(v)
		if err != nil {
			fields["campaign"] = "dashboard_invalid_campaign"
		} else {
			q.campaign = &id
		}
	}
	switch v := c.Query("frequency"); v {
	case "":
	case "monthly", "one_time":
		r := int16(1)
		if v == "one_time" {
			r = 0
		}
		q.recurrence, q.frequency = &r, &v
	default:
		fields["frequency"] = "dashboard_invalid_frequency"
	}
	if len(fields) > 0 {
		return q, apierror.Validation(fields)
	}
	return q, nil
}

// Get is GET /manage/api/dashboard.
func (h *Handler) Get(c *gin.Context) {
	q, err := parse(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := c.Request.Context()
	scope, err := h.tenants.ForOrganization(ctx, authz.Organization(c).OrganizationID)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	var out Dashboard
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"); err != nil {
			return err
		}
		var e error
		out, e = h.load(ctx, tx, scope.OrgID, authz.User(c).ID, q)
		return e
	})
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

func (h *Handler) load(ctx context.Context, tx pgx.Tx, org, user uuid.UUID, q query) (Dashboard, error) {
	var d Dashboard
	var tz string
	if err := tx.QueryRow(ctx, queries.Get("Organization"), org, user, CampaignGuide).
		Scan(&tz, &d.HasCampaigns, &d.CampaignGuide.Step); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return d, apierror.NotFound()
		}
		return d, err
	}
	d.CampaignGuide.Name, d.CampaignGuide.Steps = CampaignGuide, 4
	d.CampaignGuide.Show = !d.HasCampaigns && d.CampaignGuide.Step == 0

	loc, err := time.LoadLocation(tz)
	if err != nil {
		loc = time.UTC
	}
	now := h.now()
	today := civil(now.In(loc))
	from, to := today.AddDate(0, 0, -(DefaultDays-1)), today
	if q.to != "" {
		to, _ = time.Parse(time.DateOnly, q.to)
		if q.from == "" {
			from = to.AddDate(0, 0, -(DefaultDays - 1))
		}
	}
	if q.from != "" {
		from, _ = time.Parse(time.DateOnly, q.from)
	}
	days := int(to.Sub(from).Hours()/24) + 1
	switch {
	case days < 1:
		return d, apierror.Validation(map[string]string{"to": "dashboard_to_before_from"})
	case days > MaxDays:
		return d, apierror.Validation(map[string]string{"from": "dashboard_period_too_long"})
	}
	if q.campaign != nil {
		var ok bool
		if err := tx.QueryRow(ctx, queries.Get("CampaignExists"), org, *q.campaign).Scan(&ok); err != nil {
			return d, err
		}
		if !ok {
			return d, apierror.Validation(map[string]string{"campaign": "dashboard_unknown_campaign"})
		}
	}
	bucket := "day"
	if days > DailyUpTo {
		bucket = "month"
	}
	d.Period = Period{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly), Days: days, Granularity: bucket, Timezone: loc.String()}
	d.Filters = Filters{Campaign: q.campaign, Frequency: q.frequency}
	start := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, loc)
	end := time.Date(to.Year(), to.Month(), to.Day()+1, 0, 0, 0, 0, loc)

	// The series' buckets, every one present even when empty.
	var keys []string
	index := map[string]int{}
	for b := from; !b.After(to); b = b.AddDate(0, 0, 1) {
		k := b
		if bucket == "month" {
			k = time.Date(b.Year(), b.Month(), 1, 0, 0, 0, 0, time.UTC)
		}
		key := k.Format(time.DateOnly)
		if _, ok := index[key]; !ok {
			index[key] = len(keys)
			keys = append(keys, key)
		}
	}
	d.Series = make([]Point, len(keys))
	for i, k := range keys {
		d.Series[i] = Point{Bucket: k, Raised: []money.Amount{}}
	}
	at := func(b time.Time) *Point {
		if i, ok := index[b.Format(time.DateOnly)]; ok {
			return &d.Series[i]
		}
		return nil // outside the buckets: cannot happen, the SQL reads the same period
	}

	// pgx.QueryExecModeExec: plan with the actual values every time, never a generic plan, so the
	// optional filters and the period's width pick the right index.
	mode := pgx.QueryExecModeExec
	daily := []any{mode, org, d.Period.From, d.Period.To, q.campaign, q.recurrence, bucket}

	// Raised, average and the raised series.
	type cur struct{ sum, n int64 }
	totals := map[string]*cur{}
	if err := each(ctx, tx, "Raised", daily, func(r pgx.Rows) error {
		var b time.Time
		var c string
		var sum, n int64
		if err := r.Scan(&b, &c, &sum, &n); err != nil {
			return err
		}
		if t := totals[c]; t != nil {
			t.sum, t.n = t.sum+sum, t.n+n
		} else {
			totals[c] = &cur{sum, n}
		}
		if p := at(b); p != nil {
			p.Raised = append(p.Raised, money.New(sum, c))
		}
		return nil
	}); err != nil {
		return d, err
	}
	d.Raised, d.Average = []Raised{}, []money.Amount{}
	for _, c := range sortedKeys(totals) {
		t := totals[c]
		d.Raised = append(d.Raised, Raised{Amount: money.New(t.sum, c), Transactions: t.n})
		d.Average = append(d.Average, money.New(int64(math.Round(float64(t.sum)/float64(t.n))), c))
	}
	for i := range d.Series {
		sort.Slice(d.Series[i].Raised, func(a, b int) bool { return d.Series[i].Raised[a].Currency < d.Series[i].Raised[b].Currency })
	}

	// New donations.
	if err := each(ctx, tx, "NewDonations", daily, func(r pgx.Rows) error {
		var b time.Time
		var n int64
		if err := r.Scan(&b, &n); err != nil {
			return err
		}
		d.NewDonations += n
		if p := at(b); p != nil {
			p.NewDonations = n
		}
		return nil
	}); err != nil {
		return d, err
	}

	// Visits and conversion.
	if err := each(ctx, tx, "Visits", []any{mode, org, d.Period.From, d.Period.To, q.campaign, bucket}, func(r pgx.Rows) error {
		var b time.Time
		var n int64
		if err := r.Scan(&b, &n); err != nil {
			return err
		}
		d.Visits += n
		if p := at(b); p != nil {
			p.Visits = n
		}
		return nil
	}); err != nil {
		return d, err
	}
	if d.Visits > 0 {
		conv := math.Round(float64(d.NewDonations)/float64(d.Visits)*1e4) / 1e4
		d.Conversion = &conv
	}

	// Discarded donations and reasons.
	d.DiscardReasons = []Reason{}
	if err := each(ctx, tx, "Discarded", daily[:6], func(r pgx.Rows) error {
		var reason *string
		var n int64
		if err := r.Scan(&reason, &n); err != nil {
			return err
		}
		d.DiscardedDonations += n
		d.DiscardReasons = append(d.DiscardReasons, Reason{Reason: reason, Count: n})
		return nil
	}); err != nil {
		return d, err
	}
	d.DiscardReasons = top(d.DiscardReasons)

	// Paused donations (not resumed within 7 days) and reasons.
	d.PauseReasons = []Reason{}
	if err := each(ctx, tx, "Paused", []any{mode, org, start, end, q.campaign, q.recurrence, now}, func(r pgx.Rows) error {
		var reason string
		var counted, grace int64
		if err := r.Scan(&reason, &counted, &grace); err != nil {
			return err
		}
		d.PausedDonations += counted
		d.PausedInGrace += grace
		if counted > 0 {
			d.PauseReasons = append(d.PauseReasons, Reason{Reason: &reason, Count: counted})
		}
		return nil
	}); err != nil {
		return d, err
	}
	d.PauseReasons = top(d.PauseReasons)
	return d, nil
}

func each(ctx context.Context, tx pgx.Tx, name string, args []any, fn func(pgx.Rows) error) error {
	rows, err := tx.Query(ctx, queries.Get(name), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
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
		"dashboard_invalid_date": {
			i18n.ES: "La fecha debe tener el formato AAAA-MM-DD.",
			i18n.EN: "The date must look like YYYY-MM-DD.",
			i18n.PT: "A data deve ter o formato AAAA-MM-DD.",
		},
		"dashboard_to_before_from": {
			i18n.ES: "La fecha final no puede ser anterior a la inicial.",
			i18n.EN: "The end date cannot be before the start date.",
			i18n.PT: "A data final não pode ser anterior à inicial.",
		},
		"dashboard_period_too_long": {
			i18n.ES: "El período no puede superar los 10 años.",
			i18n.EN: "The period cannot be longer than 10 years.",
			i18n.PT: "O período não pode ser maior que 10 anos.",
		},
		"dashboard_invalid_campaign": {
			i18n.ES: "La campaña no es válida.",
			i18n.EN: "The campaign is not valid.",
			i18n.PT: "A campanha não é válida.",
		},
		"dashboard_unknown_campaign": {
			i18n.ES: "No encontramos esa campaña en tu organización.",
			i18n.EN: "We could not find that campaign in your organisation.",
			i18n.PT: "Não encontramos essa campanha na sua organização.",
		},
		"dashboard_invalid_frequency": {
			i18n.ES: "La frecuencia debe ser mensual o única.",
			i18n.EN: "The frequency must be monthly or one-time.",
			i18n.PT: "A frequência deve ser mensal ou única.",
		},
	})
}
