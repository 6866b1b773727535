package campaign

import (
	"regexp"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/gateway"
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

// Amount is a preset amount: a decimal string in the campaign's currency ("1500", "1500.50").
type Amount struct {
	Amount    string `json:"amount"`
	Label     string `json:"label"`
	Formatted string `json:"formatted,omitempty"` // output only
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
	Currency    string     `json:"currency"`
	Country     string     `json:"country"`
	Published   bool       `json:"published"`
	PublishedAt *time.Time `json:"published_at"`
	CoverURL    string     `json:"cover_url"`
	PublicPath  string     `json:"public_path"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`

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

// decimalOf renders minor units as the API's decimal string.
func decimalOf(minor int64, currency string) string {
	return gateway.Money{Amount: minor, Currency: currency}.Decimal()
}

// Format renders minor units for people (§9).
func Format(minor int64, currency string) string {
	return money.Format(money.Amount{Minor: minor, Currency: currency})
}

// fill completes the output-only fields from the stored ones.
func (c *Campaign) fill() {
	c.Amounts = make([]Amount, len(c.amounts))
	for i, a := range c.amounts {
		c.Amounts[i] = Amount{Amount: decimalOf(a.Minor, c.Currency), Label: a.Label, Formatted: Format(a.Minor, c.Currency)}
	}
	c.MinOtherAmount = nil
	if c.minOther != nil {
		s := decimalOf(*c.minOther, c.Currency)
		c.MinOtherAmount = &s
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
