package campaign

import (
	"regexp"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/money"
)

// Types, channels and form-field types of the donor spec §3.
var (
	Types          = []string{"crowdfund", "custom", "fundraise", "promoted", "tickets"}
	Channels       = []string{"agents", "f2f", "private", "public"}
	Instalments    = []int{0, 3, 6, 9, 12}
	UpgradePeriods = []int{1, 2, 3, 4, 6, 12}
	FieldTypes     = []string{"address_bundle", "alt_email", "birthday", "cellphone", "cellphone_bundle", "checkbox",
		"gender", "occupation", "phone", "phone_bundle", "select_options", "textarea", "textfield"}
	FieldWidths = []string{"full", "half"}
	// RelatedDonorFields are what a form field's answer may also fill on the donor ("" for nothing):
	// the donor columns of the manage area's donor editor.
	RelatedDonorFields = []string{"", "donor.phone", "donor.cellphone", "donor.street", "donor.city", "donor.state",
		"donor.zipcode", "donor.gender"}
	EventFormats = []string{"online", "physical"}
)

// Default periodic-increase bounds, used when a campaign sets none (the spec leaves them open).
const (
	DefaultUpgradeMin = 1.0
	DefaultUpgradeMax = 100.0
)

var hexColor = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// Amount is a preset amount as a create or PATCH sends it: a decimal string in the campaign's
// currency ("1500", "1500.50").
type Amount struct {
	Amount string `json:"amount"`
	Label  string `json:"label"`
}

// Preset is a preset amount as the API answers it.
type Preset struct {
	Amount money.Amount `json:"amount"`
	Label  string       `json:"label"`
}

// storedAmount is an amount as the amounts column keeps it.
type storedAmount struct {
	Minor int64  `json:"amount"`
	Label string `json:"label"`
}

// PeriodicIncrease is the opt-in yearly/monthly increase offered on the form.
type PeriodicIncrease struct {
	Enabled       bool     `json:"enabled"`
	Percentage    *float64 `json:"percentage"`
	PeriodMonths  *int     `json:"period_months"`
	MinPercentage *float64 `json:"min_percentage"`
	MaxPercentage *float64 `json:"max_percentage"`
}

// Bounds returns the percentage bounds, defaulted.
func (p PeriodicIncrease) Bounds() (float64, float64) {
	lo, hi := DefaultUpgradeMin, DefaultUpgradeMax
	if p.MinPercentage != nil {
		lo = *p.MinPercentage
	}
	if p.MaxPercentage != nil {
		hi = *p.MaxPercentage
	}
	return lo, hi
}

// Analytics are the tracking ids the public form loads.
type Analytics struct {
	PixelID      string `json:"pixel_id"`
	AnalyticsID  string `json:"analytics_id"`
	TagManagerID string `json:"tag_manager_id"`
}

// Thanks are the thank-you messages; they may use the short codes {nombre}, {monto}, {campaña}
// (or {name}, {amount}, {campaign}; {nome}, {valor}, {campanha}).
type Thanks struct {
	Instant      string `json:"instant"`
	EmailSubject string `json:"email_subject"`
	Email        string `json:"email"`
}

// Ticket is an event ticket option; a nil quantity is unlimited.
type Ticket struct {
	Name     string `json:"name"`
	Quantity *int   `json:"quantity"`
}

// Event are the extras of a tickets campaign.
type Event struct {
	Category       string     `json:"category"`
	Format         string     `json:"format"` // online or physical
	StartsAt       *time.Time `json:"starts_at"`
	EndsAt         *time.Time `json:"ends_at"`
	TicketSalesEnd *time.Time `json:"ticket_sales_end"`
	Tickets        []Ticket   `json:"tickets"`
}

// FormField is one extra field of the public form; its order is its index in the list.
type FormField struct {
	Type           string   `json:"type"`
	Title          string   `json:"title"`
	Label          string   `json:"label"`
	Width          string   `json:"width"` // full or half
	Required       bool     `json:"required"`
	HideOnMobile   bool     `json:"hide_on_mobile"`
	ValueRelatedTo string   `json:"value_related_to"`
	Options        []string `json:"options,omitempty"` // select_options only
	Order          int      `json:"order"`             // output only: the position, from 0
}

// Input is every field the manage area edits. A PATCH decodes onto the current values, so absent
// fields keep theirs.
type Input struct {
	Slug             string           `json:"slug"`
	Title            string           `json:"title"`
	Description      string           `json:"description"`
	Objective        string           `json:"objective"`
	Type             string           `json:"type"`
	Channel          string           `json:"channel"`
	Amounts          []Amount         `json:"amounts"`
	AllowOneTime     bool             `json:"allow_one_time"`
	AllowOtherAmount bool             `json:"allow_other_amount"`
	MinOtherAmount   *string          `json:"min_other_amount"`
	Instalments      int              `json:"instalments"`
	FormColor        string           `json:"form_color"`
	EndsAt           *time.Time       `json:"ends_at"`
	PeriodicIncrease PeriodicIncrease `json:"periodic_increase"`
	Analytics        Analytics        `json:"analytics"`
	Thanks           Thanks           `json:"thanks"`
	ImmediateCharge  bool             `json:"immediate_charge"`
	Event            *Event           `json:"event"`
	FormFields       []FormField      `json:"form_fields"`
}

// Campaign is a campaign as the manage API returns it.
type Campaign struct {
	ID uuid.UUID `json:"uuid"`
	Input
	// Amounts and MinOtherAmount answer in the money shape. They shadow Input's decimal strings,
	// which fill keeps too so that a PATCH decodes onto the current values.
	Amounts        []Preset      `json:"amounts"`
	MinOtherAmount *money.Amount `json:"min_other_amount"`
	Currency       string        `json:"currency"`
	Country        string        `json:"country"`
	Published      bool          `json:"published"`
	PublishedAt    *time.Time    `json:"published_at"`
	CoverURL       string        `json:"cover_url"`
	PublicPath     string        `json:"public_path"`
	CreatedAt      time.Time     `json:"created_at"`
	UpdatedAt      time.Time     `json:"updated_at"`

	coverKey string
	minOther *int64
	amounts  []storedAmount
}

// AmountsMinor are the preset amounts in minor units.
func (c *Campaign) AmountsMinor() []int64 {
	out := make([]int64, len(c.amounts))
	for i, a := range c.amounts {
		out[i] = a.Minor
	}
	return out
}

// fill completes the output-only fields from the stored ones.
func (c *Campaign) fill() {
	c.Input.Amounts, c.Amounts = make([]Amount, len(c.amounts)), make([]Preset, len(c.amounts))
	for i, a := range c.amounts {
		m := money.New(a.Minor, c.Currency)
		c.Input.Amounts[i], c.Amounts[i] = Amount{Amount: m.Decimal(), Label: a.Label}, Preset{Amount: m, Label: a.Label}
	}
	c.Input.MinOtherAmount, c.MinOtherAmount = nil, nil
	if c.minOther != nil {
		m := money.New(*c.minOther, c.Currency)
		d := m.Decimal()
		c.Input.MinOtherAmount, c.MinOtherAmount = &d, &m
	}
	if c.FormFields == nil {
		c.FormFields = []FormField{}
	}
	for i := range c.FormFields {
		c.FormFields[i].Order = i
	}
	c.PublicPath = "/d/" + c.Slug
	if c.coverKey != "" {
		c.CoverURL = "/api/public/campaigns/" + c.Slug + "/cover"
	}
}
