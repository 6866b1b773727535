// Package processors serves integrated payments (organisation-and-account §7 "Gateways"): the
// processors through which Aporta charges on an organisation's behalf (local_payments, a
// dLocal-style processor of the organisation's country, and global_payments), their descriptors
// (§9, internal/descriptor), limits and feature flags (§4 "Processor limits", §6), rules (§5
// "Global rules"), fees per gateway option, and the page's product events (POST /manage/api/track).
package processors

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/descriptor"
	"github.com/aporta/aporta/internal/plans"
	"github.com/aporta/aporta/internal/processing"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Families (the gateway option ids) and feature flags.
const (
	Local  = processing.Local
	Global = processing.Global

	FeatureMultiple = "multiple_payment_gateways"
	FeatureGlobal   = "global_payments"
)

// gatewayNames are the processors behind each family.
var gatewayNames = map[string]string{Local: "dlocal", Global: "global"}

// Merchants opens a new processor's merchant account at the processor (*processing.Processors).
type Merchants interface {
	Onboard(ctx context.Context, scope tenants.Scope, id uuid.UUID, name string, feeBps int32) (processing.Merchant, error)
}

// Handler serves the routes.
type Handler struct{ Merchants Merchants }

// Mount mounts the routes; only administrators see or change processors.
func (h Handler) Mount(g endpoint.Groups) {
	admin := g.Authz.Require(authz.ManageOrganization)
	g.Manage.GET("/payment_processors", admin, endpoint.Handle(List))
	g.Manage.POST("/payment_processors", admin, endpoint.Handle(h.Create))
	g.Manage.PATCH("/payment_processors/:id", admin, endpoint.Handle(Patch))
	g.Manage.DELETE("/payment_processors/:id", admin, endpoint.HandleScoped(Delete))
	g.Manage.GET("/payment_processors/:id/rules", admin, endpoint.Handle(GetRules))
	g.Manage.POST("/track", g.Authz.Require(authz.View), endpoint.HandleScoped(Track))
}

// Campaign is a campaign as a rule shows it.
type Campaign struct {
	UUID  uuid.UUID `json:"uuid"`
	Title string    `json:"title"`
}

// Rules decide what a processor charges: the campaigns whose donations it takes, and (global) whether
// a charge the connected gateway declined is retried through it.
type Rules struct {
	Retry     bool       `json:"retry"`
	Campaigns []Campaign `json:"campaigns"`
}

// Processor is one processor (§3 "Payment processor").
type Processor struct {
	UUID               uuid.UUID `json:"uuid"`
	Family             string    `json:"family"`
	GatewayName        string    `json:"gateway_name"`
	SoftDescriptor     string    `json:"soft_descriptor"`
	Statement          string    `json:"statement_descriptor"` // what donors' statements show: prefix*value
	CreatedAt          time.Time `json:"created_at"`
	Order              int32     `json:"order"`
	MethodIDs          []string  `json:"method_ids"`
	AllowedWithoutCVV  bool      `json:"allowed_without_cvv"`
	GatewayAccountName string    `json:"gateway_account_name"`
	Rules              Rules     `json:"rules"`
}

// Option is an integrated gateway option (§3 "Gateway option") as the organisation may use it.
type Option struct {
	ID         string          `json:"id"`
	FeePercent string          `json:"fee"` // per approved charge, "3.99"
	Descriptor descriptor.Rule `json:"descriptor"`
	// Available: the organisation may add it now; otherwise Reason says why (processor.* code).
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
}

// Listing is GET /manage/api/payment_processors.
type Listing struct {
	Processors []Processor `json:"payment_processors"` // by order
	Options    []Option    `json:"gateway_options"`
	Features   []string    `json:"features"`
}

// state is what the rules read of an organisation.
type state struct {
	scope      tenants.Scope
	features   []string
	allowed    bool // the plan allows global payments
	processors []sharddb.PaymentProcessor
	campaigns  []sharddb.ProcessorCampaignsRow
	options    []sharddb.GatewayOptionsRow
}

// loadFor is load for a request naming one of the processors by the path id raw: an id that does not
// parse names none, so it is not found.
func loadFor(ctx context.Context, raw string) (state, uuid.UUID, error) {
	id, err := uuid.Parse(raw)
	if err != nil {
		return state{}, id, apierror.NotFound()
	}
	s, err := load(ctx)
	return s, id, err
}

func load(ctx context.Context) (state, error) {
	scope, err := authz.Scope(ctx)
	if err != nil {
		return state{}, err
	}
	q := scope.Store()
	s := state{scope: scope}
	facts, err := q.OrganizationFacts(ctx, scope.OrgID)
	if err != nil {
		return s, err
	}
	s.allowed = plans.AllowedByPlan(facts.EffectivePlanCode)
	if s.features, err = q.OrganizationFeatures(ctx, scope.OrgID); err != nil {
		return s, err
	}
	if s.processors, err = q.PaymentProcessors(ctx, scope.OrgID); err != nil {
		return s, err
	}
	if s.campaigns, err = q.ProcessorCampaigns(ctx, scope.OrgID); err != nil {
		return s, err
	}
	s.options, err = q.GatewayOptions(ctx)
	return s, err
}

// rule is the descriptor rule of a family in the organisation's country.
func (s state) rule(family string) (descriptor.Rule, bool) {
	return descriptor.Of(family, s.scope.Country)
}

// unavailable is why the organisation may not add a processor of family now ("" when it may).
func (s state) unavailable(family string, except uuid.UUID) string {
	if _, ok := s.rule(family); !ok {
		return CodeNotAvailable
	}
	if family == Global && (!slices.Contains(s.features, FeatureGlobal) || !s.allowed) {
		return CodeGlobalNotAvailable
	}
	for _, p := range s.processors {
		if p.ID == except || p.Family != family {
			continue
		}
		if family == Global || !slices.Contains(s.features, FeatureMultiple) {
			return CodeLimitReached
		}
	}
	return ""
}

func (s state) present(p sharddb.PaymentProcessor) Processor {
	r, _ := s.rule(p.Family)
	out := Processor{UUID: p.ID, Family: p.Family, GatewayName: p.GatewayName, SoftDescriptor: p.SoftDescriptor,
		Statement: r.Statement(p.SoftDescriptor), CreatedAt: p.CreatedAt.UTC(), Order: p.Position, MethodIDs: p.MethodIds,
		AllowedWithoutCVV: p.AllowedWithoutCvv, GatewayAccountName: p.GatewayAccountName,
		Rules: Rules{Retry: p.RuleRetry, Campaigns: []Campaign{}}}
	for _, c := range s.campaigns {
		if c.ProcessorID == p.ID {
			out.Rules.Campaigns = append(out.Rules.Campaigns, Campaign{UUID: c.ID, Title: c.Title})
		}
	}
	return out
}

// List answers the organisation's processors, the options with their fees and descriptor rules, and
// its feature flags.
func List(ctx context.Context, _ *struct{}) (*Listing, error) {
	s, err := load(ctx)
	if err != nil {
		return nil, err
	}
	out := &Listing{Processors: []Processor{}, Options: []Option{}, Features: s.features}
	for _, p := range s.processors {
		out.Processors = append(out.Processors, s.present(p))
	}
	for _, o := range s.options {
		r, _ := s.rule(o.ID)
		reason := s.unavailable(o.ID, uuid.Nil)
		out.Options = append(out.Options, Option{ID: o.ID, FeePercent: feePercent(o.FeeBps), Descriptor: r,
			Available: reason == "", Reason: reason})
	}
	return out, nil
}

// feeBps is the fee of a family's gateway option.
func (s state) feeBps(family string) int32 {
	for _, o := range s.options {
		if o.ID == family {
			return o.FeeBps
		}
	}
	return 0
}

// feePercent writes basis points as a percentage with two decimals.
func feePercent(bps int32) string { return fmt.Sprintf("%d.%02d", bps/100, bps%100) }

// RulesForm is a processor's rules as the form sends them.
type RulesForm struct {
	Retry         bool        `json:"retry"`
	CampaignUUIDs []uuid.UUID `json:"campaign_uuids"`
}

// Form is POST /manage/api/payment_processors (§3 "Payment processor form").
type Form struct {
	Gateway        string    `json:"gateway"`
	SoftDescriptor string    `json:"soft_descriptor"`
	Rules          RulesForm `json:"rules"`
}

// checkRules validates rules for family (§5 "Global rules"): the global processor needs at least
// one; retry is the global processor's only; the campaigns are the organisation's, never promoted.
func checkRules(ctx context.Context, s state, family string, r RulesForm, fields map[string]string) ([]uuid.UUID, error) {
	ids := slices.Compact(slices.SortedFunc(slices.Values(r.CampaignUUIDs), func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) }))
	switch {
	case family == Global && !r.Retry && len(ids) == 0:
		fields["rules"] = CodeRulesRequired
	case family == Local && r.Retry:
		fields["rules.retry"] = CodeRetryGlobalOnly
	case len(ids) > 100:
		fields["rules.campaign_uuids"] = CodeCampaignUnknown
	}
	if len(ids) == 0 || fields["rules.campaign_uuids"] != "" {
		return ids, nil
	}
	found, err := s.scope.Store().RuleCampaigns(ctx, sharddb.RuleCampaignsParams{OrganizationID: s.scope.OrgID, Ids: ids})
	if err != nil {
		return nil, err
	}
	if len(found) != len(ids) {
		fields["rules.campaign_uuids"] = CodeCampaignUnknown
	}
	return ids, nil
}

// checkForm validates a processor's descriptor and rules for family: the descriptor to keep and the
// rule's campaigns, or a 422 naming each failing field.
func checkForm(ctx context.Context, s state, family, requested string, rules RulesForm) (string, []uuid.UUID, error) {
	fields := map[string]string{}
	r, _ := s.rule(family)
	value, code := r.Check(requested)
	if code != "" {
		fields["soft_descriptor"] = code
	}
	ids, err := checkRules(ctx, s, family, rules, fields)
	if err != nil {
		return "", nil, err
	}
	if len(fields) > 0 {
		return "", nil, apierror.Validation(fields)
	}
	return value, ids, nil
}

// Created answers a new processor with 201.
type Created struct{ Processor }

// StatusCode is 201.
func (Created) StatusCode() int { return http.StatusCreated }

// Create adds a processor: the family must be available to the organisation (flags, plan, limits),
// an active bank account in local currency must exist to pay out to, and descriptor and rules pass.
// The processor's merchant account is opened before the row is written: an organisation whose
// onboarding fails has no processor half made.
func (h Handler) Create(ctx context.Context, f *Form) (*Created, error) {
	s, err := load(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := gatewayNames[f.Gateway]; !ok {
		return nil, apierror.Validation(map[string]string{"gateway": CodeGatewayUnknown})
	}
	switch reason := s.unavailable(f.Gateway, uuid.Nil); reason {
	case "":
	case CodeLimitReached:
		return nil, apierror.New(http.StatusConflict, reason)
	default:
		return nil, apierror.New(http.StatusForbidden, reason)
	}
	if err := payoutAccount(ctx, s.scope); err != nil {
		return nil, err
	}
	value, ids, err := checkForm(ctx, s, f.Gateway, f.SoftDescriptor, f.Rules)
	if err != nil {
		return nil, err
	}
	facts, err := s.scope.Store().OrganizationFacts(ctx, s.scope.OrgID)
	if err != nil {
		return nil, err
	}
	id := uuid.New()
	m, err := h.Merchants.Onboard(ctx, s.scope, id, facts.Name, s.feeBps(f.Gateway))
	if err != nil {
		return nil, fmt.Errorf("onboard processor: %w", err)
	}
	var row sharddb.PaymentProcessor
	err = s.scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		position, err := q.NextProcessorPosition(ctx, s.scope.OrgID)
		if err != nil {
			return err
		}
		if row, err = q.InsertPaymentProcessor(ctx, sharddb.InsertPaymentProcessorParams{
			OrganizationID: s.scope.OrgID, ID: id, Family: f.Gateway, GatewayName: gatewayNames[f.Gateway],
			SoftDescriptor: value, Position: position, GatewayAccountName: facts.Name, RuleRetry: f.Rules.Retry,
			MerchantLogin: &m.Login, PublicKey: &m.PublicKey, Secret: m.Sealed.Blob, KeyID: &m.Sealed.KeyID,
		}); err != nil {
			return err
		}
		return setCampaigns(ctx, q, s.scope.OrgID, row.ID, ids)
	})
	if err != nil {
		return nil, err
	}
	return &Created{Processor: reload(ctx, row.ID)}, nil
}

func setCampaigns(ctx context.Context, q *sharddb.Queries, orgID, id uuid.UUID, ids []uuid.UUID) error {
	if err := q.ClearProcessorCampaigns(ctx, sharddb.ClearProcessorCampaignsParams{OrganizationID: orgID, ProcessorID: id}); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	return q.AddProcessorCampaigns(ctx, sharddb.AddProcessorCampaignsParams{OrganizationID: orgID, ProcessorID: id, CampaignIds: ids})
}

// reload is the processor as stored now (after a write); the zero Processor if it went meanwhile.
func reload(ctx context.Context, id uuid.UUID) Processor {
	s, err := load(ctx)
	if err != nil {
		return Processor{UUID: id}
	}
	for _, p := range s.processors {
		if p.ID == id {
			return s.present(p)
		}
	}
	return Processor{UUID: id}
}

// payoutAccount requires the organisation's active bank account, in its country's currency (the
// currency integrated payments pay out in).
func payoutAccount(ctx context.Context, scope tenants.Scope) error {
	accounts, err := scope.Store().BankAccounts(ctx, scope.OrgID)
	if err != nil {
		return err
	}
	if len(accounts) == 0 || !accounts[0].IsPrimary {
		return apierror.New(http.StatusUnprocessableEntity, CodeBankAccountRequired)
	}
	countries, err := scope.Store().Countries(ctx, []string{scope.Country})
	if err != nil {
		return err
	}
	if len(countries) != 1 || accounts[0].Currency != countries[0].Currency {
		return apierror.New(http.StatusUnprocessableEntity, CodeBankAccountNotLocal)
	}
	return nil
}

// PatchRequest is PATCH /manage/api/payment_processors/{uuid}: descriptor and rules (the family stays).
type PatchRequest struct {
	ID             string    `path:"id" json:"-"`
	SoftDescriptor string    `json:"soft_descriptor"`
	Rules          RulesForm `json:"rules"`
}

// Patch edits one of the organisation's processors; another organisation's id is not found.
func Patch(ctx context.Context, r *PatchRequest) (*Processor, error) {
	s, id, err := loadFor(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	current, err := s.scope.Store().PaymentProcessor(ctx, sharddb.PaymentProcessorParams{OrganizationID: s.scope.OrgID, ID: id})
	if err != nil {
		return nil, err
	}
	value, ids, err := checkForm(ctx, s, current.Family, r.SoftDescriptor, r.Rules)
	if err != nil {
		return nil, err
	}
	err = s.scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		if _, err := q.UpdatePaymentProcessor(ctx, sharddb.UpdatePaymentProcessorParams{
			OrganizationID: s.scope.OrgID, ID: id, SoftDescriptor: value, RuleRetry: r.Rules.Retry}); err != nil {
			return err
		}
		return setCampaigns(ctx, q, s.scope.OrgID, id, ids)
	})
	if err != nil {
		return nil, err
	}
	out := reload(ctx, id)
	return &out, nil
}

// IDRequest names a processor.
type IDRequest struct {
	ID string `path:"id" json:"-"`
}

// Delete discards a processor (§4 "Discard deletes it"): its donations go back to the connected gateway.
func Delete(ctx context.Context, scope tenants.Scope, r *IDRequest) (*struct{}, error) {
	id, err := uuid.Parse(r.ID)
	if err != nil {
		return nil, apierror.NotFound()
	}
	_, err = scope.Store().DeletePaymentProcessor(ctx, sharddb.DeletePaymentProcessorParams{OrganizationID: scope.OrgID, ID: id})
	return nil, err
}

// GetRules is GET /manage/api/payment_processors/{uuid}/rules.
func GetRules(ctx context.Context, r *IDRequest) (*Rules, error) {
	s, id, err := loadFor(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	for _, p := range s.processors {
		if p.ID == id {
			rules := s.present(p).Rules
			return &rules, nil
		}
	}
	return nil, apierror.NotFound()
}

// TrackRequest is POST /manage/api/track: a product event of the gateways page.
type TrackRequest struct {
	Event       string `json:"event"`
	Trigger     string `json:"trigger"`
	Breadcrumbs struct {
		Path      string `json:"path"`
		GatewayID string `json:"gateway_id"`
	} `json:"breadcrumbs"`
}

// Validate accepts the page's two events, from a button, with a short path.
func (r *TrackRequest) Validate() error {
	fields := map[string]string{}
	if r.Event != "click_disabled_global_payments_message" && r.Event != "click_create_payment_processor" {
		fields["event"] = CodeTrackInvalid
	}
	if r.Trigger != "button" {
		fields["trigger"] = CodeTrackInvalid
	}
	if len(r.Breadcrumbs.Path) > 200 || len(r.Breadcrumbs.GatewayID) > 40 {
		fields["breadcrumbs"] = CodeTrackInvalid
	}
	return apierror.Invalid(fields)
}

// Track records the event for the organisation and user.
func Track(ctx context.Context, scope tenants.Scope, r *TrackRequest) (*struct{}, error) {
	var gateway *string
	if r.Breadcrumbs.GatewayID != "" {
		gateway = &r.Breadcrumbs.GatewayID
	}
	return nil, scope.Store().InsertTrackEvent(ctx, sharddb.InsertTrackEventParams{
		OrganizationID: scope.OrgID, ID: uuid.New(), UserID: authz.CurrentUser(ctx).ID, Event: r.Event,
		Trigger: r.Trigger, Path: r.Breadcrumbs.Path, Gateway: gateway})
}
