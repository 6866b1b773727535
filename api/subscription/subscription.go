// Package subscription is the plan API of the manage area: the organisation's subscription (plan,
// trial dates, status, commission). The organisation only reads it here: a plan changes through a
// billing event or a staff action (Grant, behind the staff console), never by the organisation's
// own say-so. The organisation's subscription workflow (workflows/subscription) applies a plan
// through a Temporal update; Grant returns once the workflow stored it.
//
//	GET  /manage/api/subscription        (view)
package subscription

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/tenants"
	flow "github.com/aporta/aporta/workflows/subscription"
)

// Handler serves the plan API.
type Handler struct {
	Tenants  *tenants.Tenants
	Temporal client.Client
	Queue    string // flow.TaskQueue unless a test runs its own worker
}

// NewHandler builds the handler on the production task queue.
func NewHandler(t *tenants.Tenants, c client.Client) *Handler {
	return &Handler{Tenants: t, Temporal: c, Queue: flow.TaskQueue}
}

// Mount mounts GET /manage/api/subscription.
func (h *Handler) Mount(g endpoint.Groups) {
	g.Manage.GET("/subscription", g.Authz.Require(authz.View), endpoint.Handle(Get))
}

// View is the subscription as the API answers it.
type View struct {
	PlanCode           string       `json:"plan_code"`
	EffectivePlanCode  string       `json:"effective_plan_code"`
	Status             string       `json:"status"`
	TrialStartedAt     *time.Time   `json:"trial_started_at"`
	TrialEndsAt        *time.Time   `json:"trial_ends_at"`
	CommissionBps      int          `json:"commission_bps"`
	CommissionPercent  float64      `json:"commission_percent"`
	CommissionTotal    money.Amount `json:"commission_total"` // in the country's currency, which the campaigns charge in
	AcceptingDonations bool         `json:"accepting_donations"`
}

func viewOf(s flow.Summary, currency string) View {
	v := View{PlanCode: s.PlanCode, EffectivePlanCode: s.PlanCode, Status: s.Status, TrialStartedAt: s.TrialStartedAt,
		TrialEndsAt: s.TrialEndsAt, CommissionBps: s.CommissionBps, CommissionPercent: float64(s.CommissionBps) / 100,
		CommissionTotal: money.New(s.CommissionMinor, currency), AcceptingDonations: s.Accepting}
	if s.Status == flow.StatusTrial {
		v.EffectivePlanCode = flow.TrialPlan
	}
	return v
}

// Answer is the answer of GET /manage/api/subscription.
type Answer struct {
	Subscription View `json:"subscription"`
}

// Get answers the current organisation's subscription.
func Get(ctx context.Context, _ *struct{}) (*Answer, error) {
	s, err := authz.Scope(ctx)
	if err != nil {
		return nil, err
	}
	sum, err := flow.Get(ctx, s)
	if err != nil {
		return nil, err
	}
	country, err := reference.Get(ctx, s.Store(), s.Country)
	if err != nil {
		return nil, err
	}
	return &Answer{Subscription: viewOf(sum, country.Currency)}, nil
}

// Grant applies a plan to the organisation (the staff console's action; a paid plan is bought
// through billing, never set by the organisation itself). An unknown code is a validation error.
func (h *Handler) Grant(ctx context.Context, orgID uuid.UUID, planCode string) error {
	code := strings.TrimSpace(planCode)
	if code == "" {
		return apierror.Validation(map[string]string{"plan_code": "subscription.plan_code_required"})
	}
	s, err := h.Tenants.ForOrganization(ctx, orgID)
	if errors.Is(err, tenants.ErrUnknownOrganization) {
		return apierror.NotFound()
	}
	if err != nil {
		return err
	}
	ok, err := flow.PlanExists(ctx, s, code)
	if err != nil {
		return err
	}
	if !ok || !flow.ValidPlanCode(code) {
		return apierror.Validation(map[string]string{"plan_code": "subscription.unknown_plan"})
	}
	uctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := flow.PurchasePlan(uctx, h.Temporal, h.Queue, s.OrgID, code); err != nil {
		var appErr *temporal.ApplicationError
		if errors.As(err, &appErr) && appErr.Type() == flow.ErrUnknownPlan {
			return apierror.Validation(map[string]string{"plan_code": "subscription.unknown_plan"})
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return &apierror.Error{Status: http.StatusServiceUnavailable, Code: "subscription.busy", Err: err}
		}
		return err
	}
	return nil
}

func init() {
	i18n.Register(i18n.Catalog{
		"subscription.plan_code_required": {i18n.ES: "Elige un plan.", i18n.EN: "Choose a plan.", i18n.PT: "Escolha um plano."},
		"subscription.unknown_plan":       {i18n.ES: "El plan elegido no existe.", i18n.EN: "The chosen plan does not exist.", i18n.PT: "O plano escolhido não existe."},
		"subscription.busy":               {i18n.ES: "No pudimos aplicar el plan ahora. Intenta de nuevo en unos minutos.", i18n.EN: "We could not apply the plan right now. Please try again in a few minutes.", i18n.PT: "Não conseguimos aplicar o plano agora. Tente novamente em alguns minutos."},
	})
}
