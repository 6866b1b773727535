package donation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/idempotency"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
)

// ManageDeps are the manage handler's collaborators.
type ManageDeps struct {
	Tenants interface {
		ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	}
	Temporal client.Client
	Gateways Gateways
	// Tokenizer is where the card-change dialog tokenises a new card, from the browser.
	Tokenizer Tokenizer
	// CollectWait bounds how long collect_payment waits for the charge's outcome (default 25 s).
	CollectWait time.Duration
	// Secret keys the hashes that bind Idempotency-Keys to their requests.
	Secret []byte
	// Forms gives a donation's campaign and the limits its public form applies to an amount.
	Forms interface {
		Get(ctx context.Context, orgID, id uuid.UUID) (*campaign.Campaign, error)
		LimitsFor(ctx context.Context, f campaign.Form) campaign.Limits
		MinimumFor(ctx context.Context, f campaign.Form, preset bool) int64
	}
}

// ManageHandler serves the donation management calls of the manage area (donor spec §2 screens
// 6–7, §7): the donation detail and its actions, the donations list and CSV, donor discard and
// reactivation, and the transactions summary. Every change to a monthly donation goes through its
// collection workflow as a Temporal update, and is answered after the workflow completed it.
type ManageHandler struct {
	d ManageDeps
}

// NewManageHandler builds the handler.
func NewManageHandler(d ManageDeps) *ManageHandler {
	if d.CollectWait == 0 {
		d.CollectWait = 25 * time.Second
	}
	return &ManageHandler{d: d}
}

// Mount attaches the routes to the manage group (already authenticated), each with its permit.
func (h *ManageHandler) Mount(manage *gin.RouterGroup, require func(permit string) gin.HandlerFunc) {
	view, change, export := require(authz.View), require(authz.ManageDonations), require(authz.ExportData)
	// Changes accept an Idempotency-Key, bound to the request that first used it.
	idem := idempotency.Replay(h.d.Secret, idempotency.ByOrganization(h.d.Tenants))
	manage.GET("/donations", view, h.List)
	manage.GET("/donations.csv", export, h.CSV)
	manage.GET("/donation_reasons", view, h.Reasons)
	manage.GET("/donations/:uuid", view, h.Get)
	manage.PATCH("/donations/:uuid", change, idem, h.Patch)
	manage.POST("/donations/:uuid/collect_payment", change, idem, h.CollectPayment)
	manage.POST("/donations/:uuid/pause", change, idem, h.Pause)
	manage.POST("/donations/:uuid/restore", change, idem, h.Restore)
	manage.POST("/donations/:uuid/discard", change, idem, h.Discard)
	manage.PATCH("/donations/:uuid/donor", change, idem, h.PatchDonor)
	manage.POST("/donations/:uuid/payment_method", change, idem, h.PaymentMethod)
	manage.GET("/donations/:uuid/versions", view, h.Versions)
	manage.GET("/donations/:uuid/support", view, h.Support)
	manage.POST("/donations/:uuid/upgrades", change, idem, h.AddUpgrade)
	manage.PATCH("/donations/:uuid/upgrades/:id", change, idem, h.EditUpgrade)
	manage.DELETE("/donations/:uuid/upgrades/:id", change, idem, h.RemoveUpgrade)
	manage.POST("/donors/:uuid/discard", change, idem, h.DiscardDonor)
	manage.POST("/donors/:uuid/reactivate", change, idem, h.ReactivateDonor)
	manage.GET("/payment_transactions", view, h.Transactions)
	manage.GET("/payment_transactions/summary", view, h.Summary)
	manage.GET("/payment_transactions/summary/:period", view, h.Summary)
}

// scope resolves the caller's organisation (Require ran) to its shard.
func (h *ManageHandler) scope(c *gin.Context) (tenants.Scope, error) {
	return h.d.Tenants.ForOrganization(c.Request.Context(), authz.Organization(c).OrganizationID)
}

// paramUUID parses a uuid path parameter; a malformed one is answered like an unknown one.
func paramUUID(c *gin.Context, name string) (uuid.UUID, bool) {
	id, err := uuid.Parse(c.Param(name))
	if err != nil {
		apierror.Abort(c, apierror.NotFound())
		return uuid.Nil, false
	}
	return id, true
}

// load reads the donation of the :uuid parameter in the caller's organisation; another
// organisation's donation is not found.
func (h *ManageHandler) loadOpen(c *gin.Context) (tenants.Scope, *row, bool) {
	scope, r, ok := h.load(c)
	if ok && r.Status == collection.StatusDiscarded {
		apierror.Abort(c, apierror.New(http.StatusConflict, "donation.discarded"))
		return scope, r, false
	}
	return scope, r, ok
}

func (h *ManageHandler) load(c *gin.Context) (tenants.Scope, *row, bool) {
	id, ok := paramUUID(c, "uuid")
	if !ok {
		return tenants.Scope{}, nil, false
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return scope, nil, false
	}
	r, err := loadRow(c.Request.Context(), scope, id)
	if errors.Is(err, pgx.ErrNoRows) {
		apierror.Abort(c, apierror.NotFound())
		return scope, nil, false
	}
	if err != nil {
		apierror.Abort(c, err)
		return scope, nil, false
	}
	return scope, r, true
}

// actor is who the version history records for a change made by the caller.
func actor(c *gin.Context) string { return authz.User(c).ID.String() }

// Get answers GET /manage/api/donations/:uuid.
func (h *ManageHandler) Get(c *gin.Context) {
	scope, r, ok := h.load(c)
	if !ok {
		return
	}
	h.respond(c, scope, r.ID, http.StatusOK, nil)
}

// respond writes the donation detail, read again from the shard (the workflow's update synced it).
func (h *ManageHandler) respond(c *gin.Context, scope tenants.Scope, id uuid.UUID, status int, extra func(*Detail)) {
	d, err := detail(c.Request.Context(), scope, id)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	d.Gateway = h.d.Tokenizer
	if extra != nil {
		extra(&d)
	}
	c.JSON(status, d)
}

// bind decodes an optional JSON body (an empty body leaves v as it is).
func bind(c *gin.Context, v any) bool {
	b, err := io.ReadAll(c.Request.Body)
	if err != nil {
		apierror.Abort(c, apierror.BadRequest("malformed_json"))
		return false
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return true
	}
	if err := json.Unmarshal(b, v); err != nil {
		apierror.Abort(c, apierror.BadRequest("malformed_json"))
		return false
	}
	return true
}

// update sends a change to the donation's collection workflow and waits until the workflow
// completed it. It refuses, with a clear message, donations that have no running workflow.
func (h *ManageHandler) update(c *gin.Context, scope tenants.Scope, r *row, name string, arg any) (collection.State, bool) {
	var st collection.State
	switch {
	case r.Status == collection.StatusDiscarded:
		apierror.Abort(c, apierror.New(http.StatusConflict, "donation.discarded"))
		return st, false
	case r.Recurrence != 1:
		apierror.Abort(c, apierror.New(http.StatusConflict, "donation.not_monthly"))
		return st, false
	case r.Status == "pending" || r.Status == "rejected":
		apierror.Abort(c, apierror.New(http.StatusConflict, "donation.not_collecting"))
		return st, false
	}
	ctx := c.Request.Context()
	updateID := strings.TrimSpace(c.GetHeader("Idempotency-Key"))
	if updateID == "" || len(updateID) > 128 {
		updateID = uuid.NewString()
	}
	opts := client.UpdateWorkflowOptions{
		WorkflowID: collection.WorkflowID(r.ID.String()), UpdateID: name + "/" + updateID, UpdateName: name,
		Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted,
	}
	err := h.tryUpdate(ctx, opts, &st)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) && (r.Status == collection.StatusActive || r.Status == collection.StatusPaused) {
		// An active monthly donation whose collection never started (the start is retried by the
		// public form's replay; this is the other place that repairs it): start it, then retry.
		if _, serr := collection.Start(ctx, h.d.Temporal, collection.TaskQueue, collection.Input{
			OrganizationID: scope.OrgID.String(), DonationID: r.ID.String()}); serr == nil {
			err = h.tryUpdate(ctx, opts, &st)
		}
	}
	if err != nil {
		apierror.Abort(c, updateError(err))
		return st, false
	}
	return st, true
}

// tryUpdate sends the update and waits for its result. The workflow registers its handlers in
// its first task, so an update sent right after the start is accepted (and waits for the load).
func (h *ManageHandler) tryUpdate(ctx context.Context, opts client.UpdateWorkflowOptions, st *collection.State) error {
	handle, err := h.d.Temporal.UpdateWorkflow(ctx, opts)
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
	Amount     *Decimal  `json:"amount"`      // in the currency's units, "1500.50" or 1500.5
	CollectDay optionDay `json:"collect_day"` // 1–31, or null for the last day of the month
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
func (h *ManageHandler) Patch(c *gin.Context) {
	scope, r, ok := h.loadOpen(c)
	if !ok {
		return
	}
	var req PatchRequest
	if !bind(c, &req) {
		return
	}
	if req.Amount == nil && !req.CollectDay.Set {
		apierror.Abort(c, apierror.Validation(map[string]string{"amount": "donation.required"}))
		return
	}
	var amount int64
	if req.Amount != nil {
		m, err := money.Parse(string(*req.Amount), r.Currency)
		if err != nil || m.Minor <= 0 {
			apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.amount_invalid",
				Fields: map[string]string{"amount": "donation.amount_invalid"}})
			return
		}
		// The operator's amount meets the limits the donor's did on the public form.
		f, lim, err := h.limits(c.Request.Context(), scope, r)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		preset := slices.Contains(f.Campaign.AmountsMinor(), m.Minor)
		if e := amountOutOfRange(m.Minor, h.d.Forms.MinimumFor(c.Request.Context(), f, preset), lim, r.Currency); e != nil {
			e.Fields = map[string]string{"amount": "donation.amount_out_of_range"}
			apierror.Abort(c, e)
			return
		}
		amount = m.Minor
	}
	day, cur := 0, 0 // 0: the last day of the month, as the workflow counts it
	if req.CollectDay.Day != nil {
		day = *req.CollectDay.Day
	}
	if r.CollectDay != nil {
		cur = *r.CollectDay
	}
	if req.CollectDay.Day != nil && (day < 1 || day > 31) {
		apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.collect_day_invalid",
			Fields: map[string]string{"collect_day": "donation.collect_day_invalid"}})
		return
	}
	if req.CollectDay.Set && day != cur {
		if _, ok := h.update(c, scope, r, collection.UpdateCollectDay,
			collection.ChangeCollectDayRequest{Actor: actor(c), CollectDay: day}); !ok {
			return
		}
	}
	if req.Amount != nil {
		if _, ok := h.update(c, scope, r, collection.UpdateChangeAmount,
			collection.ChangeAmountRequest{Actor: actor(c), Amount: amount}); !ok {
			return
		}
		_ = scope.Exec(c.Request.Context(), queries.Get("SingleItemAmount"), scope.OrgID, r.ID, amount)
	}
	h.respond(c, scope, r.ID, http.StatusOK, nil)
}

// limits reads the donation's campaign and the donation limits its public form applies (the
// gateway's, or the defaults while it does not answer).
func (h *ManageHandler) limits(ctx context.Context, scope tenants.Scope, r *row) (campaign.Form, campaign.Limits, error) {
	cp, err := h.d.Forms.Get(ctx, scope.OrgID, r.CampaignID)
	if err != nil {
		return campaign.Form{}, campaign.Limits{}, err
	}
	f := campaign.Form{Campaign: cp, Scope: scope}
	return f, h.d.Forms.LimitsFor(ctx, f), nil
}

// ReasonRequest is the body of pause and discard.
type ReasonRequest struct {
	Reason string `json:"reason"`
}

// Pause answers POST …/pause {reason}; the reason defaults to by_org and must be one of §4's.
func (h *ManageHandler) Pause(c *gin.Context) {
	scope, r, ok := h.loadOpen(c)
	if !ok {
		return
	}
	var req ReasonRequest
	if !bind(c, &req) {
		return
	}
	reason := strings.TrimSpace(req.Reason)
	if reason == "" {
		reason = collection.PausedByOrg
	}
	if !contains(collection.PausedReasons, reason) {
		apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.pause_reason_invalid",
			Fields: map[string]string{"reason": "donation.pause_reason_invalid"}})
		return
	}
	if _, ok := h.update(c, scope, r, collection.UpdatePause, collection.PauseRequest{Actor: actor(c), Reason: reason}); !ok {
		return
	}
	h.respond(c, scope, r.ID, http.StatusOK, nil)
}

// Restore answers POST …/restore: the donation is charged again from the next period.
func (h *ManageHandler) Restore(c *gin.Context) {
	scope, r, ok := h.loadOpen(c)
	if !ok {
		return
	}
	if _, ok := h.update(c, scope, r, collection.UpdateRestore, collection.RestoreRequest{Actor: actor(c)}); !ok {
		return
	}
	h.respond(c, scope, r.ID, http.StatusOK, nil)
}

// Discard answers POST …/discard {reason}: irreversible. One-time donations (no workflow) are
// discarded on their row.
func (h *ManageHandler) Discard(c *gin.Context) {
	scope, r, ok := h.load(c)
	if !ok {
		return
	}
	var req ReasonRequest
	if !bind(c, &req) {
		return
	}
	reason := strings.TrimSpace(req.Reason)
	if reason == "" {
		apierror.Abort(c, apierror.Validation(map[string]string{"reason": "donation.required"}))
		return
	}
	if len([]rune(reason)) > 200 {
		apierror.Abort(c, apierror.Validation(map[string]string{"reason": "donation.too_long"}))
		return
	}
	if r.Status == collection.StatusDiscarded {
		apierror.Abort(c, apierror.New(http.StatusConflict, "donation.discarded"))
		return
	}
	if r.Recurrence != 1 || r.Status == "pending" || r.Status == "rejected" {
		if err := h.discardRow(c, scope, r.ID, reason); err != nil {
			apierror.Abort(c, err)
			return
		}
		h.respond(c, scope, r.ID, http.StatusOK, nil)
		return
	}
	if _, ok := h.update(c, scope, r, collection.UpdateDiscard, collection.DiscardRequest{Actor: actor(c), Reason: reason}); !ok {
		return
	}
	h.respond(c, scope, r.ID, http.StatusOK, nil)
}

// discardRow discards a donation without a workflow and records the version.
func (h *ManageHandler) discardRow(c *gin.Context, scope tenants.Scope, id uuid.UUID, reason string) error {
	ctx := c.Request.Context()
	return scope.Tx(ctx, func(tx pgx.Tx) error {
		var status string
		if err := tx.QueryRow(ctx, "SELECT status FROM donations WHERE organization_id = $1 AND id = $2 FOR UPDATE",
			scope.OrgID, id).Scan(&status); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, queries.Get("DiscardOneTime"), scope.OrgID, id, reason); err != nil {
			return err
		}
		return insertVersion(ctx, tx, scope.OrgID, id, actor(c), "status", map[string]string{"status": status},
			map[string]string{"status": collection.StatusDiscarded, "discard_reason": reason})
	})
}

func insertVersion(ctx context.Context, q interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
}, org, donation uuid.UUID, who, field string, before, after any) error {
	b, err := jsonOrNull(before)
	if err != nil {
		return err
	}
	a, err := jsonOrNull(after)
	if err != nil {
		return err
	}
	_, err = q.Exec(ctx, queries.Get("InsertVersion"), org, uuid.New(), donation, who, field, b, a)
	return err
}

func jsonOrNull(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	return json.Marshal(v)
}

// CollectPayment answers POST …/collect_payment: the workflow charges its next period now. The
// answer waits (up to CollectWait) for the charge's outcome: 200 with collect.status approved or
// rejected, or 202 with collect.status in_process when the gateway has not decided yet.
func (h *ManageHandler) CollectPayment(c *gin.Context) {
	scope, r, ok := h.loadOpen(c)
	if !ok {
		return
	}
	// The baseline is read before the update: the charge may finish before the update answers.
	var before collection.State
	if v, err := h.d.Temporal.QueryWorkflow(c.Request.Context(), collection.WorkflowID(r.ID.String()), "", collection.QueryState); err == nil {
		_ = v.Get(&before)
	}
	if _, ok := h.update(c, scope, r, collection.UpdateCollectNow, collection.CollectNowRequest{Actor: actor(c)}); !ok {
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), h.d.CollectWait)
	defer cancel()
	period := before.NextPeriod.String()
	res := CollectView{Period: period, Status: "in_process"}
	for settled := false; !settled; {
		select {
		case <-ctx.Done():
			settled = true
			continue
		case <-time.After(300 * time.Millisecond):
		}
		v, err := h.d.Temporal.QueryWorkflow(ctx, collection.WorkflowID(r.ID.String()), "", collection.QueryState)
		if err != nil {
			continue
		}
		var st collection.State
		if v.Get(&st) != nil {
			continue
		}
		if st.ChargedPeriods > before.ChargedPeriods && len(st.Recent) > 0 {
			last := st.Recent[len(st.Recent)-1]
			res = CollectView{Period: last.Period.String(), Status: last.Status, Approved: last.Approved,
				PaymentID: last.PaymentID, Attempts: last.Attempts}
			settled = true
		} else if st.Status != collection.StatusActive {
			// Paused by the charge (expired card, a hard decline): the detail says why.
			res.Status = "rejected"
			if len(st.Recent) > len(before.Recent) || st.ChargedPeriods > before.ChargedPeriods {
				last := st.Recent[len(st.Recent)-1]
				res = CollectView{Period: last.Period.String(), Status: last.Status, PaymentID: last.PaymentID, Attempts: last.Attempts}
			}
			settled = true
		}
	}
	code := http.StatusOK
	if res.Status == "in_process" || res.Status == "pending" {
		code = http.StatusAccepted
	}
	h.respond(c, scope, r.ID, code, func(d *Detail) { d.Collect = &res })
}

// CollectView is the outcome of collect_payment.
type CollectView struct {
	Period    string `json:"period"`
	Status    string `json:"status"` // approved, rejected, in_process…
	Approved  bool   `json:"approved"`
	PaymentID string `json:"payment_id,omitempty"`
	Attempts  int    `json:"attempts,omitempty"`
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Reasons answers GET /manage/api/donation_reasons: the pause and discard reasons with their
// labels in the request's language.
func (h *ManageHandler) Reasons(c *gin.Context) {
	l := apierror.Lang(c)
	type reason struct {
		Code  string `json:"code"`
		Label string `json:"label"`
	}
	out := struct {
		Pause         []reason `json:"pause_reasons"`
		Discard       []reason `json:"discard_reasons"`
		DefaultPause  string   `json:"default_pause_reason"`
		DefaultDiscrd string   `json:"default_discard_reason"`
	}{DefaultPause: collection.PausedByOrg, DefaultDiscrd: "donor_request"}
	for _, p := range collection.PausedReasons {
		out.Pause = append(out.Pause, reason{p, tr(l, "paused_reason."+p)})
	}
	for _, d := range DiscardReasons {
		out.Discard = append(out.Discard, reason{d, tr(l, "discard_reason."+d)})
	}
	c.JSON(http.StatusOK, out)
}

// DiscardReasons are the reasons the discard dialog offers (any other text is accepted too).
var DiscardReasons = []string{"donor_request", "financial_reasons", "payment_problems", "duplicate", "deceased",
	"unreachable", "other"}
