// Package rates serves the dollar MEP rate of the ARS note (organisation-and-account §9; issue #14):
// GET /api/public/mep, the rate in force with its source and day and every Argentine plan's USD
// price in pesos at it (the pricing and checkout pages show it), and, in the staff console, the
// rate's history and its override (GET/POST /staff/api/mep), kept with who set it and why.
package rates

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
)

// Shards is what the handler needs of tenants.Tenants: Argentina's shard, for its plans.
type Shards interface {
	Shard(country string) (*pgxpool.Pool, error)
}

// Handler serves the rate.
type Handler struct {
	rates  *mep.Rates
	shards Shards
	now    func() time.Time
}

// NewHandler builds the handler.
func NewHandler(r *mep.Rates, s Shards) *Handler { return &Handler{rates: r, shards: s, now: time.Now} }

// Mount mounts the public route, and the staff ones behind staffOnly (the console's RequireStaff).
func (h *Handler) Mount(g endpoint.Groups, staffOnly gin.HandlerFunc) {
	g.Public.GET("/api/public/mep", endpoint.Handle(h.Public))
	s := g.Staff.Group("", staffOnly)
	s.GET("/mep", endpoint.Handle(h.Staff))
	s.POST("/mep", endpoint.Handle(h.Override))
}

// Note is GET /api/public/mep: the rate in force and each Argentine plan's USD price in pesos at it.
type Note struct {
	MEP    mep.Quote               `json:"mep"`
	Prices map[string]money.Amount `json:"prices"` // by plan code
}

// Headers lets browsers and proxies keep the note a few minutes (the rate is a day's).
func (*Note) Headers() http.Header { return http.Header{"Cache-Control": {"public, max-age=300"}} }

// Public answers the note; 503 mep.unavailable when no rate was ever had.
func (h *Handler) Public(ctx context.Context, _ *struct{}) (*Note, error) {
	q, err := h.current(ctx)
	if err != nil {
		return nil, err
	}
	pool, err := h.shards.Shard("AR")
	if err != nil {
		return nil, err
	}
	countries, err := reference.Countries(ctx, sharddb.Store(pool), []string{"AR"})
	if err != nil {
		return nil, err
	}
	out := &Note{MEP: q, Prices: map[string]money.Amount{}}
	for _, c := range countries {
		for _, p := range c.Plans {
			if p.USDPrice.Minor <= 0 {
				continue
			}
			ars, err := mep.Convert(p.USDPrice, q.Rate)
			if err != nil {
				return nil, err
			}
			out.Prices[p.Code] = ars
		}
	}
	return out, nil
}

func (h *Handler) current(ctx context.Context) (mep.Quote, error) {
	q, err := h.rates.Current(ctx)
	if errors.Is(err, mep.ErrUnavailable) {
		return q, apierror.New(http.StatusServiceUnavailable, "mep.unavailable")
	}
	return q, err
}

// History is GET /staff/api/mep: the rate in force and the newest rows (quotes and overrides).
type History struct {
	Current mep.Quote       `json:"current"`
	Entries []mep.RateEntry `json:"entries"`
}

// Staff answers the history.
func (h *Handler) Staff(ctx context.Context, _ *struct{}) (*History, error) {
	q, err := h.rates.Current(ctx) // none yet: staff may set the first
	if err != nil && !errors.Is(err, mep.ErrUnavailable) {
		return nil, err
	}
	entries, err := h.rates.History(ctx, 30)
	if err != nil {
		return nil, err
	}
	return &History{Current: q, Entries: entries}, nil
}

// MaxReason caps an override's reason.
const MaxReason = 500

// OverrideRequest is POST /staff/api/mep {rate: "1450.25", as_of: "2026-11-24", reason}.
type OverrideRequest struct {
	Rate   string `json:"rate"`
	AsOf   string `json:"as_of"`
	Reason string `json:"reason"`
}

// Validate: a positive peso amount, a day, a reason.
func (r *OverrideRequest) Validate() error {
	fields := map[string]string{}
	if a, err := money.Parse(strings.TrimSpace(r.Rate), mep.Currency); err != nil || a.Minor <= 0 || a.Minor > 1_000_000_00 {
		fields["rate"] = "mep.rate_invalid"
	}
	if _, ok := mep.ParseDay(r.AsOf); !ok {
		fields["as_of"] = "mep.day_invalid"
	}
	r.Reason = strings.TrimSpace(r.Reason)
	if r.Reason == "" || len([]rune(r.Reason)) > MaxReason {
		fields["reason"] = "mep.reason_required"
	}
	return apierror.Invalid(fields)
}

// Override sets the rate of a day (today or a past day, never a later one) and answers the history.
func (h *Handler) Override(ctx context.Context, r *OverrideRequest) (*History, error) {
	rate, _ := money.Parse(strings.TrimSpace(r.Rate), mep.Currency)
	day, _ := mep.ParseDay(r.AsOf)
	if day.After(mep.Day(h.now())) {
		return nil, apierror.Validation(map[string]string{"as_of": "mep.day_invalid"})
	}
	u := authz.CurrentUser(ctx)
	if _, err := h.rates.Override(ctx, mep.Staff{ID: u.ID, Email: u.Email}, rate, day, r.Reason); err != nil {
		return nil, err
	}
	return h.Staff(ctx, nil)
}

func init() {
	i18n.Register(i18n.Catalog{
		"mep.unavailable": {
			i18n.ES:   "No pudimos obtener el tipo de cambio MEP. Intenta de nuevo en unos minutos.",
			i18n.ESAR: "No pudimos obtener el tipo de cambio MEP. Intentá de nuevo en unos minutos.",
			i18n.EN:   "We could not get the MEP exchange rate. Try again in a few minutes.",
			i18n.PT:   "Não foi possível obter a taxa de câmbio MEP. Tente novamente em alguns minutos.",
		},
		"mep.rate_invalid": {
			i18n.ES:   "Escribe el precio de un dólar en pesos, mayor que cero, con hasta dos decimales (por ejemplo 1450.25).",
			i18n.ESAR: "Escribí el precio de un dólar en pesos, mayor que cero, con hasta dos decimales (por ejemplo 1450.25).",
			i18n.EN:   "Write the price of one dollar in pesos, above zero, with up to two decimals (for example 1450.25).",
			i18n.PT:   "Escreva o preço de um dólar em pesos, maior que zero, com até duas casas decimais (por exemplo 1450.25).",
		},
		"mep.day_invalid": {
			i18n.ES:   "Elige el día del tipo de cambio: hoy o un día anterior.",
			i18n.ESAR: "Elegí el día del tipo de cambio: hoy o un día anterior.",
			i18n.EN:   "Choose the day of the rate: today or an earlier day.",
			i18n.PT:   "Escolha o dia da taxa: hoje ou um dia anterior.",
		},
		"mep.reason_required": {
			i18n.ES:   "Escribe por qué cambias el tipo de cambio (hasta 500 caracteres).",
			i18n.ESAR: "Escribí por qué cambiás el tipo de cambio (hasta 500 caracteres).",
			i18n.EN:   "Write why you are changing the rate (up to 500 characters).",
			i18n.PT:   "Escreva por que você altera a taxa de câmbio (até 500 caracteres).",
		},
	})
}
