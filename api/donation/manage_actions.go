package donation

import (
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/history"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
)

// DonorPatch is PATCH …/donor: every field optional; a field sent replaces the stored one.
type DonorPatch struct {
	FirstName *string `json:"first_name"`
	LastName  *string `json:"last_name"`
	Email     *string `json:"email"`
	Phone     *string `json:"phone"`
	Cellphone *string `json:"cellphone"`
	UIDType   *string `json:"uid_type"`
	UIDNumber *string `json:"uid_number"`
	Street    *string `json:"street"`
	City      *string `json:"city"`
	State     *string `json:"state"`
	Country   *string `json:"country"`
	Zipcode   *string `json:"zipcode"`
	Gender    *string `json:"gender"`
}

var genders = []string{"female", "male", "other", "unknown"}

// allDocumentTypes are the document types of spec §3.
var allDocumentTypes = []string{"CC", "CE", "CI", "CUIL", "CUIT", "DNI", "LC", "LE", "NIT", "Otro", "RFC", "RUC", "RUT"}

// PatchDonor edits the donation's donor and records the change in the donation's versions.
// No workflow is involved (the collection workflow keeps the e-mail it loaded for receipts).
func (h *ManageHandler) PatchDonor(c *gin.Context) {
	scope, r, ok := h.load(c)
	if !ok {
		return
	}
	var p DonorPatch
	if !bind(c, &p) {
		return
	}
	before := r.Donor
	after := before
	fields := map[string]string{}
	text := func(name string, in *string, out *string, required bool, max int) {
		if in == nil {
			return
		}
		v := strings.TrimSpace(*in)
		switch {
		case required && v == "":
			fields[name] = "donation.required"
		case utf8.RuneCountInString(v) > max:
			fields[name] = "donation.too_long"
		default:
			*out = v
		}
	}
	text("first_name", p.FirstName, &after.FirstName, true, 100)
	text("last_name", p.LastName, &after.LastName, true, 100)
	text("street", p.Street, &after.Street, false, 200)
	text("city", p.City, &after.City, false, 100)
	text("state", p.State, &after.State, false, 100)
	text("zipcode", p.Zipcode, &after.Zipcode, false, 20)
	for name, pair := range map[string][2]*string{"phone": {p.Phone, &after.Phone}, "cellphone": {p.Cellphone, &after.Cellphone}} {
		if pair[0] == nil {
			continue
		}
		v := strings.TrimSpace(*pair[0])
		if v != "" && !validPhone(v) {
			fields[name] = "donation.phone_invalid"
			continue
		}
		*pair[1] = v
	}
	if p.Email != nil {
		if e, ok := campaign.NormalizeEmail(*p.Email); ok {
			after.Email = e
		} else if strings.TrimSpace(*p.Email) == "" {
			fields["email"] = "donation.required"
		} else {
			fields["email"] = "donation.email_invalid"
		}
	}
	if p.UIDType != nil {
		v := strings.TrimSpace(*p.UIDType)
		if v != "" && !contains(allDocumentTypes, v) {
			fields["uid_type"] = "donation.invalid_option"
		} else {
			after.UIDType = v
		}
	}
	if p.UIDNumber != nil {
		v, code := documentNumber(after.UIDType, *p.UIDNumber)
		if strings.TrimSpace(*p.UIDNumber) != "" && code != "" {
			fields["uid_number"] = code
		} else {
			after.UIDNumber = v
		}
	}
	if p.Country != nil {
		v := strings.ToUpper(strings.TrimSpace(*p.Country))
		if v != "" && (len(v) != 2 || strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "") {
			fields["country"] = "donation.invalid_option"
		} else {
			after.Country = v
		}
	}
	if p.Gender != nil {
		v := strings.TrimSpace(*p.Gender)
		if v == "" {
			v = "unknown"
		}
		if !contains(genders, v) {
			fields["gender"] = "donation.invalid_option"
		} else {
			after.Gender = v
		}
	}
	if len(fields) > 0 {
		apierror.Abort(c, apierror.Validation(fields))
		return
	}
	changedBefore, changedAfter := donorDiff(before, after)
	if len(changedAfter) == 0 {
		h.respond(c, scope, r.ID, http.StatusOK, nil)
		return
	}
	ctx := c.Request.Context()
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, queries.Get("UpdateDonor"), scope.OrgID, r.Donor.UUID, after.FirstName, after.LastName,
			after.Email, after.Phone, after.Cellphone, after.UIDType, after.UIDNumber, after.Street, after.City, after.State,
			after.Country, after.Zipcode, after.Gender); err != nil {
			return err
		}
		return history.Record(ctx, sharddb.Store(tx), scope.OrgID, history.Version{DonationID: r.ID, Actor: actor(c), Field: "donor",
			Before: changedBefore, After: changedAfter})
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		apierror.Abort(c, &apierror.Error{Status: http.StatusConflict, Code: "donation.donor_email_taken",
			Fields: map[string]string{"email": "donation.donor_email_taken"}, Err: err})
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope, r.ID, http.StatusOK, nil)
}

func donorDiff(a, b DonorView) (map[string]string, map[string]string) {
	before, after := map[string]string{}, map[string]string{}
	pairs := [][3]string{
		{"first_name", a.FirstName, b.FirstName}, {"last_name", a.LastName, b.LastName}, {"email", a.Email, b.Email},
		{"phone", a.Phone, b.Phone}, {"cellphone", a.Cellphone, b.Cellphone}, {"uid_type", a.UIDType, b.UIDType},
		{"uid_number", a.UIDNumber, b.UIDNumber}, {"street", a.Street, b.Street}, {"city", a.City, b.City},
		{"state", a.State, b.State}, {"country", a.Country, b.Country}, {"zipcode", a.Zipcode, b.Zipcode},
		{"gender", a.Gender, b.Gender},
	}
	for _, p := range pairs {
		if p[1] != p[2] {
			before[p[0]], after[p[0]] = p[1], p[2]
		}
	}
	return before, after
}

// PaymentMethodRequest is POST …/payment_method: the public form's payment_method object (the card
// tokenised in the browser; a card number or security code is refused before decoding).
type PaymentMethodRequest struct {
	Gateway            map[string]any `json:"gateway"`
	MethodID           string         `json:"method_id"`
	BIN                string         `json:"bin"`
	LastFour           string         `json:"last_four"`
	ExpirationMonth    int            `json:"expiration_month"`
	ExpirationYear     int            `json:"expiration_year"`
	CCExpiration       string         `json:"cc_expiration"`
	CardholderName     string         `json:"cardholder_name"`
	CardholderIDType   string         `json:"cardholder_id_type"`
	CardholderIDNumber string         `json:"cardholder_id_number"`
	DonorIsCardholder  *bool          `json:"donor_is_cardholder"`
}

// PaymentMethod changes the donation's card: the token is saved at the gateway for the donor's
// customer, the card is stored (token and display data only), and the workflow switches to it.
func (h *ManageHandler) PaymentMethod(c *gin.Context) {
	body, err := request.Body(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	scope, r, ok := h.loadOpen(c)
	if !ok {
		return
	}
	var pmReq PaymentMethodRequest
	if err := json.Unmarshal(body, &pmReq); err != nil {
		apierror.Abort(c, apierror.BadRequest("malformed_json"))
		return
	}
	// Refuse early what the workflow would refuse, before saving a card at the gateway.
	if r.Status == collection.StatusDiscarded {
		apierror.Abort(c, apierror.New(http.StatusConflict, "donation.discarded"))
		return
	}
	if r.Recurrence != 1 || r.Status == "pending" || r.Status == "rejected" {
		apierror.Abort(c, apierror.New(http.StatusConflict, "donation.not_monthly"))
		return
	}
	ctx := c.Request.Context()
	var country string
	_ = scope.QueryRow(ctx, "SELECT country FROM organizations WHERE organization_id = $1", scope.OrgID).Scan(&country)
	cd, fields := checkCard(pmReq, cardholder{r.Donor.FirstName, r.Donor.LastName, r.Donor.UIDType, r.Donor.UIDNumber},
		documentTypes[country], time.Now(), "")
	if len(fields) > 0 {
		apierror.Abort(c, apierror.Validation(fields))
		return
	}
	gw, gwName, err := h.d.Gateways.For(ctx, scope.OrgID, r.Currency)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	pm, err := gw.PaymentMethod(ctx, cd.BIN)
	if errors.Is(err, gateway.ErrNotFound) || (err == nil && cd.MethodID != "" && pm.ID != cd.MethodID) {
		apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.card_not_allowed",
			Fields: map[string]string{"method_id": "donation.card_type_refused"}})
		return
	}
	if err != nil {
		apierror.Abort(c, &apierror.Error{Status: http.StatusBadGateway, Code: "donation.change_failed", Err: err})
		return
	}
	cust, err := gw.EnsureCustomer(ctx, gateway.Customer{Email: r.Donor.Email, FirstName: r.Donor.FirstName,
		LastName: r.Donor.LastName, IDType: cd.HolderIDType, IDNumber: cd.HolderIDNumber})
	if err != nil {
		abortGateway(c, err)
		return
	}
	saved, err := gw.SaveCard(ctx, cust.ID, cd.Token)
	if err != nil {
		abortGateway(c, err)
		return
	}
	brand := firstNonEmpty(saved.PaymentMethodID, cd.MethodID)
	pmID, err := scope.Store().UpsertPaymentMethod(ctx, sharddb.UpsertPaymentMethodParams{OrganizationID: scope.OrgID, ID: uuid.New(),
		DonorID: r.Donor.UUID, Gateway: gwName, CustomerID: cust.ID, CardID: saved.ID, Brand: brand, Bin: cd.BIN,
		LastFour: cd.LastFour, ExpiryMonth: int16(cd.ExpMonth), ExpiryYear: int16(cd.ExpYear), HolderName: cd.HolderName,
		HolderIDType: &cd.HolderIDType, HolderIDNumber: &cd.HolderIDNumber, DonorIsCardholder: cd.DonorIsCardholder})
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if _, ok := h.update(c, scope, r, collection.UpdateChangeMethod, collection.ChangePaymentMethodRequest{
		Actor: actor(c), PaymentMethod: collection.PaymentMethod{ID: pmID.String(), CustomerID: cust.ID, CardID: saved.ID,
			Brand: brand, BIN: cd.BIN, LastFour: cd.LastFour, ExpiryMonth: cd.ExpMonth, ExpiryYear: cd.ExpYear,
			HolderName: cd.HolderName}}); !ok {
		return
	}
	h.respond(c, scope, r.ID, http.StatusOK, nil)
}

func abortGateway(c *gin.Context, err error) {
	var gerr *gateway.Error
	if errors.As(err, &gerr) && gerr.Status < 500 {
		apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: causeCode(gerr.Key), Err: err})
		return
	}
	apierror.Abort(c, &apierror.Error{Status: http.StatusBadGateway, Code: "donation.change_failed", Err: err})
}

// VersionView is one change in a donation's history.
type VersionView struct {
	UUID      string          `json:"uuid"`
	Actor     string          `json:"actor"`      // a user id, "system" (the workflow itself) or "api"
	ActorType string          `json:"actor_type"` // user, system, api
	Field     string          `json:"field"`      // status, amount, payment_method, upgrade, collect_now, donor
	Before    json.RawMessage `json:"before"`
	After     json.RawMessage `json:"after"`
	At        time.Time       `json:"at"`
}

// Versions answers GET …/versions?page=&per_page= (newest first).
func (h *ManageHandler) Versions(c *gin.Context) {
	scope, r, ok := h.load(c)
	if !ok {
		return
	}
	page, per, perr := pagination(c)
	if perr != nil {
		apierror.Abort(c, perr)
		return
	}
	ctx := c.Request.Context()
	rows, err := scope.Query(ctx, queries.Get("DonationVersions"), scope.OrgID, r.ID, per, (page-1)*per)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	out := []VersionView{}
	for rows.Next() {
		var v VersionView
		var id uuid.UUID
		var before, after []byte
		if err := rows.Scan(&id, &v.Actor, &v.Field, &before, &after, &v.At); err != nil {
			rows.Close()
			apierror.Abort(c, err)
			return
		}
		v.UUID, v.Before, v.After = id.String(), rawOrNull(before), rawOrNull(after)
		switch _, err := uuid.Parse(v.Actor); {
		case err == nil:
			v.ActorType = "user"
		case v.Actor == collection.ActorSystem:
			v.ActorType = "system"
		default:
			v.ActorType = "api"
		}
		out = append(out, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"versions": out, "total": r.VersionsCount, "page": page, "per_page": per})
}

func rawOrNull(b []byte) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

// SupportView is GET …/support: what a support person needs to follow a donation's collection.
type SupportView struct {
	DonationUUID     string     `json:"donation_uuid"`
	WorkflowID       string     `json:"workflow_id"`
	RunID            string     `json:"run_id"`
	WorkflowStatus   string     `json:"workflow_status"` // running, completed, continued_as_new, failed, terminated, not_found
	TaskQueue        string     `json:"task_queue"`
	WorkflowStarted  *time.Time `json:"workflow_started_at"`
	HistoryLength    int64      `json:"history_length"`
	PendingActivites []string   `json:"pending_activities"` // type and last failure of each pending activity
	Status           string     `json:"status"`
	PausedReason     string     `json:"paused_reason"`
	NextPeriod       string     `json:"next_period"`
	NextChargeDate   *string    `json:"next_charge_date"`
	// ConsecutiveFailedPeriods counts settled periods without an approval in a row; at
	// MaxFailedPeriods the donation pauses with last_x_months_not_approved.
	ConsecutiveFailedPeriods int             `json:"consecutive_failed_periods"`
	MaxFailedPeriods         int             `json:"max_failed_periods"`
	ChargedPeriods           int             `json:"charged_periods"`
	Recent                   json.RawMessage `json:"recent_periods"` // the workflow's last 12 period results
	Gateway                  string          `json:"gateway"`
	GatewayCustomerID        string          `json:"gateway_customer_id"`
	GatewayCardID            string          `json:"gateway_card_id"`
	LastPayments             []SupportPay    `json:"last_payments"` // newest first, 10
}

// SupportPay is a recent gateway payment of the donation.
type SupportPay struct {
	Period       string    `json:"period"`
	Attempt      int       `json:"attempt"`
	Status       string    `json:"status"`
	StatusDetail string    `json:"status_detail"`
	PaymentID    string    `json:"payment_id"`
	At           time.Time `json:"at"`
}

// Support answers GET …/support.
func (h *ManageHandler) Support(c *gin.Context) {
	scope, r, ok := h.load(c)
	if !ok {
		return
	}
	ctx := c.Request.Context()
	wid := collection.WorkflowID(r.ID.String())
	s := SupportView{DonationUUID: r.ID.String(), WorkflowID: wid, WorkflowStatus: "not_found", Status: r.Status,
		PausedReason: r.PausedReason, ConsecutiveFailedPeriods: r.ConsecutiveFailed, Gateway: r.PMGateway,
		GatewayCustomerID: r.PMCustomerID, GatewayCardID: r.PMCardID, PendingActivites: []string{},
		LastPayments: []SupportPay{}, Recent: json.RawMessage("[]")}
	if r.NextChargeDate != nil && r.Status != "discarded" {
		d := r.NextChargeDate.Format(time.DateOnly)
		s.NextChargeDate = &d
	}
	if r.Recurrence == 1 {
		if desc, err := h.d.Temporal.DescribeWorkflowExecution(ctx, wid, ""); err == nil && desc.WorkflowExecutionInfo != nil {
			info := desc.WorkflowExecutionInfo
			s.RunID = info.GetExecution().GetRunId()
			s.WorkflowStatus = strings.ToLower(strings.TrimPrefix(info.GetStatus().String(), "WORKFLOW_EXECUTION_STATUS_"))
			if s.WorkflowStatus == "" || s.WorkflowStatus == "unspecified" {
				s.WorkflowStatus = strings.ToLower(info.GetStatus().String())
			}
			s.TaskQueue = info.GetTaskQueue()
			if st := info.GetStartTime(); st != nil {
				t := st.AsTime()
				s.WorkflowStarted = &t
			}
			s.HistoryLength = info.GetHistoryLength()
			for _, a := range desc.GetPendingActivities() {
				line := a.GetActivityType().GetName() + " attempt " + strconv.Itoa(int(a.GetAttempt()))
				if f := a.GetLastFailure(); f != nil {
					line += ": " + f.GetMessage()
				}
				s.PendingActivites = append(s.PendingActivites, line)
			}
			if s.WorkflowStatus == "running" {
				if v, err := h.d.Temporal.QueryWorkflow(ctx, wid, "", collection.QueryState); err == nil {
					var st collection.State
					if v.Get(&st) == nil {
						s.NextPeriod = st.NextPeriod.String()
						s.MaxFailedPeriods, s.ChargedPeriods = st.MaxFailedPeriods, st.ChargedPeriods
						s.ConsecutiveFailedPeriods = st.ConsecutiveFailed
						if b, err := json.Marshal(st.Recent); err == nil && len(st.Recent) > 0 {
							s.Recent = b
						}
					}
				}
			}
		}
	}
	if s.MaxFailedPeriods == 0 {
		s.MaxFailedPeriods = collection.DefaultMaxFailedPeriods
	}
	rows, err := scope.Query(ctx, queries.Get("LastPayments"), scope.OrgID, r.ID)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	for rows.Next() {
		var p SupportPay
		var attempt int16
		if err := rows.Scan(&p.Period, &attempt, &p.Status, &p.StatusDetail, &p.PaymentID, &p.At); err != nil {
			rows.Close()
			apierror.Abort(c, err)
			return
		}
		p.Attempt = int(attempt)
		s.LastPayments = append(s.LastPayments, p)
	}
	rows.Close()
	c.JSON(http.StatusOK, s)
}

// UpgradeRequest is POST …/upgrades and PATCH …/upgrades/:id.
type UpgradeRequest struct {
	Percentage *Decimal `json:"percentage"` // 10 or "10.5": percent, two decimals at most
	Period     *int     `json:"period"`     // months: 1, 2, 3, 4, 6 or 12 (a year)
	Auto       *bool    `json:"auto"`       // default true
}

// Upgrade percentage bounds when the campaign sets none.
const (
	minUpgradeBP = 1      // 0.01%
	maxUpgradeBP = 10_000 // 100%
)

func (h *ManageHandler) upgradeBounds(c *gin.Context, r *row) (int64, int64) {
	var lo, hi *string
	_ = h.scopeQuery(c, r, &lo, &hi)
	min, max := int64(minUpgradeBP), int64(maxUpgradeBP)
	if lo != nil {
		if bp, ok := basisPoints(*lo); ok && bp > 0 {
			min = bp
		}
	}
	if hi != nil {
		if bp, ok := basisPoints(*hi); ok && bp > 0 {
			max = bp
		}
	}
	return min, max
}

func (h *ManageHandler) scopeQuery(c *gin.Context, r *row, lo, hi **string) error {
	scope, err := h.scope(c)
	if err != nil {
		return err
	}
	return scope.QueryRow(c.Request.Context(), `SELECT upgrade_min_percentage::text, upgrade_max_percentage::text
		FROM campaigns WHERE organization_id = $1 AND id = $2`, scope.OrgID, r.CampaignID).Scan(lo, hi)
}

// basisPoints parses a percentage ("10", "10.5", "10.25") into hundredths of a percent.
func basisPoints(s string) (int64, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	s = strings.ReplaceAll(s, ",", ".")
	rat, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, false
	}
	rat.Mul(rat, big.NewRat(100, 1))
	if !rat.IsInt() {
		return 0, false
	}
	return rat.Num().Int64(), true
}

func (h *ManageHandler) checkUpgrade(c *gin.Context, scope tenants.Scope, r *row, req UpgradeRequest, cur *UpgradeView) (collection.SetUpgradeRequest, bool) {
	out := collection.SetUpgradeRequest{Actor: actor(c), Auto: true}
	// Increases stop at the largest amount the campaign's form accepts.
	_, lim, err := h.limits(c.Request.Context(), scope, r)
	if err != nil {
		apierror.Abort(c, err)
		return out, false
	}
	out.MaxAmount = lim.Max
	if cur != nil {
		out.ID, out.Auto, out.PeriodMonths = cur.ID, cur.Auto, cur.PeriodMonths
		out.BasisPoints, _ = basisPoints(cur.Percentage)
	}
	fields := map[string]string{}
	var params []any
	if req.Percentage != nil {
		bp, ok := basisPoints(string(*req.Percentage))
		min, max := h.upgradeBounds(c, r)
		switch {
		case !ok:
			fields["percentage"] = "donation.upgrade_percentage_invalid"
		case bp < min || bp > max:
			fields["percentage"] = "donation.upgrade_percentage_range"
			params = []any{pct(min), pct(max)}
		default:
			out.BasisPoints = bp
		}
	} else if cur == nil {
		fields["percentage"] = "donation.required"
	}
	if req.Period != nil {
		if !containsInt(collection.UpgradePeriods, *req.Period) {
			fields["period"] = "donation.upgrade_period_invalid"
		} else {
			out.PeriodMonths = *req.Period
		}
	} else if cur == nil {
		fields["period"] = "donation.required"
	}
	if req.Auto != nil {
		out.Auto = *req.Auto
	}
	if len(fields) > 0 {
		e := apierror.Validation(fields)
		if fields["percentage"] == "donation.upgrade_percentage_range" {
			e = &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.upgrade_percentage_range", Params: params, Fields: fields}
		}
		apierror.Abort(c, e)
		return out, false
	}
	return out, true
}

func pct(bp int64) string {
	s := strconv.FormatFloat(float64(bp)/100, 'f', -1, 64)
	return s + "%"
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// AddUpgrade answers POST …/upgrades {percentage, period, auto?}: 201 with the detail.
func (h *ManageHandler) AddUpgrade(c *gin.Context) {
	scope, r, ok := h.loadOpen(c)
	if !ok {
		return
	}
	var req UpgradeRequest
	if !bind(c, &req) {
		return
	}
	d, err := detail(c.Request.Context(), scope, r.ID)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if d.Upgrade != nil {
		apierror.Abort(c, apierror.New(http.StatusConflict, "donation.upgrade_exists"))
		return
	}
	set, ok := h.checkUpgrade(c, scope, r, req, nil)
	if !ok {
		return
	}
	set.ID = uuid.NewString()
	if _, ok := h.update(c, scope, r, collection.UpdateSetUpgrade, set); !ok {
		return
	}
	h.respond(c, scope, r.ID, http.StatusCreated, nil)
}

// EditUpgrade answers PATCH …/upgrades/:id {percentage?, period?, auto?}.
func (h *ManageHandler) EditUpgrade(c *gin.Context) {
	scope, r, ok := h.loadOpen(c)
	if !ok {
		return
	}
	var req UpgradeRequest
	if !bind(c, &req) {
		return
	}
	cur, ok := h.upgradeOf(c, scope, r)
	if !ok {
		return
	}
	set, ok := h.checkUpgrade(c, scope, r, req, cur)
	if !ok {
		return
	}
	if _, ok := h.update(c, scope, r, collection.UpdateSetUpgrade, set); !ok {
		return
	}
	h.respond(c, scope, r.ID, http.StatusOK, nil)
}

// RemoveUpgrade answers DELETE …/upgrades/:id (kept in the history as removed).
func (h *ManageHandler) RemoveUpgrade(c *gin.Context) {
	scope, r, ok := h.loadOpen(c)
	if !ok {
		return
	}
	cur, ok := h.upgradeOf(c, scope, r)
	if !ok {
		return
	}
	if _, ok := h.update(c, scope, r, collection.UpdateRemoveUpgrade,
		collection.RemoveUpgradeRequest{Actor: actor(c), ID: cur.ID}); !ok {
		return
	}
	h.respond(c, scope, r.ID, http.StatusOK, nil)
}

// upgradeOf finds the donation's current upgrade named by :id (404 otherwise).
func (h *ManageHandler) upgradeOf(c *gin.Context, scope tenants.Scope, r *row) (*UpgradeView, bool) {
	id, ok := paramUUID(c, "id")
	if !ok {
		return nil, false
	}
	d, err := detail(c.Request.Context(), scope, r.ID)
	if err != nil {
		apierror.Abort(c, err)
		return nil, false
	}
	if d.Upgrade == nil || d.Upgrade.ID != id.String() {
		apierror.Abort(c, apierror.NotFound())
		return nil, false
	}
	return d.Upgrade, true
}
