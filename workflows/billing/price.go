package billing

import (
	"context"

	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
)

// Rates is the dollar MEP rate in force (*mep.Rates).
type Rates interface {
	Current(ctx context.Context) (mep.Quote, error)
}

// Price is what a plan costs when it is charged: in pesos, its USD list price at the MEP rate in
// force (organisation-and-account §9 "MEP note"); in any other currency, the country's price.
type Price struct {
	Amount money.Amount
	USD    *money.Amount // the list price an ARS amount was converted from
	MEP    *mep.Quote    // the rate it was converted at
}

// Price prices a plan of the country now.
func (a *Activities) Price(ctx context.Context, country reference.Country, plan reference.Plan) (Price, error) {
	q, err := a.quote(ctx, country)
	if err != nil {
		return Price{}, err
	}
	return priceAt(plan, q)
}

// quote is the MEP rate in force for a country that pays in pesos; nil for any other.
func (a *Activities) quote(ctx context.Context, country reference.Country) (*mep.Quote, error) {
	if country.Currency != mep.Currency {
		return nil, nil
	}
	if a.Rates == nil {
		return nil, temporal.NewNonRetryableApplicationError("no MEP rate source", "NoMEPRate", nil)
	}
	q, err := a.Rates.Current(ctx)
	if err != nil {
		return nil, err // mep.ErrUnavailable included: retried until the provider answers
	}
	return &q, nil
}

// priceAt prices plan at q (nil: the country's own price).
func priceAt(plan reference.Plan, q *mep.Quote) (Price, error) {
	if q == nil || plan.USDPrice.Minor <= 0 {
		return Price{Amount: plan.LocalizePrice}, nil
	}
	ars, err := mep.Convert(plan.USDPrice, q.Rate)
	if err != nil {
		return Price{}, err
	}
	return Price{Amount: ars, USD: &plan.USDPrice, MEP: q}, nil
}

// open opens an invoice of p.Amount, with the rate it was priced at; one already open keeps its price.
func (p Price) open(ctx context.Context, st *sharddb.Queries, inv sharddb.OpenSubscriptionInvoiceParams) error {
	inv.AmountMinor, inv.Currency = p.Amount.Minor, p.Amount.Currency
	if p.USD != nil && p.MEP != nil {
		inv.UsdPriceMinor, inv.MepRateMinor, inv.MepSource, inv.MepAsOf = &p.USD.Minor, &p.MEP.Rate.Minor, &p.MEP.Source, &p.MEP.AsOf
	}
	return st.OpenSubscriptionInvoice(ctx, inv)
}
