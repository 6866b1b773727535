package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"net/mail"
	"strings"
	"time"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
)

// Default donation limits in major units (§9); a gateway may override them.
const (
	DefaultMinMajor = 10
	DefaultMaxMajor = 8000
)

// Limits are the smallest and largest donation, in minor units.
type Limits struct{ Min, Max int64 }

// DefaultLimits are 10 to 8000 in the currency's major units.
func DefaultLimits(currency string) Limits {
	unit := money.Unit(currency)
	return Limits{Min: DefaultMinMajor * unit, Max: DefaultMaxMajor * unit}
}

// LimitsFor returns the donation limits of a form: its gateway account's, else the defaults.
func (s *Service) LimitsFor(ctx context.Context, f Form) Limits {
	a, err := s.account(ctx, f)
	lim, _ := s.limitsOf(ctx, f, a, err)
	return lim
}

// MinimumFor is the smallest amount a donor may give on this form within lim (LimitsFor): the
// larger of the limit and, for an amount typed by the donor, the campaign's minimum other amount.
func MinimumFor(f Form, lim Limits, preset bool) int64 {
	m := lim.Min
	if !preset && f.Campaign.minOther != nil && *f.Campaign.minOther > m {
		m = *f.Campaign.minOther
	}
	return m
}

// PublicForm is everything the public donation form needs.
type PublicForm struct {
	Public
	Objective         string            `json:"objective"`
	Amounts           []Preset          `json:"amounts"`
	AllowOneTime      bool              `json:"allow_one_time"`
	AllowOtherAmount  bool              `json:"allow_other_amount"`
	MinOtherAmount    *money.Amount     `json:"min_other_amount"`
	Limits            PublicLimits      `json:"limits"`
	Instalments       int               `json:"instalments"`
	InstalmentOptions []int             `json:"instalment_options"`
	PeriodicIncrease  PeriodicIncrease  `json:"periodic_increase"`
	FormColor         string            `json:"form_color"`
	CoverURL          string            `json:"cover_url"`
	EndsAt            *time.Time        `json:"ends_at"`
	Analytics         Analytics         `json:"analytics"`
	Event             *Event            `json:"event"`
	FormFields        []FormField       `json:"form_fields"`
	DocumentTypes     []string          `json:"document_types"`
	DefaultRecurrency int               `json:"default_recurrency"`
	Gateway           map[string]string `json:"gateway"`
	// AcceptingDonations is false when the form cannot take a donation: ClosedReason says why
	// (gateway_missing: the organisation has no active gateway connection; not_accepting: its
	// trial ended without a plan).
	AcceptingDonations bool    `json:"accepting_donations"`
	ClosedReason       *string `json:"closed_reason"`

	// PaymentMethods are the card brands the organisation's gateway account takes, with the rules
	// the form checks cards by; empty when the gateway could not say (the form's own table applies).
	PaymentMethods []PublicCardMethod `json:"payment_methods"`
	// BankDebit is the off-site bank debit the campaign's processor offers (bankdebit.go); absent: none.
	BankDebit *PublicBankDebit `json:"bank_debit,omitempty"`
}

// PublicLimits are the donation limits in the form's currency.
type PublicLimits struct {
	Min money.Amount `json:"min"`
	Max money.Amount `json:"max"`
}

// publicForm builds the public form's data; complete is false when the gateway did not answer (its
// limits or card brands are the defaults), so the answer is not worth keeping.
func (s *Service) publicForm(ctx context.Context, route tenants.Route) (_ PublicForm, complete bool, _ error) {
	f, err := s.formOf(ctx, route)
	if err != nil {
		return PublicForm{}, false, err
	}
	c := f.Campaign
	// The organisation's account is resolved once: limits, card brands and public key come from it.
	a, err := s.account(ctx, f)
	if err != nil && !errors.Is(err, connections.ErrNotConnected) {
		return PublicForm{}, false, err
	}
	lim, complete := s.limitsOf(ctx, f, a, err)
	p := PublicForm{
		Public: Public{ID: c.ID, Slug: c.Slug, Title: c.Title, Description: c.Description, Type: c.Type,
			Currency: c.Currency, Organization: f.Org.Name, Country: f.Org.Country},
		Objective: c.Objective, Amounts: c.Amounts, AllowOneTime: c.AllowOneTime, AllowOtherAmount: c.AllowOtherAmount,
		MinOtherAmount: c.MinOtherAmount,
		Limits:         PublicLimits{Min: money.New(lim.Min, c.Currency), Max: money.New(lim.Max, c.Currency)},
		Instalments:    c.Instalments, InstalmentOptions: []int{}, PeriodicIncrease: c.PeriodicIncrease,
		FormColor: c.FormColor, CoverURL: c.CoverURL, EndsAt: c.EndsAt, Analytics: c.Analytics, Event: c.Event,
		FormFields: c.FormFields, DocumentTypes: []string{}, DefaultRecurrency: 1,
		Gateway: map[string]string{}, PaymentMethods: []PublicCardMethod{}, AcceptingDonations: err == nil,
	}
	if err != nil {
		p.ClosedReason = ptr("gateway_missing")
	} else {
		co, answered := s.checkoutOf(ctx, f, a)
		p.Gateway = map[string]string{"name": co.Gateway, "tokenizer_url": co.TokenizerURL, "public_key": co.PublicKey}
		if co.Vault != nil {
			p.Gateway["vault_url"], p.Gateway["vault_key"] = co.Vault.URL, co.Vault.Key
		}
		p.PaymentMethods, complete = co.PaymentMethods, complete && answered
		if !f.Org.AcceptingDonations {
			p.AcceptingDonations, p.ClosedReason = false, ptr("not_accepting")
		}
	}
	for _, n := range Instalments[1:] {
		if n <= c.Instalments {
			p.InstalmentOptions = append(p.InstalmentOptions, n)
		}
	}
	lo, hi := c.PeriodicIncrease.Bounds()
	p.PeriodicIncrease.MinPercentage, p.PeriodicIncrease.MaxPercentage = &lo, &hi
	codes, err := f.Scope.Store().DocumentTypesOfCountry(ctx, f.Org.Country)
	if err != nil {
		return PublicForm{}, false, err
	}
	p.DocumentTypes = append(p.DocumentTypes, codes...)
	if p.AcceptingDonations {
		p.BankDebit = s.bankDebitOf(ctx, f, a, codes)
	}
	return p, complete, nil
}

func ptr[T any](v T) *T { return &v }

// SlugRequest names a published campaign by its public slug.
type SlugRequest struct {
	Slug string `path:"slug" json:"-"`
}

// GetPublic answers GET /api/public/campaigns/:slug with a PublicForm.
func (h *Handler) GetPublic(ctx context.Context, r *SlugRequest) (*json.RawMessage, error) {
	p, err := h.svc.PublicJSON(ctx, r.Slug)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// PostVisit answers POST /api/public/campaigns/:slug/visits (no body): one visit counted.
func (h *Handler) PostVisit(ctx context.Context, r *SlugRequest) (*struct{}, error) {
	f, err := h.svc.FormBySlug(ctx, r.Slug)
	if err != nil {
		return nil, err
	}
	return nil, h.svc.CountVisit(ctx, f)
}

// LeadRequest is a person who typed a valid e-mail on the form.
type LeadRequest struct {
	SlugRequest
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
}

// Validate normalises the address and trims the name to 100 characters.
func (r *LeadRequest) Validate() error {
	email, ok := NormalizeEmail(r.Email)
	if !ok {
		return apierror.Validation(map[string]string{"email": "campaign.email_invalid"})
	}
	r.Email = email
	r.FirstName = strings.TrimSpace(r.FirstName)
	if len([]rune(r.FirstName)) > 100 {
		r.FirstName = string([]rune(r.FirstName)[:100])
	}
	return nil
}

// PostLead answers POST /api/public/campaigns/:slug/leads {email, first_name?}.
func (h *Handler) PostLead(ctx context.Context, r *LeadRequest) (*struct{}, error) {
	f, err := h.svc.FormBySlug(ctx, r.Slug)
	if err != nil {
		return nil, err
	}
	return nil, h.svc.SaveLead(ctx, f, r.Email, r.FirstName)
}

// NormalizeEmail trims and lowercases an address and reports whether it is well formed.
func NormalizeEmail(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > 254 {
		return "", false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 1 || !strings.Contains(s[at+1:], ".") {
		return "", false
	}
	return s, true
}
