package donation

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/tenants"
)

// filter is the package's one builder of dynamic SQL: the donations list (and its CSV) and the
// transactions list add the conditions their query string asks for. Values always travel as
// parameters; only the fixed condition texts written here become SQL.
type filter struct {
	conds []string
	args  []any
}

// add appends a condition; each %s in cond is replaced by a parameter holding the next value.
func (f *filter) add(cond string, values ...any) {
	params := make([]any, len(values))
	for i, v := range values {
		f.args = append(f.args, v)
		params[i] = "$" + strconv.Itoa(len(f.args))
	}
	f.conds = append(f.conds, fmt.Sprintf(cond, params...))
}

// where is the conditions joined with AND.
func (f *filter) where() string { return strings.Join(f.conds, " AND ") }

// page is the LIMIT and OFFSET of a page (1…) of per rows, with their arguments after the filter's.
func (f *filter) page(page, per int) (string, []any) {
	n := len(f.args)
	args := append(append([]any{}, f.args...), per, (page-1)*per)
	return " LIMIT $" + strconv.Itoa(n+1) + " OFFSET $" + strconv.Itoa(n+2), args
}

// pageOf counts the rows the filter lets through (count is "SELECT count(*) FROM <table> <alias> WHERE ")
// and reads one page of them with sel (a SELECT ending in WHERE) in the given order.
func pageOf[T any](ctx context.Context, scope tenants.Scope, f *filter, count, sel, order string, page, per int,
	scan func(pgx.Rows) (T, error)) (total int, items []T, err error) {
	if err := scope.QueryRow(ctx, count+f.where(), f.args...).Scan(&total); err != nil {
		return 0, nil, err
	}
	limit, args := f.page(page, per)
	rows, err := scope.Query(ctx, sel+f.where()+" ORDER BY "+order+limit, args...)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	items = []T{}
	for rows.Next() {
		it, err := scan(rows)
		if err != nil {
			return 0, nil, err
		}
		items = append(items, it)
	}
	return total, items, rows.Err()
}
