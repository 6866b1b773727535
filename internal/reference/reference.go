// Package reference reads the reference data every shard holds whole: the countries Aporta
// operates in with their currency, timezone and phone code, the tax-id types an organisation signs
// up with, and the donor document types. The database is its only copy; Go and the web ask here
// rather than keep tables of their own. (Check digits and masks are code: internal/taxid.)
package reference

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Querier is a shard pool or a tenants.Scope.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

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
}

const countriesSQL = `
SELECT c.code, c.currency, c.timezone, c.phone_code,
       coalesce((SELECT json_agg(json_build_object('type', u.uid_type, 'placeholder', u.placeholder) ORDER BY u.position)
                 FROM uid_options u WHERE u.country = c.code), '[]'),
       ARRAY(SELECT d.code FROM document_types d WHERE c.code = ANY (d.countries) ORDER BY d.code)
FROM countries c WHERE c.code = ANY ($1::text[]) ORDER BY c.code`

// Countries returns the countries among codes, ordered by code.
func Countries(ctx context.Context, q Querier, codes []string) ([]Country, error) {
	rows, err := q.Query(ctx, countriesSQL, codes)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Country, error) {
		var c Country
		err := r.Scan(&c.Code, &c.Currency, &c.Timezone, &c.PhoneCode, &c.UIDOptions, &c.DocumentTypes)
		return c, err
	})
}

// Get returns one country, pgx.ErrNoRows if the table does not have it.
func Get(ctx context.Context, q Querier, code string) (Country, error) {
	cs, err := Countries(ctx, q, []string{code})
	if err == nil && len(cs) == 0 {
		err = pgx.ErrNoRows
	}
	if err != nil {
		return Country{}, err
	}
	return cs[0], nil
}
