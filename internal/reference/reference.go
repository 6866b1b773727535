// Package reference reads the reference data every shard holds whole: the countries Aporta
// operates in with their currency, timezone and phone code, the tax-id types an organisation signs
// up with, the donor document types, and the plans with their prices in each country. The database is its only copy; Go and the web ask here
// rather than keep tables of their own. (Check digits and masks are code: internal/taxid.)
package reference

import (
	"context"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
)

// UIDOption is a tax-id type an organisation may sign up with, and an example in its mask.
type UIDOption struct {
	Type        string `json:"type"`
	Placeholder string `json:"placeholder"`
}

// Country is one country's data (organisation-and-account §3 Country data).
type Country struct {
	Code          string      `json:"identifier"`
	Currency      string      `json:"currency"`
	Timezone      string      `json:"timezone"`
	PhoneCode     string      `json:"phone_code"`
	UIDOptions    []UIDOption `json:"uid_options"`    // in the order the signup form offers them
	DocumentTypes []string    `json:"document_types"` // a donor's identity documents
	PaymentModes  []string    `json:"payment_modes"`  // how its organisations may pay a plan: card, cbu, bank_transfer
	Plans         []Plan      `json:"plans"`          // by tier, monthly before yearly
	// PhoneCodes are what a phone input offers (every country's, the same for all), and Categories
	// the themes an organisation may describe its work with (codes; the web names them).
	PhoneCodes []PhoneCode `json:"phone_codes"`
	Categories []string    `json:"categories"`
}

// PhoneCode is a country's international dialling code (organisation-and-account §3 Country data).
type PhoneCode struct {
	ISO       string `json:"iso"`
	Name      string `json:"name"`
	PhoneCode string `json:"phone_code"`
}

// Plan is one plan as a country sells it (organisation-and-account §3 Plan).
type Plan struct {
	Code          string       `json:"code"`
	TierName      string       `json:"tier_name"` // Original, Essential, Professional, Partner
	Period        string       `json:"period"`    // monthly or yearly
	LocalizePrice money.Amount `json:"localize_price"`
	USDPrice      money.Amount `json:"usd_price"`
}

// Plan returns the country's plan with this code.
func (c Country) Plan(code string) (Plan, bool) {
	for _, p := range c.Plans {
		if p.Code == code {
			return p, true
		}
	}
	return Plan{}, false
}

// Countries returns the countries among codes, ordered by code, read through a shard's store.
func Countries(ctx context.Context, q *sharddb.Queries, codes []string) ([]Country, error) {
	rows, err := q.Countries(ctx, codes)
	if err != nil {
		return nil, err
	}
	options, err := q.UIDOptions(ctx, codes)
	if err != nil {
		return nil, err
	}
	plans, err := q.CountryPlans(ctx, codes)
	if err != nil {
		return nil, err
	}
	phoneRows, err := q.PhoneCodes(ctx)
	if err != nil {
		return nil, err
	}
	phones := make([]PhoneCode, len(phoneRows))
	for i, p := range phoneRows {
		phones[i] = PhoneCode{ISO: p.Iso, Name: p.Name, PhoneCode: p.PhoneCode}
	}
	categories, err := q.OrganizationCategories(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Country, len(rows))
	for i, r := range rows {
		out[i] = Country{Code: r.Code, Currency: r.Currency, Timezone: r.Timezone, PhoneCode: r.PhoneCode,
			UIDOptions: []UIDOption{}, DocumentTypes: r.DocumentTypes, PaymentModes: r.PaymentModes, Plans: []Plan{},
			PhoneCodes: phones, Categories: categories}
		for _, o := range options {
			if o.Country == r.Code {
				out[i].UIDOptions = append(out[i].UIDOptions, UIDOption{Type: o.UidType, Placeholder: o.Placeholder})
			}
		}
		for _, p := range plans {
			if p.Country != r.Code {
				continue
			}
			usd, err := money.Parse(p.UsdPrice, "USD")
			if err != nil {
				return nil, err
			}
			out[i].Plans = append(out[i].Plans, Plan{Code: p.Code, TierName: p.TierName, Period: p.Period,
				LocalizePrice: money.New(p.LocalizePriceMinor, p.Currency), USDPrice: usd})
		}
	}
	return out, nil
}

// Get returns one country; dberr.ErrNotFound if the table does not have it.
func Get(ctx context.Context, q *sharddb.Queries, code string) (Country, error) {
	cs, err := Countries(ctx, q, []string{code})
	if err == nil && len(cs) == 0 {
		err = dberr.ErrNotFound
	}
	if err != nil {
		return Country{}, err
	}
	return cs[0], nil
}
