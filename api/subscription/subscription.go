// Package subscription is the plan API of the manage area: the organisation's subscription (plan,
// trial dates, status, commission), its checkout and billing. A paid plan applies only once its
// first period is paid (checkout.go: a card charged through the platform's own gateway account)
// or by a staff action (Grant, behind the staff console), never by the organisation's own say-so.
// The organisation's subscription workflow (workflows/subscription) applies a plan through a
// Temporal update; workflows/billing charges the following periods.
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
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/billing"
	flow "github.com/aporta/aporta/workflows/subscription"
)

// Handler serves the plan API.
type Handler struct {
	Tenants  *tenants.Tenants
	Temporal client.Client
	Queue    string // flow.TaskQueue unless a test runs its own worker
	// Checkout: the platform's own gateway account (its customers and cards, and the currency it
	// takes), the billing steps the API runs for the first period, the billing workflows, and the
	// platform's tokeniser the browser sends the card to.
	Platform  billing.Platform
	Vault     Vault
	Billing   *billing.Activities
	Bills     billing.Client
	Tokenizer Tokenizer
}

// Tokenizer is where the browser tokenises a card: the platform's public key, never an
// organisation's.
type Tokenizer struct {
	URL       string `json:"tokenizer_url"`
	PublicKey string `json:"public_key"`
}

// NewHandler builds the handler on the production task queues.
func NewHandler(t *tenants.Tenants, c client.Client, platform *billing.PlatformAccount, bills *billing.Activities, tok Tokenizer) *Handler {
	return &Handler{Tenants: t, Temporal: c, Queue: flow.TaskQueue, Platform: platform, Vault: platform.Client,
		Billing: bills, Bills: billing.Client{Temporal: c}, Tokenizer: tok}
}

// Mount mounts the subscription, its checkout and the validations.
//
//	GET  /manage/api/subscription, GET /manage/api/subscription/invoices/{id}/pdf  (view)
//	POST /manage/api/validations/card|cbu|bank_transfer, POST /manage/api/subscription,
//	PUT  /manage/api/subscription/payment_mode, POST /manage/api/subscription/change|cancel  (manage organisation)
func (h *Handler) Mount(g endpoint.Groups) {
	g.Manage.GET("/subscription", g.Authz.Require(authz.View), endpoint.HandleScoped(h.Get))
	g.Manage.GET("/subscription/invoices/:id/pdf", g.Authz.Require(authz.View), h.InvoicePDF)
	admin := g.Authz.Require(authz.ManageOrganization)
	g.Manage.POST("/validations/card", admin, endpoint.HandleScoped(h.ValidateCard))
	g.Manage.POST("/validations/cbu", admin, endpoint.HandleScoped(h.ValidateCBU))
	g.Manage.POST("/validations/bank_transfer", admin, endpoint.HandleScoped(h.ValidateTransfer))
	g.Manage.POST("/subscription", admin, endpoint.HandleScoped(h.Subscribe))
	g.Manage.PUT("/subscription/payment_mode", admin, endpoint.HandleScoped(h.ChangeMethod))
	g.Manage.POST("/subscription/change", admin, endpoint.HandleScoped(h.ChangePlan))
	g.Manage.POST("/subscription/cancel", admin, endpoint.HandleScoped(h.Cancel))
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

// Billing is the organisation's bought subscription: its plan, state, payment method and the
// next charge (paid_until; none once cancelled).
type Billing struct {
	ID          uuid.UUID    `json:"id"`
	PlanCode    string       `json:"plan_code"`
	NextPlan    string       `json:"next_plan_code,omitempty"` // from the next period (a downgrade)
	Status      string       `json:"status"`
	PaymentMode string       `json:"payment_mode"`
	Brand       string       `json:"brand,omitempty"`
	LastFour    string       `json:"last_four,omitempty"`
	CBU         string       `json:"cbu,omitempty"`
	PaidUntil   *time.Time   `json:"paid_until"`
	NextCharge  *time.Time   `json:"next_charge"`
	Price       money.Amount `json:"price"`
}

// Invoice is one period's charge; a paid one has a PDF (InvoicePDF).
type Invoice struct {
	ID          uuid.UUID    `json:"id"`
	PeriodStart time.Time    `json:"period_start"`
	PeriodEnd   time.Time    `json:"period_end"`
	PlanCode    string       `json:"plan_code"`
	Amount      money.Amount `json:"amount"`
	PaymentMode string       `json:"payment_mode"`
	Kind        string       `json:"kind"` // period, or prorata (an upgrade's difference)
	Status      string       `json:"status"`
	PaidAt      *time.Time   `json:"paid_at"`
	MEP         *InvoiceMEP  `json:"mep,omitempty"` // an ARS invoice: the list price and the rate it was charged at
}

// InvoiceMEP is what an ARS invoice was converted from: its USD list price at the MEP rate of a day.
type InvoiceMEP struct {
	USDPrice money.Amount `json:"usd_price"`
	Rate     money.Amount `json:"rate"`
	Source   string       `json:"source"`
	AsOf     time.Time    `json:"as_of"`
}

func invoiceOf(r sharddb.SubscriptionInvoice) Invoice {
	inv := Invoice{ID: r.ID, PeriodStart: r.PeriodStart, PeriodEnd: r.PeriodEnd, PlanCode: r.PlanCode,
		Amount: money.New(r.AmountMinor, r.Currency), PaymentMode: r.PaymentMode, Kind: r.Kind, Status: r.Status, PaidAt: r.PaidAt}
	if r.UsdPriceMinor != nil && r.MepRateMinor != nil && r.MepSource != nil && r.MepAsOf != nil {
		inv.MEP = &InvoiceMEP{USDPrice: money.New(*r.UsdPriceMinor, "USD"), Rate: money.New(*r.MepRateMinor, mep.Currency),
			Source: *r.MepSource, AsOf: *r.MepAsOf}
	}
	return inv
}

// Answer is the answer of GET /manage/api/subscription.
type Answer struct {
	Subscription View      `json:"subscription"`
	Billing      *Billing  `json:"billing"` // null when no plan was bought
	Invoices     []Invoice `json:"invoices"`
	Tokenizer    Tokenizer `json:"tokenizer"`
}

// Get answers the current organisation's subscription, its billing and invoices.
func (h *Handler) Get(ctx context.Context, s tenants.Scope, _ *struct{}) (*Answer, error) {
	sum, err := flow.Get(ctx, s)
	if err != nil {
		return nil, err
	}
	country, err := reference.Get(ctx, s.Store(), s.Country)
	if err != nil {
		return nil, err
	}
	b, err := h.billingOf(ctx, s)
	if err != nil {
		return nil, err
	}
	rows, err := s.Store().SubscriptionInvoices(ctx, sharddb.SubscriptionInvoicesParams{OrganizationID: s.OrgID})
	if err != nil {
		return nil, err
	}
	invoices := make([]Invoice, 0, len(rows))
	for _, r := range rows {
		invoices = append(invoices, invoiceOf(r))
	}
	return &Answer{Subscription: viewOf(sum, country.Currency), Billing: b, Invoices: invoices, Tokenizer: h.Tokenizer}, nil
}

// billingOf reads the live subscription (nil when there is none).
func (h *Handler) billingOf(ctx context.Context, s tenants.Scope) (*Billing, error) {
	sub, err := s.Store().OrganizationSubscription(ctx, sharddb.OrganizationSubscriptionParams{OrganizationID: s.OrgID})
	if errors.Is(err, dberr.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	auth, err := s.Store().SubscriptionAuthorization(ctx, sharddb.SubscriptionAuthorizationParams{OrganizationID: s.OrgID, ID: sub.AuthorizationID})
	if err != nil {
		return nil, err
	}
	country, err := reference.Get(ctx, s.Store(), s.Country)
	if err != nil {
		return nil, err
	}
	a := authorizationOf(auth)
	b := &Billing{ID: sub.ID, PlanCode: sub.PlanCode, Status: sub.Status, PaymentMode: sub.PaymentMode, Brand: a.Brand,
		LastFour: a.LastFour, CBU: a.CBU, PaidUntil: sub.PaidUntil, NextPlan: deref(sub.NextPlanCode)}
	if sub.Status != billing.StatusCancelled {
		b.NextCharge = sub.PaidUntil
	}
	if p, ok := country.Plan(sub.PlanCode); ok {
		// What the next period costs today: in pesos, at the MEP rate in force.
		price, err := h.Billing.Price(ctx, country, p)
		switch {
		case errors.Is(err, mep.ErrUnavailable):
			b.Price = p.LocalizePrice
		case err != nil:
			return nil, err
		default:
			b.Price = price.Amount
		}
	}
	return b, nil
}

// Grant applies a plan to the organisation (the staff console's action; a paid plan is bought
// through billing, never set by the organisation itself), and records the payment of a pending
// bank transfer or CBU debit for that plan. An unknown code is a validation error.
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
	// A grant for the plan of a pending CBU debit or bank transfer records that payment: its invoice
	// is paid and the billing workflow goes on from there.
	if subID, ok, err := billing.RecordPayment(ctx, s, code); err != nil {
		return err
	} else if ok {
		if err := h.Bills.Changed(ctx, s.OrgID, subID); err != nil {
			return err
		}
	}
	uctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := flow.PurchasePlan(uctx, h.Temporal, h.Queue, s.OrgID, code); err != nil {
		var appErr *temporal.ApplicationError
		if errors.As(err, &appErr) && appErr.Type() == flow.ErrUnknownPlan {
			return apierror.Validation(map[string]string{"plan_code": "subscription.unknown_plan"})
		}
		if late(err) {
			return &apierror.Error{Status: http.StatusServiceUnavailable, Code: "subscription.busy", Err: err}
		}
		return err
	}
	return nil
}

// late says whether the workflow's answer did not come in time: our deadline, or the server's
// (an update it could not hand to a worker before the call's time ran out).
func late(err error) bool {
	var timeout *client.WorkflowUpdateServiceTimeoutOrCanceledError
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &timeout)
}

func init() {
	i18n.Register(i18n.Catalog{
		"subscription.plan_code_required": {i18n.ES: "Elige un plan.", i18n.EN: "Choose a plan.", i18n.PT: "Escolha um plano."},
		"subscription.unknown_plan":       {i18n.ES: "El plan elegido no existe.", i18n.EN: "The chosen plan does not exist.", i18n.PT: "O plano escolhido não existe."},
		"subscription.not_changeable":     {i18n.ES: "Solo puedes cambiar el plan de una suscripción activa y al día.", i18n.EN: "You can only change the plan of an active, paid-up subscription.", i18n.PT: "Só é possível mudar o plano de uma assinatura ativa e em dia."},
		"subscription.busy":               {i18n.ES: "No pudimos aplicar el plan ahora. Intenta de nuevo en unos minutos.", i18n.EN: "We could not apply the plan right now. Please try again in a few minutes.", i18n.PT: "Não conseguimos aplicar o plano agora. Tente novamente em alguns minutos."},
	})
}
