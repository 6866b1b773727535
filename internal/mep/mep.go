// Package mep is the dollar MEP rate of the ARS note (organisation-and-account §9): Aporta's plans
// are priced in US dollars and Argentine organisations pay them in pesos at the MEP ("bolsa")
// rate. The rate comes from a configurable provider (APORTA_MEP_URL, answering in dolarapi.com's
// shape; the sandbox gateway serves one in dev and tests), is cached in the directory with its
// source and day, and staff may override it for a day from the console.
package mep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/money"
)

// Currency is what the MEP rate prices a dollar in.
const Currency = "ARS"

// Argentina is the zone the rate's day is reckoned in.
var Argentina = func() *time.Location {
	loc, err := time.LoadLocation("America/Argentina/Buenos_Aires")
	if err != nil {
		return time.FixedZone("ART", -3*60*60)
	}
	return loc
}()

// Quote is what one US dollar costs in pesos on a day, and who says so.
type Quote struct {
	Rate     money.Amount `json:"rate"` // ARS for 1 USD
	Source   string       `json:"source"`
	AsOf     time.Time    `json:"as_of"`    // the day, at midnight UTC
	Override bool         `json:"override"` // set by staff
}

// Day is a time's calendar day in Argentina, as the quote's AsOf holds it.
func Day(t time.Time) time.Time {
	y, m, d := t.In(Argentina).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// ErrCurrency: Convert was given amounts it cannot multiply.
var ErrCurrency = errors.New("mep: the price must be in USD and the rate in ARS")

// Convert is a US-dollar price in pesos at rate: price × rate, rounded half up to the centavo
// (exact integer arithmetic, no floating point).
func Convert(usd, rate money.Amount) (money.Amount, error) {
	if usd.Currency != "USD" || rate.Currency != Currency || usd.Minor < 0 || rate.Minor <= 0 {
		return money.Amount{}, ErrCurrency
	}
	// usd.Minor cents × rate.Minor centavos-per-dollar / 100 cents-per-dollar.
	n := new(big.Int).Mul(big.NewInt(usd.Minor), big.NewInt(rate.Minor))
	unit := big.NewInt(money.Unit("USD"))
	q, r := new(big.Int).QuoRem(n, unit, new(big.Int))
	if new(big.Int).Mul(r, big.NewInt(2)).Cmp(unit) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return money.Amount{}, money.ErrRange
	}
	return money.New(q.Int64(), Currency), nil
}

// Provider answers today's quote.
type Provider interface {
	Quote(ctx context.Context) (Quote, error)
}

// HTTP reads the quote from URL in dolarapi.com's shape:
// {"casa": "bolsa", "compra": 1420.5, "venta": 1445.5, "fechaActualizacion": "2026-11-24T17:57:00.000Z"}.
// The selling price ("venta") is what buying dollars costs; Name is the source shown with it.
type HTTP struct {
	URL, Name string
	Client    *http.Client // 10-second timeout when nil
}

// Quote fetches the quote.
func (h HTTP) Quote(ctx context.Context) (Quote, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL, nil)
	if err != nil {
		return Quote{}, err
	}
	req.Header.Set("Accept", "application/json")
	c := h.Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	res, err := c.Do(req)
	if err != nil {
		return Quote{}, fmt.Errorf("mep: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return Quote{}, fmt.Errorf("mep: %s answered %d", h.URL, res.StatusCode)
	}
	var body struct {
		Venta json.Number `json:"venta"`
		Fecha time.Time   `json:"fechaActualizacion"`
	}
	dec := json.NewDecoder(io.LimitReader(res.Body, 1<<16))
	dec.UseNumber()
	if err := dec.Decode(&body); err != nil {
		return Quote{}, fmt.Errorf("mep: %w", err)
	}
	rate, err := money.ParseWire(body.Venta.String(), Currency)
	if err != nil || rate.Minor <= 0 || body.Fecha.IsZero() {
		return Quote{}, fmt.Errorf("mep: a quote without a positive price or a date: %q", body.Venta)
	}
	return Quote{Rate: rate, Source: h.Name, AsOf: Day(body.Fecha)}, nil
}

// Rates is the rate in force: the provider's quote cached in the directory, or a staff override.
type Rates struct {
	Directory *dirdb.Queries
	Provider  Provider
	// MaxAge is how long a provider quote is used before the provider is asked again.
	MaxAge time.Duration
	Now    func() time.Time
	Log    *slog.Logger
}

// NewRates builds the rates over the directory.
func NewRates(directory *pgxpool.Pool, p Provider) *Rates {
	return &Rates{Directory: dirdb.Store(directory), Provider: p, MaxAge: time.Hour, Now: time.Now, Log: slog.Default()}
}

// ErrUnavailable: no quote was ever had and the provider does not answer.
var ErrUnavailable = errors.New("mep: no rate available")

// Current is the rate in force. A provider quote older than MaxAge is refreshed first; when the
// provider fails, the last rate known is used, its day showing how old it is.
func (r *Rates) Current(ctx context.Context) (Quote, error) {
	last, err := r.Directory.LatestProviderRate(ctx, Currency)
	if err != nil && !errors.Is(err, dberr.ErrNotFound) {
		return Quote{}, err
	}
	if errors.Is(err, dberr.ErrNotFound) || r.Now().Sub(last.CreatedAt) > r.MaxAge {
		q, err := r.Provider.Quote(ctx)
		if err == nil {
			_, err = r.Directory.InsertExchangeRate(ctx, dirdb.InsertExchangeRateParams{
				Currency: Currency, RateMinor: q.Rate.Minor, Source: q.Source, AsOf: q.AsOf})
		}
		if err != nil {
			r.Log.Warn("mep: the rate provider failed; the last rate known stands", "error", err)
		}
	}
	row, err := r.Directory.CurrentExchangeRate(ctx, Currency)
	if errors.Is(err, dberr.ErrNotFound) {
		return Quote{}, ErrUnavailable
	}
	if err != nil {
		return Quote{}, err
	}
	return quoteOf(row), nil
}

func quoteOf(row dirdb.ExchangeRate) Quote {
	return Quote{Rate: money.New(row.RateMinor, row.Currency), Source: row.Source, AsOf: row.AsOf, Override: row.StaffUserID != nil}
}

// Staff is who overrides the rate.
type Staff struct {
	ID    uuid.UUID
	Email string
}

// OverrideSource is the source an override is shown with.
const OverrideSource = "Aporta"

// Override sets the rate of a day, by staff and with a reason (kept with it, the override's audit).
func (r *Rates) Override(ctx context.Context, by Staff, rate money.Amount, day time.Time, reason string) (Quote, error) {
	row, err := r.Directory.InsertExchangeRate(ctx, dirdb.InsertExchangeRateParams{
		Currency: Currency, RateMinor: rate.Minor, Source: OverrideSource, AsOf: day,
		StaffUserID: &by.ID, StaffEmail: &by.Email, Reason: &reason})
	if err != nil {
		return Quote{}, err
	}
	return quoteOf(row), nil
}

// RateEntry is one row of the rate's history, as the staff console lists it.
type RateEntry struct {
	Quote
	StaffEmail *string   `json:"staff_email"`
	Reason     *string   `json:"reason"`
	CreatedAt  time.Time `json:"created_at"`
}

// History is the newest n rows.
func (r *Rates) History(ctx context.Context, n int32) ([]RateEntry, error) {
	rows, err := r.Directory.ExchangeRateHistory(ctx, dirdb.ExchangeRateHistoryParams{Currency: Currency, Limit: n})
	if err != nil {
		return nil, err
	}
	out := make([]RateEntry, len(rows))
	for i, row := range rows {
		out[i] = RateEntry{Quote: quoteOf(row), StaffEmail: row.StaffEmail, Reason: row.Reason, CreatedAt: row.CreatedAt}
	}
	return out, nil
}

// ParseDay reads a day written YYYY-MM-DD.
func ParseDay(s string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	return t, err == nil
}
