package donation

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/idempotency"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/history"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
)

// ManageDeps are the manage service's collaborators.
type ManageDeps struct {
	Tenants interface {
		ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	}
	Temporal client.Client
	Gateways Gateways
	// CollectWait bounds how long collect_payment waits for the charge's outcome (default 25 s).
	CollectWait time.Duration
	// Secret keys the hashes that bind Idempotency-Keys to their requests.
	Secret []byte
	// Forms gives a donation's campaign, the limits its public form applies to an amount, and the
	// checkout the card-change dialog tokenises a new card with, as the public form does.
	Forms interface {
		Get(ctx context.Context, orgID, id uuid.UUID) (*campaign.Campaign, error)
		LimitsFor(ctx context.Context, f campaign.Form) campaign.Limits
		Checkout(ctx context.Context, f campaign.Form) (campaign.Checkout, error)
	}
	// Retries saves a new card also at the global processor that retries the campaign's declines,
	// from the card-vault token the browser sent (nil: no charge is retried through a processor).
	Retries RetryCards
	Log     *slog.Logger
}

// ManageService is the donation management of the manage area (donor spec §2 screens 6–7, §7): the
// donation detail and its actions, the donations list and CSV, donor discard and reactivation, and
// the transactions summary. Every change to a monthly donation goes through its collection
// workflow as a Temporal update, and is answered after the workflow completed it. Its methods are
// the endpoints' logic: the organisation's scope and the caller come from ctx (authz.Require).
type ManageService struct {
	d ManageDeps
}

// NewManageService builds the service.
func NewManageService(d ManageDeps) *ManageService {
	if d.CollectWait == 0 {
		d.CollectWait = 25 * time.Second
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &ManageService{d: d}
}

// ManageHandler is the manage service's HTTP side.
type ManageHandler struct {
	svc *ManageService
}

// NewManageHandler builds the handler and its service.
func NewManageHandler(d ManageDeps) *ManageHandler { return &ManageHandler{svc: NewManageService(d)} }

// Mount attaches the routes to the manage group (already authenticated), each with its permit.
func (h *ManageHandler) Mount(g endpoint.Groups) {
	s, m := h.svc, g.Manage.Group("", carryUpdateKey)
	view, change, export := g.Authz.Require(authz.View), g.Authz.Require(authz.ManageDonations), g.Authz.Require(authz.ExportData)
	// Changes accept an Idempotency-Key, bound to the request that first used it.
	idem := idempotency.Replay(s.d.Secret, idempotency.ByOrganization)
	m.GET("/donations", view, endpoint.HandleScoped(s.List))
	m.GET("/donations.csv", export, s.CSV)
	m.GET("/donation_reasons", view, endpoint.Handle(s.Reasons))
	m.GET("/donations/:uuid", view, endpoint.HandleScoped(s.Get))
	m.PATCH("/donations/:uuid", change, idem, endpoint.HandleScoped(s.Patch))
	m.POST("/donations/:uuid/collect_payment", change, idem, endpoint.HandleScoped(s.CollectPayment))
	m.POST("/donations/:uuid/pause", change, idem, endpoint.HandleScoped(s.Pause))
	m.POST("/donations/:uuid/restore", change, idem, endpoint.HandleScoped(s.Restore))
	m.POST("/donations/:uuid/discard", change, idem, endpoint.HandleScoped(s.Discard))
	m.PATCH("/donations/:uuid/donor", change, idem, endpoint.HandleScoped(s.PatchDonor))
	m.POST("/donations/:uuid/payment_method", change, idem, endpoint.HandleScoped(s.PaymentMethod))
	m.GET("/donations/:uuid/versions", view, endpoint.HandleScoped(s.Versions))
	m.GET("/donations/:uuid/support", view, endpoint.HandleScoped(s.Support))
	m.GET("/donations/:uuid/receipts/:number", view, s.ManageReceipt)
	m.GET("/donations/:uuid/summaries/:year", view, s.ManageSummary)
	m.POST("/donations/:uuid/upgrades", change, idem, endpoint.HandleScoped(s.AddUpgrade))
	m.PATCH("/donations/:uuid/upgrades/:id", change, idem, endpoint.HandleScoped(s.EditUpgrade))
	m.DELETE("/donations/:uuid/upgrades/:id", change, idem, endpoint.HandleScoped(s.RemoveUpgrade))
	m.POST("/donors/:uuid/discard", change, idem, endpoint.HandleScoped(s.DiscardDonor))
	m.POST("/donors/:uuid/reactivate", change, idem, endpoint.HandleScoped(s.ReactivateDonor))
	m.GET("/payment_transactions", view, endpoint.HandleScoped(s.Transactions))
	m.GET("/payment_transactions/summary", view, endpoint.HandleScoped(s.Summary))
	m.GET("/payment_transactions/summary/:period", view, endpoint.HandleScoped(s.Summary))
}

// DonationRequest names a donation: the :uuid of every donation endpoint.
type DonationRequest struct {
	ID uuid.UUID `path:"uuid" json:"-"`
}

// load reads the request's donation in the caller's organisation; another organisation's donation
// is not found.
func (s *ManageService) load(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*row, error) {
	return loadRow(ctx, scope, id)
}

// loadOpen is load refusing a discarded donation.
func (s *ManageService) loadOpen(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*row, error) {
	r, err := s.load(ctx, scope, id)
	if err == nil && r.Status == collection.StatusDiscarded {
		err = apierror.New(http.StatusConflict, "donation.discarded")
	}
	return r, err
}

// actor is who the version history records for a change made by the caller: the signed-in user,
// or the donor of a donor-portal session.
func actor(ctx context.Context) string {
	if d, ok := portalDonor(ctx); ok {
		return collection.ActorDonorPrefix + d.DonorID.String()
	}
	return authz.CurrentUser(ctx).ID.String()
}

// Get answers GET /manage/api/donations/:uuid.
func (s *ManageService) Get(ctx context.Context, scope tenants.Scope, req *DonationRequest) (*Detail, error) {
	r, err := s.load(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	return s.detail(ctx, scope, r.ID)
}

// detail is the donation detail, read again from the shard (the workflow's update synced it).
func (s *ManageService) detail(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*Detail, error) {
	d, err := detail(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	// The checkout of the donation's campaign: a rule may route it to a processor (its tokeniser) or
	// retry it through the global one (the card vault too), as on the public form. Without an account
	// the checkout is empty: the card cannot change.
	campaignID, _ := uuid.Parse(d.Donation.Campaign.UUID)
	f := campaign.Form{Campaign: &campaign.Campaign{ID: campaignID, Currency: d.Donation.Amount.Currency}, Org: campaign.Org{ID: scope.OrgID},
		Scope: scope}
	if d.Gateway, err = s.d.Forms.Checkout(ctx, f); err != nil && !errors.Is(err, connections.ErrNotConnected) {
		return nil, err
	}
	return &d, nil
}

// update sends a change to the donation's collection workflow and waits until the workflow
// completed it. It refuses, with a clear message, donations that have no running workflow.
func (s *ManageService) update(ctx context.Context, scope tenants.Scope, r *row, name string, arg any) (collection.State, error) {
	var st collection.State
	switch {
	case r.Status == collection.StatusDiscarded:
		return st, apierror.New(http.StatusConflict, "donation.discarded")
	case r.Recurrence != 1:
		return st, apierror.New(http.StatusConflict, "donation.not_monthly")
	case r.Status == "pending" || r.Status == "rejected":
		return st, apierror.New(http.StatusConflict, "donation.not_collecting")
	}
	updateID := updateKey(ctx)
	if updateID == "" {
		updateID = uuid.NewString()
	}
	opts := client.UpdateWorkflowOptions{
		WorkflowID: collection.WorkflowID(r.ID.String()), UpdateID: name + "/" + updateID, UpdateName: name,
		Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted,
	}
	err := s.tryUpdate(ctx, opts, &st)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) && (r.Status == collection.StatusActive || r.Status == collection.StatusPaused) {
		// An active monthly donation whose collection never started (the start is retried by the
		// public form's replay; this is the other place that repairs it): start it, then retry.
		if _, serr := collection.Start(ctx, s.d.Temporal, collection.TaskQueue, collection.Input{
			OrganizationID: scope.OrgID.String(), DonationID: r.ID.String()}); serr == nil {
			err = s.tryUpdate(ctx, opts, &st)
		}
	}
	if err != nil {
		return st, updateError(err)
	}
	return st, nil
}

// tryUpdate sends the update and waits for its result. The workflow registers its handlers in
// its first task, so an update sent right after the start is accepted (and waits for the load).
func (s *ManageService) tryUpdate(ctx context.Context, opts client.UpdateWorkflowOptions, st *collection.State) error {
	handle, err := s.d.Temporal.UpdateWorkflow(ctx, opts)
	if err != nil {
		return err
	}
	return handle.Get(ctx, st)
}

// updateError maps what Temporal answered to an API error. Validator rejections travel as
// application errors carrying the validator's message, so they are matched on the collection
// package's error texts.
func updateError(err error) error {
	msg := err.Error()
	has := func(e error) bool { return strings.Contains(msg, e.Error()) }
	var nf *serviceerror.NotFound
	switch {
	case has(collection.ErrDiscarded):
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.discarded", Err: err}
	case has(collection.ErrNotPaused):
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.not_paused", Err: err}
	case has(collection.ErrNotActive):
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.not_active", Err: err}
	case has(collection.ErrChargeInProgress):
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.charge_in_progress", Err: err}
	case has(collection.ErrNotDue):
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.collect_not_due", Err: err}
	case has(collection.ErrInvalidReason):
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.pause_reason_invalid", Err: err}
	case has(collection.ErrInvalidInput):
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.change_invalid", Err: err}
	case errors.As(err, &nf):
		// The workflow is closed (discarded, or ended) or was never started.
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.workflow_closed", Err: err}
	}
	return &apierror.Error{Status: http.StatusServiceUnavailable, Code: "donation.change_failed", Err: err}
}

// PatchRequest is PATCH /manage/api/donations/:uuid: the amount, the collect day, or both.
type PatchRequest struct {
	DonationRequest
	Amount     *Decimal  `json:"amount"`      // in the currency's units, "1500.50" or 1500.5
	CollectDay optionDay `json:"collect_day"` // 1–31, or null for the last day of the month
}

// Validate refuses an empty change and a collect day outside 1–31.
func (r *PatchRequest) Validate() error {
	if r.Amount == nil && !r.CollectDay.Set {
		return apierror.Validation(map[string]string{"amount": "donation.required"})
	}
	if d := r.CollectDay.Day; d != nil && (*d < 1 || *d > 31) {
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.collect_day_invalid",
			Fields: map[string]string{"collect_day": "donation.collect_day_invalid"}}
	}
	return nil
}

// optionDay tells an absent collect_day (no change) from null (the last day of the month).
type optionDay struct {
	Set bool
	Day *int
}

func (o *optionDay) UnmarshalJSON(b []byte) error {
	o.Set = true
	return json.Unmarshal(b, &o.Day)
}

// Patch changes the amount (change-amount update) and the collect day (change-collect-day).
// Both are validated before either is sent, so a bad field changes nothing.
func (s *ManageService) Patch(ctx context.Context, scope tenants.Scope, req *PatchRequest) (*Detail, error) {
	r, err := s.loadOpen(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	var amount int64
	if req.Amount != nil {
		if amount, err = s.checkAmount(ctx, scope, r, *req.Amount); err != nil {
			return nil, err
		}
	}
	day, cur := 0, 0 // 0: the last day of the month, as the workflow counts it
	if req.CollectDay.Day != nil {
		day = *req.CollectDay.Day
	}
	if r.CollectDay != nil {
		cur = *r.CollectDay
	}
	if req.CollectDay.Set && day != cur {
		if _, err := s.update(ctx, scope, r, collection.UpdateCollectDay,
			collection.ChangeCollectDayRequest{Actor: actor(ctx), CollectDay: collectday.Day(day)}); err != nil {
			return nil, err
		}
	}
	if req.Amount != nil {
		if _, err := s.update(ctx, scope, r, collection.UpdateChangeAmount,
			collection.ChangeAmountRequest{Actor: actor(ctx), Amount: amount}); err != nil {
			return nil, err
		}
		_ = scope.Store().SetSingleItemAmount(ctx, sharddb.SetSingleItemAmountParams{OrganizationID: scope.OrgID, ID: r.ID, Amount: amount})
	}
	return s.detail(ctx, scope, r.ID)
}

// checkAmount parses the operator's amount, which meets the limits the donor's did on the public form.
func (s *ManageService) checkAmount(ctx context.Context, scope tenants.Scope, r *row, amount Decimal) (int64, error) {
	m, err := money.Parse(string(amount), r.Currency)
	if err != nil || m.Minor <= 0 {
		return 0, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.amount_invalid",
			Fields: map[string]string{"amount": "donation.amount_invalid"}}
	}
	f, lim, err := s.limits(ctx, scope, r)
	if err != nil {
		return 0, err
	}
	preset := slices.Contains(f.Campaign.AmountsMinor(), m.Minor)
	if e := amountOutOfRange(m.Minor, campaign.MinimumFor(f, lim, preset), lim, r.Currency); e != nil {
		e.Fields = map[string]string{"amount": "donation.amount_out_of_range"}
		return 0, e
	}
	return m.Minor, nil
}

// limits reads the donation's campaign and the donation limits its public form applies (the
// gateway's, or the defaults while it does not answer).
func (s *ManageService) limits(ctx context.Context, scope tenants.Scope, r *row) (campaign.Form, campaign.Limits, error) {
	cp, err := s.d.Forms.Get(ctx, scope.OrgID, r.CampaignID)
	if err != nil {
		return campaign.Form{}, campaign.Limits{}, err
	}
	f := campaign.Form{Campaign: cp, Scope: scope}
	return f, s.d.Forms.LimitsFor(ctx, f), nil
}

// ReasonRequest is the body of pause and discard.
type ReasonRequest struct {
	DonationRequest
	Reason string `json:"reason"`
}

// Pause answers POST …/pause {reason}; the reason defaults to by_org and must be one of §4's.
func (s *ManageService) Pause(ctx context.Context, scope tenants.Scope, req *ReasonRequest) (*Detail, error) {
	r, err := s.loadOpen(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	reason := strings.TrimSpace(req.Reason)
	if reason == "" {
		reason = collection.PausedByOrg
	}
	if !slices.Contains(collection.PausedReasons, reason) {
		return nil, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.pause_reason_invalid",
			Fields: map[string]string{"reason": "donation.pause_reason_invalid"}}
	}
	if _, err := s.update(ctx, scope, r, collection.UpdatePause, collection.PauseRequest{Actor: actor(ctx), Reason: reason}); err != nil {
		return nil, err
	}
	return s.detail(ctx, scope, r.ID)
}

// Restore answers POST …/restore: the donation is charged again from the next period.
func (s *ManageService) Restore(ctx context.Context, scope tenants.Scope, req *DonationRequest) (*Detail, error) {
	r, err := s.loadOpen(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	if _, err := s.update(ctx, scope, r, collection.UpdateRestore, collection.RestoreRequest{Actor: actor(ctx)}); err != nil {
		return nil, err
	}
	return s.detail(ctx, scope, r.ID)
}

// Discard answers POST …/discard {reason}: irreversible. One-time donations (no workflow) are
// discarded on their row.
func (s *ManageService) Discard(ctx context.Context, scope tenants.Scope, req *ReasonRequest) (*Detail, error) {
	r, err := s.load(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	reason, err := discardReason(req.Reason)
	if err != nil {
		return nil, err
	}
	if len([]rune(reason)) > 200 {
		return nil, apierror.Validation(map[string]string{"reason": "donation.too_long"})
	}
	if r.Status == collection.StatusDiscarded {
		return nil, apierror.New(http.StatusConflict, "donation.discarded")
	}
	if err := s.discard(ctx, scope, r, reason); err != nil {
		return nil, err
	}
	return s.detail(ctx, scope, r.ID)
}

// discardReason is a required discard reason.
func discardReason(s string) (string, error) {
	reason := strings.TrimSpace(s)
	if reason == "" {
		return "", apierror.Validation(map[string]string{"reason": "donation.required"})
	}
	return reason, nil
}

// discard discards a donation: a collecting monthly one through its workflow, any other on its row.
func (s *ManageService) discard(ctx context.Context, scope tenants.Scope, r *row, reason string) error {
	if r.Recurrence != 1 || r.Status == "pending" || r.Status == "rejected" {
		return discardRow(ctx, scope, r.ID, reason)
	}
	_, err := s.update(ctx, scope, r, collection.UpdateDiscard, collection.DiscardRequest{Actor: actor(ctx), Reason: reason})
	return err
}

// discardRow discards a donation without a workflow and records the version.
func discardRow(ctx context.Context, scope tenants.Scope, id uuid.UUID, reason string) error {
	return scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		status, err := q.LockDonationStatus(ctx, sharddb.LockDonationStatusParams{OrganizationID: scope.OrgID, ID: id})
		if err != nil {
			return err
		}
		if err := q.WithRollup(ctx, scope.OrgID, []uuid.UUID{id}, func() error {
			return q.DiscardDonationRow(ctx, sharddb.DiscardDonationRowParams{OrganizationID: scope.OrgID, ID: id, DiscardReason: &reason})
		}); err != nil {
			return err
		}
		return history.Record(ctx, q, scope.OrgID, history.Version{DonationID: id, Actor: actor(ctx), Field: "status",
			Before: map[string]string{"status": status}, After: map[string]string{"status": collection.StatusDiscarded, "discard_reason": reason}})
	})
}

// CollectPayment answers POST …/collect_payment: the workflow charges its next period now. The
// answer waits (up to CollectWait) for the charge's outcome: 200 with collect.status approved or
// rejected, or 202 with collect.status in_process when the gateway has not decided yet.
func (s *ManageService) CollectPayment(ctx context.Context, scope tenants.Scope, req *DonationRequest) (*Detail, error) {
	r, err := s.loadOpen(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	// The baseline is read before the update: the charge may finish before the update answers.
	before, _ := s.state(ctx, r.ID)
	if _, err := s.update(ctx, scope, r, collection.UpdateCollectNow, collection.CollectNowRequest{Actor: actor(ctx)}); err != nil {
		return nil, err
	}
	res := s.awaitCollect(ctx, r.ID, before)
	d, err := s.detail(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	d.Collect = &res
	if res.Status == "in_process" || res.Status == "pending" {
		d.status = http.StatusAccepted
	}
	return d, nil
}

// state queries the collection workflow's state.
func (s *ManageService) state(ctx context.Context, id uuid.UUID) (collection.State, error) {
	var st collection.State
	v, err := s.d.Temporal.QueryWorkflow(ctx, collection.WorkflowID(id.String()), "", collection.QueryState)
	if err == nil {
		err = v.Get(&st)
	}
	return st, err
}

// awaitCollect polls the workflow until the charge collect-now started settles, up to CollectWait.
func (s *ManageService) awaitCollect(ctx context.Context, id uuid.UUID, before collection.State) CollectView {
	ctx, cancel := context.WithTimeout(ctx, s.d.CollectWait)
	defer cancel()
	res := CollectView{Period: before.NextPeriod.String(), Status: "in_process"}
	for {
		select {
		case <-ctx.Done():
			return res
		case <-time.After(300 * time.Millisecond):
		}
		st, err := s.state(ctx, id)
		if err != nil {
			continue
		}
		if settledSince(before, st) {
			last := st.Recent[len(st.Recent)-1]
			return CollectView{Period: last.Period.String(), Status: last.Status, Approved: last.Approved,
				PaymentID: last.PaymentID, Attempts: last.Attempts}
		}
		if st.Status != collection.StatusActive {
			// Paused by the charge (expired card, a hard decline): the detail says why.
			res.Status = "rejected"
			if settledSince(before, st) {
				last := st.Recent[len(st.Recent)-1]
				res = CollectView{Period: last.Period.String(), Status: last.Status, PaymentID: last.PaymentID, Attempts: last.Attempts}
			}
			return res
		}
	}
}

// settledSince says whether a period was settled between the two states: a new one, or the last
// one settled again (a retried period replaces its result and counts once).
func settledSince(before, st collection.State) bool {
	n, b := len(st.Recent), len(before.Recent)
	return n > 0 && (st.ChargedPeriods > before.ChargedPeriods || b == 0 || st.Recent[n-1] != before.Recent[b-1])
}

// CollectView is the outcome of collect_payment.
type CollectView struct {
	Period    string `json:"period"`
	Status    string `json:"status"` // approved, rejected, in_process…
	Approved  bool   `json:"approved"`
	PaymentID string `json:"payment_id,omitempty"`
	Attempts  int    `json:"attempts,omitempty"`
}

// Reason is a pause or discard reason with its label in the request's language.
type Reason struct {
	Code  string `json:"code"`
	Label string `json:"label"`
}

// Reasons is GET /manage/api/donation_reasons.
type Reasons struct {
	Pause         []Reason `json:"pause_reasons"`
	Discard       []Reason `json:"discard_reasons"`
	DefaultPause  string   `json:"default_pause_reason"`
	DefaultDiscrd string   `json:"default_discard_reason"`
}

// Reasons answers GET /manage/api/donation_reasons: the pause and discard reasons with their
// labels in the request's language.
func (s *ManageService) Reasons(ctx context.Context, _ *struct{}) (*Reasons, error) {
	l := i18n.FromContext(ctx)
	out := &Reasons{DefaultPause: collection.PausedByOrg, DefaultDiscrd: "donor_request"}
	for _, p := range collection.PausedReasons {
		out.Pause = append(out.Pause, Reason{p, i18n.T(l, "paused_reason."+p)})
	}
	for _, d := range DiscardReasons {
		out.Discard = append(out.Discard, Reason{d, i18n.T(l, "discard_reason."+d)})
	}
	return out, nil
}

// DiscardReasons are the reasons the discard dialog offers (any other text is accepted too).
var DiscardReasons = []string{"donor_request", "financial_reasons", "payment_problems", "duplicate", "deceased",
	"unreachable", "other"}

// updateIDKey is the context key of the request's Idempotency-Key.
type updateIDKey struct{}

// carryUpdateKey puts the request's Idempotency-Key in its context: a retried change reuses it as
// its workflow update's id, so Temporal runs the update once.
func carryUpdateKey(c *gin.Context) {
	if k := strings.TrimSpace(c.GetHeader(idempotency.Header)); k != "" && len(k) <= 128 {
		c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), updateIDKey{}, k))
	}
	c.Next()
}

// updateKey is the request's Idempotency-Key, "" without one.
func updateKey(ctx context.Context) string {
	k, _ := ctx.Value(updateIDKey{}).(string)
	return k
}
