package reference

import (
	"context"
	"slices"

	"github.com/aporta/aporta/internal/sharddb"
)

// Bank is one bank of a country's list: its official code and label, and its own account types
// when they differ from the country's (Uruguay's BROU).
type Bank struct {
	Code         string   `json:"code"`
	Label        string   `json:"label"`
	AccountTypes []string `json:"account_types,omitempty"`
}

// BankParams is a country's bank account form (organisation-and-account §3 "Bank account"): the
// extra fields it requires (bank_address, bank_city, bank_branch), its default account types (C
// current, S savings, V vista, M master; none: the form asks no type) and its banks, by label.
type BankParams struct {
	RequiredFields []string `json:"required_fields"`
	AccountTypes   []string `json:"account_types"`
	Banks          []Bank   `json:"banks"`
}

// Bank is the country's bank with this code.
func (p BankParams) Bank(code string) (Bank, bool) {
	i := slices.IndexFunc(p.Banks, func(b Bank) bool { return b.Code == code })
	if i < 0 {
		return Bank{}, false
	}
	return p.Banks[i], true
}

// TypesOf is the account types of bank: its own, or else the country's.
func (p BankParams) TypesOf(b Bank) []string {
	if b.AccountTypes != nil {
		return b.AccountTypes
	}
	return p.AccountTypes
}

// Requires says whether the country's form asks for field.
func (p BankParams) Requires(field string) bool { return slices.Contains(p.RequiredFields, field) }

// Banks returns country's bank form; a country without banks has an empty list and requires nothing.
func Banks(ctx context.Context, q *sharddb.Queries, country string) (BankParams, error) {
	out := BankParams{RequiredFields: []string{}, AccountTypes: []string{}, Banks: []Bank{}}
	params, err := q.BankCountries(ctx, []string{country})
	if err != nil {
		return out, err
	}
	if len(params) == 1 {
		out.RequiredFields, out.AccountTypes = params[0].RequiredFields, params[0].AccountTypes
	}
	banks, err := q.Banks(ctx, []string{country})
	if err != nil {
		return out, err
	}
	for _, b := range banks {
		out.Banks = append(out.Banks, Bank{Code: b.Code, Label: b.Label, AccountTypes: b.AccountTypes})
	}
	return out, nil
}
