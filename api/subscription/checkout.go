package subscription

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/internal/bankcheck"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/billing"
	flow "github.com/aporta/aporta/workflows/subscription"
)

// authorizationTTL is how long a validated payment method may wait for the subscription.
const authorizationTTL = 30 * time.Minute

// Payment modes (countries.payment_modes).
const (
	ModeCard         = "card"
	ModeCBU          = "cbu"
	ModeBankTransfer = "bank_transfer"
)

// Vault saves a card at the platform's gateway account: the browser tokenised it with the
// platform's public key, so the number and code never reach Aporta.
type Vault interface {
	gateway.Customers
}

// Authorization is what a validation answers: the id POST /manage/api/subscription names.
type Authorization struct {
	ID        uuid.UUID `json:"id"`
	Kind      string    `json:"kind"`
	PlanCode  string    `json:"plan_code,omitempty"`
	Brand     string    `json:"brand,omitempty"`
	LastFour  string    `json:"last_four,omitempty"`
	CBU       string    `json:"cbu,omitempty"` // masked: the last four only
	ExpiresAt time.Time `json:"expires_at"`
}

func authorizationOf(a sharddb.SubscriptionAuthorization) Authorization {
	out := Authorization{ID: a.ID, Kind: a.Kind, PlanCode: deref(a.PlanCode), Brand: deref(a.CardBrand),
		LastFour: deref(a.CardLastFour), ExpiresAt: a.ExpiresAt}
	if a.Cbu != nil {
		out.CBU = maskCBU(*a.Cbu)
	}
	return out
}

// AuthorizationAnswer is the answer of each validation.
type AuthorizationAnswer struct {
	Authorization Authorization `json:"authorization"`
}

// StatusCode: a validation creates an authorization.
func (AuthorizationAnswer) StatusCode() int { return http.StatusCreated }

// CardValidation is POST /manage/api/validations/card: a token of the platform's tokeniser, never
// the card itself (§3's card fields stay in the browser), and the plan it is for.
type CardValidation struct {
	PlanCode        string `json:"plan_code"`
	Token           string `json:"token"`
	PaymentMethodID string `json:"payment_method_id"`
	CardholderName  string `json:"cardholder_name"`
	CardholderUID   string `json:"cardholder_uid"`
}

// Validate checks §5 "Card (subscription)" on what reaches the server.
func (r *CardValidation) Validate() error {
	f := map[string]string{}
	if strings.TrimSpace(r.PlanCode) == "" {
		f["plan_code"] = "subscription.plan_code_required"
	}
	if strings.TrimSpace(r.Token) == "" || len(r.Token) > 200 {
		f["token"] = "subscription.card_token_required"
	}
	if strings.TrimSpace(r.CardholderName) == "" {
		f["cardholder_name"] = "subscription.cardholder_name_required"
	}
	if len(digits(r.CardholderUID)) < 3 {
		f["cardholder_uid"] = "subscription.uid_number_invalid"
	}
	return apierror.Invalid(f)
}

// ValidateCard saves the card at the platform's account and answers an authorization for the plan.
func (h *Handler) ValidateCard(ctx context.Context, s tenants.Scope, req *CardValidation) (*AuthorizationAnswer, error) {
	country, err := h.checkPlan(ctx, s, req.PlanCode, ModeCard)
	if err != nil {
		return nil, err
	}
	if _, err := h.Platform.Gateway(country.Currency); err != nil {
		return nil, apierror.Validation(map[string]string{"payment_mode": "subscription.card_unavailable"})
	}
	u := authz.CurrentUser(ctx)
	cust, err := h.Vault.EnsureCustomer(ctx, gateway.Customer{Email: u.Email, FirstName: u.FirstName, LastName: u.LastName})
	if err != nil {
		return nil, err
	}
	card, err := h.Vault.SaveCard(ctx, cust.ID, strings.TrimSpace(req.Token))
	var refused *gateway.Error
	if errors.As(err, &refused) {
		return nil, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "subscription.card_refused", Err: err}
	}
	if err != nil {
		return nil, err
	}
	plan := strings.TrimSpace(req.PlanCode)
	return h.authorize(ctx, s, sharddb.InsertSubscriptionAuthorizationParams{Kind: ModeCard, PlanCode: &plan,
		CustomerID: &cust.ID, CardID: &card.ID, CardBrand: &card.PaymentMethodID, CardLastFour: &card.LastFour})
}

// CBUValidation is POST /manage/api/validations/cbu: the account to debit and the mandate.
type CBUValidation struct {
	CBU           string `json:"cbu"`
	AcceptMandate bool   `json:"accept_mandate"`
}

// Validate checks the CBU's check digits and that the mandate was accepted.
func (r *CBUValidation) Validate() error {
	f := map[string]string{}
	switch cbu := digits(r.CBU); {
	case strings.TrimSpace(r.CBU) == "":
		f["cbu"] = "subscription.cbu_required"
	case bankcheck.CBU(cbu, "") != nil:
		f["cbu"] = "subscription.cbu_invalid"
	}
	if !r.AcceptMandate {
		f["accept_mandate"] = "subscription.mandate_required"
	}
	return apierror.Invalid(f)
}

// ValidateCBU records the direct-debit mandate and answers it as the authorization.
func (h *Handler) ValidateCBU(ctx context.Context, s tenants.Scope, req *CBUValidation) (*AuthorizationAnswer, error) {
	if _, err := h.checkPlan(ctx, s, "", ModeCBU); err != nil {
		return nil, err
	}
	cbu, now := digits(req.CBU), time.Now()
	return h.authorize(ctx, s, sharddb.InsertSubscriptionAuthorizationParams{Kind: ModeCBU, Cbu: &cbu, MandateAcceptedAt: &now})
}

// Cellphone is the payer's phone.
type Cellphone struct {
	Country string `json:"country"`
	Number  string `json:"number"`
}

// TransferValidation is POST /manage/api/validations/bank_transfer: §3 "Bank transfer payer".
type TransferValidation struct {
	PlanCode  string    `json:"plan_code"`
	Name      string    `json:"name"`
	Email     string    `json:"email"`
	UIDType   string    `json:"uid_type"`
	UIDNumber string    `json:"uid_number"`
	Cellphone Cellphone `json:"cellphone"`
}

// Validate checks §5 "Bank transfer payer".
func (r *TransferValidation) Validate() error {
	f := map[string]string{}
	if strings.TrimSpace(r.PlanCode) == "" {
		f["plan_code"] = "subscription.plan_code_required"
	}
	if strings.TrimSpace(r.Name) == "" {
		f["name"] = "subscription.name_required"
	}
	if e := strings.TrimSpace(r.Email); e == "" {
		f["email"] = "subscription.email_required"
	} else if a, err := mail.ParseAddress(e); err != nil || a.Address != e {
		f["email"] = "subscription.email_invalid"
	}
	if len(digits(r.UIDNumber)) < 3 {
		f["uid_number"] = "subscription.uid_number_invalid"
	}
	if n := len(digits(r.Cellphone.Number)); n < 6 || n > 15 {
		f["cellphone"] = "subscription.cellphone_required"
	}
	return apierror.Invalid(f)
}

// ValidateTransfer keeps the payer and answers an authorization for the plan.
func (h *Handler) ValidateTransfer(ctx context.Context, s tenants.Scope, req *TransferValidation) (*AuthorizationAnswer, error) {
	if _, err := h.checkPlan(ctx, s, req.PlanCode, ModeBankTransfer); err != nil {
		return nil, err
	}
	payer, err := json.Marshal(map[string]any{"name": strings.TrimSpace(req.Name), "email": strings.TrimSpace(req.Email),
		"uid_type": strings.TrimSpace(req.UIDType), "uid_number": digits(req.UIDNumber),
		"cellphone": Cellphone{Country: strings.TrimSpace(req.Cellphone.Country), Number: digits(req.Cellphone.Number)}})
	if err != nil {
		return nil, err
	}
	plan := strings.TrimSpace(req.PlanCode)
	return h.authorize(ctx, s, sharddb.InsertSubscriptionAuthorizationParams{Kind: ModeBankTransfer, PlanCode: &plan, Payer: payer})
}

func (h *Handler) authorize(ctx context.Context, s tenants.Scope, p sharddb.InsertSubscriptionAuthorizationParams) (*AuthorizationAnswer, error) {
	p.OrganizationID, p.ID, p.IdentityID = s.OrgID, uuid.New(), authz.CurrentUser(ctx).ID
	p.ExpiresAt = time.Now().Add(authorizationTTL)
	a, err := s.Store().InsertSubscriptionAuthorization(ctx, p)
	if err != nil {
		return nil, err
	}
	return &AuthorizationAnswer{Authorization: authorizationOf(a)}, nil
}

// checkPlan refuses a plan that cannot be bought and a payment mode the organisation's country does
// not offer (a country may be card-only). An empty plan checks the mode alone.
func (h *Handler) checkPlan(ctx context.Context, s tenants.Scope, plan, mode string) (reference.Country, error) {
	country, err := reference.Get(ctx, s.Store(), s.Country)
	if err != nil {
		return country, err
	}
	if !slices.Contains(country.PaymentModes, mode) {
		return country, apierror.Validation(map[string]string{"payment_mode": "subscription.payment_mode_unavailable"})
	}
	if plan == "" {
		return country, nil
	}
	ok, err := flow.PlanExists(ctx, s, strings.TrimSpace(plan))
	if err != nil {
		return country, err
	}
	if !ok {
		return country, apierror.Validation(map[string]string{"plan_code": "subscription.unknown_plan"})
	}
	return country, nil
}

// PaymentMode names a validated authorization: {type, authorization}.
type PaymentMode struct {
	Type          string    `json:"type"`
	Authorization uuid.UUID `json:"authorization"`
}

// use consumes the organisation's authorization m names, of its kind and for plan: one that is
// another organisation's, used, expired or for another plan is the same conflict.
func use(ctx context.Context, st *sharddb.Queries, s tenants.Scope, m PaymentMode, plan string) (sharddb.SubscriptionAuthorization, error) {
	auth, err := st.UseSubscriptionAuthorization(ctx, sharddb.UseSubscriptionAuthorizationParams{
		OrganizationID: s.OrgID, ID: m.Authorization, Kind: m.Type, PlanCode: &plan})
	if errors.Is(err, dberr.ErrNotFound) {
		return auth, apierror.New(http.StatusConflict, "subscription.authorization_invalid")
	}
	return auth, err
}

// SubscribeRequest is POST /manage/api/subscription.
type SubscribeRequest struct {
	PlanCode    string      `json:"plan_code"`
	PaymentMode PaymentMode `json:"payment_mode"`
}

// Validate needs a plan and an authorization.
func (r *SubscribeRequest) Validate() error {
	f := map[string]string{}
	if strings.TrimSpace(r.PlanCode) == "" {
		f["plan_code"] = "subscription.plan_code_required"
	}
	if !slices.Contains([]string{ModeCard, ModeCBU, ModeBankTransfer}, r.PaymentMode.Type) {
		f["payment_mode"] = "subscription.payment_mode_unavailable"
	} else if r.PaymentMode.Authorization == uuid.Nil {
		f["payment_mode"] = "subscription.authorization_invalid"
	}
	return apierror.Invalid(f)
}

// SubscribeAnswer is the subscription after the first period's charge: active once paid, pending
// while a charge is undecided or a debit or transfer awaits its reconciliation.
type SubscribeAnswer struct {
	Subscription Billing `json:"subscription"`
	status       int
}

// StatusCode is 201 when the plan is active, 202 while pending.
func (a SubscribeAnswer) StatusCode() int { return a.status }

// Subscribe buys a plan: the authorization is consumed once, the subscription created, and a card
// charged for the first period through the platform's account before the plan applies. A refused
// card ends the subscription at once (402) and nothing changes; the billing workflow takes over the
// following periods, and the first one too when its outcome is not known yet.
func (h *Handler) Subscribe(ctx context.Context, s tenants.Scope, req *SubscribeRequest) (*SubscribeAnswer, error) {
	plan := strings.TrimSpace(req.PlanCode)
	if _, err := h.checkPlan(ctx, s, plan, req.PaymentMode.Type); err != nil {
		return nil, err
	}
	var sub sharddb.OrganizationSubscription
	err := s.Tx(ctx, func(tx pgx.Tx) error {
		st := sharddb.Store(tx)
		auth, err := use(ctx, st, s, req.PaymentMode, plan)
		if err != nil {
			return err
		}
		sub, err = st.InsertOrganizationSubscription(ctx, sharddb.InsertOrganizationSubscriptionParams{
			OrganizationID: s.OrgID, ID: uuid.New(), PlanCode: plan, PaymentMode: auth.Kind, AuthorizationID: auth.ID})
		if dberr.IsConflict(err, "organization_subscriptions_live") {
			return apierror.New(http.StatusConflict, "subscription.already_subscribed")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	status, paid := http.StatusAccepted, false
	if sub.PaymentMode == ModeCard {
		outcome, err := h.Billing.ChargePeriod(ctx, billing.Attempt{OrganizationID: s.OrgID.String(), SubscriptionID: sub.ID.String(),
			PeriodStart: billing.FirstPeriodStart(sub.CreatedAt), Number: 1})
		switch {
		case err == nil && outcome == billing.OutcomeFailed:
			if _, err := s.Store().SetSubscriptionStatus(ctx, sharddb.SetSubscriptionStatusParams{OrganizationID: s.OrgID, ID: sub.ID, Status: billing.StatusEnded}); err != nil {
				return nil, err
			}
			return nil, apierror.New(http.StatusPaymentRequired, "subscription.payment_rejected")
		case err == nil && outcome == billing.OutcomePaid:
			status, paid = http.StatusCreated, true
		default: // undecided: the workflow reads it back (same reference, same key) and goes on
		}
	}
	// The workflow first, so a paid plan is applied by it even when applying it here fails.
	if err := h.Bills.Start(ctx, s.OrgID, sub.ID); err != nil {
		return nil, err
	}
	if paid {
		if err := h.Billing.Activate(ctx, s.OrgID.String(), sub.ID.String()); err != nil {
			return nil, err
		}
	}
	b, err := h.billingOf(ctx, s)
	if err != nil {
		return nil, err
	}
	return &SubscribeAnswer{Subscription: *b, status: status}, nil
}

// ChangeMethodRequest is PUT /manage/api/subscription/payment_mode.
type ChangeMethodRequest struct {
	PaymentMode PaymentMode `json:"payment_mode"`
}

// ChangeMethod puts a newly validated payment method on the live subscription; a renewal being
// retried is tried again at once.
func (h *Handler) ChangeMethod(ctx context.Context, s tenants.Scope, req *ChangeMethodRequest) (*Answer, error) {
	sub, err := s.Store().OrganizationSubscription(ctx, sharddb.OrganizationSubscriptionParams{OrganizationID: s.OrgID})
	if errors.Is(err, dberr.ErrNotFound) {
		return nil, apierror.New(http.StatusConflict, "subscription.none")
	}
	if err != nil {
		return nil, err
	}
	if _, err := h.checkPlan(ctx, s, "", req.PaymentMode.Type); err != nil {
		return nil, err
	}
	err = s.Tx(ctx, func(tx pgx.Tx) error {
		st := sharddb.Store(tx)
		auth, err := use(ctx, st, s, req.PaymentMode, sub.PlanCode)
		if err != nil {
			return err
		}
		_, err = st.ChangeSubscriptionPaymentMode(ctx, sharddb.ChangeSubscriptionPaymentModeParams{
			OrganizationID: s.OrgID, ID: sub.ID, PaymentMode: auth.Kind, AuthorizationID: auth.ID})
		if errors.Is(err, dberr.ErrNotFound) {
			return apierror.New(http.StatusConflict, "subscription.none")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := h.Bills.Changed(ctx, s.OrgID, sub.ID); err != nil {
		return nil, err
	}
	return h.Get(ctx, s, nil)
}

// ChangePlanRequest is POST /manage/api/subscription/change.
type ChangePlanRequest struct {
	PlanCode string `json:"plan_code"`
}

// ChangePlanAnswer is the page after a change, with what became of it (billing.ChangeResult's kind:
// upgrade, scheduled or kept) and an upgrade's pro-rata charge.
type ChangePlanAnswer struct {
	Answer
	Change  string        `json:"change"`
	Charged *money.Amount `json:"charged"`
}

// ChangePlan changes the live subscription's plan through its billing workflow (the rule at
// billing.UpdateChangePlan): an upgrade now, its difference charged pro rata on the payment method
// (a refused card changes nothing: 402); anything else from the next period. Each request is a new
// change; a repeated upgrade finds the plan already changed and charges nothing.
func (h *Handler) ChangePlan(ctx context.Context, s tenants.Scope, req *ChangePlanRequest) (*ChangePlanAnswer, error) {
	plan := strings.TrimSpace(req.PlanCode)
	if plan == "" {
		return nil, apierror.Validation(map[string]string{"plan_code": "subscription.plan_code_required"})
	}
	sub, err := s.Store().OrganizationSubscription(ctx, sharddb.OrganizationSubscriptionParams{OrganizationID: s.OrgID})
	if errors.Is(err, dberr.ErrNotFound) {
		return nil, apierror.New(http.StatusConflict, "subscription.none")
	}
	if err != nil {
		return nil, err
	}
	if sub.Status != billing.StatusActive {
		return nil, apierror.New(http.StatusConflict, "subscription.not_changeable")
	}
	uctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, err := h.Bills.ChangePlan(uctx, s.OrgID, sub.ID, plan)
	var appErr *temporal.ApplicationError
	switch {
	case errors.As(err, &appErr) && appErr.Type() == billing.ErrUnknownPlan:
		return nil, apierror.Validation(map[string]string{"plan_code": "subscription.unknown_plan"})
	case errors.As(err, &appErr) && appErr.Type() == billing.ErrNotChangeable:
		return nil, apierror.New(http.StatusConflict, "subscription.not_changeable")
	case late(err):
		return nil, &apierror.Error{Status: http.StatusServiceUnavailable, Code: "subscription.busy", Err: err}
	case err != nil:
		return nil, err
	case res.Outcome == billing.OutcomeFailed:
		return nil, apierror.New(http.StatusPaymentRequired, "subscription.payment_rejected")
	}
	page, err := h.Get(ctx, s, nil)
	if err != nil {
		return nil, err
	}
	out := &ChangePlanAnswer{Answer: *page, Change: res.Kind}
	if res.AmountMinor > 0 {
		m := money.New(res.AmountMinor, res.Currency)
		out.Charged = &m
	}
	return out, nil
}

// Cancel cancels the live subscription: the plan stays until the end of the paid period.
func (h *Handler) Cancel(ctx context.Context, s tenants.Scope, _ *struct{}) (*Answer, error) {
	sub, err := s.Store().OrganizationSubscription(ctx, sharddb.OrganizationSubscriptionParams{OrganizationID: s.OrgID})
	if err == nil {
		sub, err = s.Store().CancelSubscription(ctx, sharddb.CancelSubscriptionParams{OrganizationID: s.OrgID, ID: sub.ID})
	}
	if errors.Is(err, dberr.ErrNotFound) {
		return nil, apierror.New(http.StatusConflict, "subscription.none")
	}
	if err != nil {
		return nil, err
	}
	if err := h.Bills.Changed(ctx, s.OrgID, sub.ID); err != nil {
		return nil, err
	}
	return h.Get(ctx, s, nil)
}

func maskCBU(cbu string) string { return "•••• " + cbu[len(cbu)-4:] }

func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func init() {
	i18n.Register(i18n.Catalog{
		"subscription.card_token_required":      {i18n.ES: "Ingresa los datos de la tarjeta.", i18n.EN: "Enter the card details.", i18n.PT: "Informe os dados do cartão."},
		"subscription.cardholder_name_required": {i18n.ES: "Ingresa el nombre del titular.", i18n.EN: "Enter the cardholder's name.", i18n.PT: "Informe o nome do titular."},
		"subscription.uid_number_invalid":       {i18n.ES: "El número de documento debe tener al menos 3 dígitos.", i18n.EN: "The document number needs at least 3 digits.", i18n.PT: "O número do documento precisa de pelo menos 3 dígitos."},
		"subscription.card_unavailable":         {i18n.ES: "El pago con tarjeta no está disponible en tu país todavía.", i18n.EN: "Card payment is not available in your country yet.", i18n.PT: "O pagamento com cartão ainda não está disponível no seu país."},
		"subscription.card_refused":             {i18n.ES: "La pasarela no aceptó la tarjeta. Revisa los datos o usa otra.", i18n.EN: "The gateway did not accept the card. Check the details or use another one.", i18n.PT: "O gateway não aceitou o cartão. Confira os dados ou use outro."},
		"subscription.cbu_required":             {i18n.ES: "Ingresa el CBU.", i18n.EN: "Enter the CBU.", i18n.PT: "Informe o CBU."},
		"subscription.cbu_invalid":              {i18n.ES: "El CBU no es válido: revisa sus 22 dígitos.", i18n.EN: "The CBU is not valid: check its 22 digits.", i18n.PT: "O CBU não é válido: confira seus 22 dígitos."},
		"subscription.mandate_required":         {i18n.ES: "Acepta la autorización de débito directo.", i18n.EN: "Accept the direct debit authorisation.", i18n.PT: "Aceite a autorização de débito direto."},
		"subscription.name_required":            {i18n.ES: "Ingresa el nombre.", i18n.EN: "Enter the name.", i18n.PT: "Informe o nome."},
		"subscription.email_required":           {i18n.ES: "Ingresa el correo electrónico.", i18n.EN: "Enter the e-mail address.", i18n.PT: "Informe o e-mail."},
		"subscription.email_invalid":            {i18n.ES: "El correo electrónico no es válido.", i18n.EN: "The e-mail address is not valid.", i18n.PT: "O e-mail não é válido."},
		"subscription.cellphone_required":       {i18n.ES: "Ingresa un número de celular.", i18n.EN: "Enter a cellphone number.", i18n.PT: "Informe um número de celular."},
		"subscription.payment_mode_unavailable": {i18n.ES: "Ese medio de pago no está disponible en tu país.", i18n.EN: "That payment method is not available in your country.", i18n.PT: "Essa forma de pagamento não está disponível no seu país."},
		"subscription.authorization_invalid":    {i18n.ES: "La validación del medio de pago venció o ya se usó. Ingresa el medio de pago de nuevo.", i18n.EN: "The payment method's validation expired or was already used. Enter the payment method again.", i18n.PT: "A validação da forma de pagamento venceu ou já foi usada. Informe a forma de pagamento novamente."},
		"subscription.already_subscribed":       {i18n.ES: "Tu organización ya tiene una suscripción vigente.", i18n.EN: "Your organisation already has a subscription.", i18n.PT: "Sua organização já tem uma assinatura vigente."},
		"subscription.payment_rejected":         {i18n.ES: "El pago fue rechazado. Prueba con otra tarjeta u otro medio de pago.", i18n.EN: "The payment was declined. Try another card or payment method.", i18n.PT: "O pagamento foi recusado. Tente outro cartão ou outra forma de pagamento."},
		"subscription.none":                     {i18n.ES: "Tu organización no tiene una suscripción vigente.", i18n.EN: "Your organisation has no subscription.", i18n.PT: "Sua organização não tem uma assinatura vigente."},
	})
}
