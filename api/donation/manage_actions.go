package donation

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/history"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
)

// DonorPatch is PATCH …/donor: every field optional; a field sent replaces the stored one.
type DonorPatch struct {
	DonationRequest
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
func (s *ManageService) PatchDonor(ctx context.Context, scope tenants.Scope, p *DonorPatch) (*Detail, error) {
	r, err := s.load(ctx, scope, p.ID)
	if err != nil {
		return nil, err
	}
	after, fields := p.apply(r.Donor)
	if len(fields) > 0 {
		return nil, apierror.Validation(fields)
	}
	if err := saveDonor(ctx, scope, r, after); err != nil {
		return nil, err
	}
	return s.detail(ctx, scope, r.ID)
}

// apply is the donor with the patch's fields, checked; fields names each refused one.
func (p *DonorPatch) apply(before DonorView) (after DonorView, fields map[string]string) {
	after, fields = before, map[string]string{}
	set := func(name string, in *string, out *string, check func(string) (string, string)) {
		if in == nil {
			return
		}
		if v, code := check(*in); code != "" {
			fields[name] = code
		} else {
			*out = v
		}
	}
	set("first_name", p.FirstName, &after.FirstName, donorText(true, 100))
	set("last_name", p.LastName, &after.LastName, donorText(true, 100))
	set("street", p.Street, &after.Street, donorText(false, 200))
	set("city", p.City, &after.City, donorText(false, 100))
	set("state", p.State, &after.State, donorText(false, 100))
	set("zipcode", p.Zipcode, &after.Zipcode, donorText(false, 20))
	set("phone", p.Phone, &after.Phone, donorPhone)
	set("cellphone", p.Cellphone, &after.Cellphone, donorPhone)
	set("email", p.Email, &after.Email, donorEmail)
	set("uid_type", p.UIDType, &after.UIDType, donorOption(allDocumentTypes, ""))
	// The number is checked for the type the patch leaves.
	set("uid_number", p.UIDNumber, &after.UIDNumber, func(v string) (string, string) {
		digits, code := documentNumber(after.UIDType, v)
		if strings.TrimSpace(v) == "" {
			code = ""
		}
		return digits, code
	})
	set("country", p.Country, &after.Country, donorCountry)
	set("gender", p.Gender, &after.Gender, donorOption(genders, "unknown"))
	return after, fields
}

// donorText checks a trimmed text of at most max characters.
func donorText(required bool, max int) func(string) (string, string) {
	return func(v string) (string, string) {
		v = strings.TrimSpace(v)
		switch {
		case required && v == "":
			return v, "donation.required"
		case utf8.RuneCountInString(v) > max:
			return v, "donation.too_long"
		}
		return v, ""
	}
}

// donorPhone checks an optional phone number.
func donorPhone(v string) (string, string) {
	v = strings.TrimSpace(v)
	if v != "" && !validPhone(v) {
		return v, "donation.phone_invalid"
	}
	return v, ""
}

// donorEmail checks a required e-mail address.
func donorEmail(v string) (string, string) {
	if e, ok := campaign.NormalizeEmail(v); ok {
		return e, ""
	}
	if strings.TrimSpace(v) == "" {
		return v, "donation.required"
	}
	return v, "donation.email_invalid"
}

// donorOption checks one of options; empty is allowed, as empty or as blank.
func donorOption(options []string, blank string) func(string) (string, string) {
	return func(v string) (string, string) {
		v = strings.TrimSpace(v)
		if v == "" {
			v = blank
		}
		if v != "" && !slices.Contains(options, v) {
			return v, "donation.invalid_option"
		}
		return v, ""
	}
}

// donorCountry checks an optional ISO country code.
func donorCountry(v string) (string, string) {
	v = strings.ToUpper(strings.TrimSpace(v))
	if v != "" && (len(v) != 2 || strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "") {
		return v, "donation.invalid_option"
	}
	return v, ""
}

// saveDonor writes the donor's changed record and the donation's version of the change, together.
func saveDonor(ctx context.Context, scope tenants.Scope, r *row, after DonorView) error {
	changedBefore, changedAfter := donorDiff(r.Donor, after)
	if len(changedAfter) == 0 {
		return nil
	}
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		if err := q.UpdateDonor(ctx, sharddb.UpdateDonorParams{OrganizationID: scope.OrgID, ID: r.Donor.UUID,
			FirstName: after.FirstName, LastName: after.LastName, Email: after.Email, Phone: after.Phone,
			Cellphone: after.Cellphone, UidType: after.UIDType, UidNumber: after.UIDNumber, Street: after.Street,
			City: after.City, State: after.State, Country: after.Country, Zipcode: after.Zipcode, Gender: after.Gender}); err != nil {
			return err
		}
		if err := crmlink.Enqueue(ctx, q, scope.OrgID, crmlink.Donor, r.Donor.UUID); err != nil {
			return err
		}
		return history.Record(ctx, q, scope.OrgID, history.Version{DonationID: r.ID, Actor: actor(ctx), Field: "donor",
			Before: changedBefore, After: changedAfter})
	})
	if dberr.IsConflict(err, "") {
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.donor_email_taken",
			Fields: map[string]string{"email": "donation.donor_email_taken"}, Err: err}
	}
	return err
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
	// Gateway is {name, token, …extras}: the tokeniser's extra info (version, device profile id,
	// created_at, public_key) may sit beside name and token or under "extras".
	Gateway            map[string]any `json:"gateway"`
	MethodID           string         `json:"method_id"`
	BIN                string         `json:"bin"`
	LastFour           string         `json:"last_four"`
	ExpirationMonth    int            `json:"expiration_month"`
	ExpirationYear     int            `json:"expiration_year"`
	CCExpiration       string         `json:"cc_expiration"` // "MM / YY", instead of month and year
	CardholderName     string         `json:"cardholder_name"`
	CardholderIDType   string         `json:"cardholder_id_type"`
	CardholderIDNumber string         `json:"cardholder_id_number"`
	DonorIsCardholder  *bool          `json:"donor_is_cardholder"`
}

// CardChangeRequest is a donation's new card.
type CardChangeRequest struct {
	DonationRequest
	PaymentMethodRequest
}

// PaymentMethod changes the donation's card: the token is saved at the gateway for the donor's
// customer, as the public form does, the card is stored (token and display data only), and the
// workflow switches to it.
func (s *ManageService) PaymentMethod(ctx context.Context, scope tenants.Scope, req *CardChangeRequest) (*Detail, error) {
	r, err := s.loadOpen(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	// Refuse early what the workflow would refuse, before saving a card at the gateway.
	if r.Recurrence != 1 || r.Status == "pending" || r.Status == "rejected" {
		return nil, apierror.New(http.StatusConflict, "donation.not_monthly")
	}
	org, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	cd, fields := checkCard(req.PaymentMethodRequest, cardholder{r.Donor.FirstName, r.Donor.LastName, r.Donor.UIDType, r.Donor.UIDNumber},
		documentTypes[org.Country], time.Now(), "")
	if len(fields) > 0 {
		return nil, apierror.Validation(fields)
	}
	pm, err := s.saveCard(ctx, scope, r, cd)
	if err != nil {
		return nil, err
	}
	// The donor's own new card retries a declined period at once (the manage area's waits for the
	// retry schedule, as before).
	_, byDonor := portalDonor(ctx)
	if _, err := s.update(ctx, scope, r, collection.UpdateChangeMethod, collection.ChangePaymentMethodRequest{
		Actor: actor(ctx), PaymentMethod: pm, RetryDue: byDonor}); err != nil {
		return nil, err
	}
	return s.detail(ctx, scope, r.ID)
}

// saveCard saves the card at the gateway for the donation's donor and stores it.
func (s *ManageService) saveCard(ctx context.Context, scope tenants.Scope, r *row, cd CardData) (collection.PaymentMethod, error) {
	gw, gwName, err := s.d.Gateways.For(ctx, scope.OrgID, r.CampaignID, r.Currency)
	if err != nil {
		return collection.PaymentMethod{}, err
	}
	cust, err := cardCustomer(ctx, gw, cd, Donor{FirstName: r.Donor.FirstName, LastName: r.Donor.LastName, Email: r.Donor.Email})
	var notAllowed *CardNotAllowedError
	if errors.As(err, &notAllowed) {
		return collection.PaymentMethod{}, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.card_not_allowed",
			Fields: map[string]string{"method_id": "donation.card_type_refused"}, Err: err}
	}
	if err != nil {
		return collection.PaymentMethod{}, gatewayError(err)
	}
	saved, err := gw.SaveCard(ctx, cust.ID, cd.Token)
	if err != nil {
		return collection.PaymentMethod{}, gatewayError(err)
	}
	brand := firstNonEmpty(saved.PaymentMethodID, cd.MethodID)
	// The new card at the global processor that retries the campaign's declines, as the public form
	// saves it: the donation's retries then charge it, not the old card's copy there.
	retried := retryCard(ctx, s.d.Retries, s.d.Log, scope, r.CampaignID, r.Currency, gwName, r.Donor.Email, cd)
	// The public form's statement: one card upsert for both.
	var pmID uuid.UUID
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		id, err := q.UpsertPaymentMethod(ctx, sharddb.UpsertPaymentMethodParams{OrganizationID: scope.OrgID, ID: uuid.New(),
			DonorID: r.Donor.UUID, Gateway: gwName, CustomerID: cust.ID, CardID: saved.ID, Brand: brand, Bin: cd.BIN,
			LastFour: cd.LastFour, ExpiryMonth: int16(cd.ExpMonth), ExpiryYear: int16(cd.ExpYear), HolderName: cd.HolderName,
			HolderIDType: &cd.HolderIDType, HolderIDNumber: &cd.HolderIDNumber, DonorIsCardholder: cd.DonorIsCardholder})
		pmID = id
		if err != nil {
			return err
		}
		return saveProcessorCard(ctx, q, scope.OrgID, id, retried)
	})
	if err != nil {
		return collection.PaymentMethod{}, err
	}
	return collection.PaymentMethod{ID: pmID.String(), Gateway: gwName, CustomerID: cust.ID, CardID: saved.ID, Brand: brand, BIN: cd.BIN,
		LastFour: cd.LastFour, ExpiryMonth: cd.ExpMonth, ExpiryYear: cd.ExpYear, HolderName: cd.HolderName}, nil
}

// cardCustomer is the public form's card check and customer, which a card change repeats: the
// gateway account must take the card's brand (checkBrand: "Tarjeta no permitida" otherwise), and
// the donor is the gateway customer the card is saved for.
func cardCustomer(ctx context.Context, gw Gateway, cd CardData, d Donor) (gateway.Customer, error) {
	if err := checkBrand(ctx, gw, cd.BIN, cd.MethodID); err != nil {
		return gateway.Customer{}, err
	}
	return gw.EnsureCustomer(ctx, gateway.Customer{Email: d.Email, FirstName: d.FirstName, LastName: d.LastName,
		IDType: cd.HolderIDType, IDNumber: cd.HolderIDNumber})
}

// gatewayError is a gateway's refusal as the donor's message, anything else as a failed change.
func gatewayError(err error) error {
	var gerr *gateway.Error
	if errors.As(err, &gerr) && gerr.Status < 500 {
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: causeCode(gerr.Key), Err: err}
	}
	return &apierror.Error{Status: http.StatusBadGateway, Code: "donation.change_failed", Err: err}
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

// VersionsRequest is GET …/versions?page=&per_page=.
type VersionsRequest struct {
	DonationRequest
	Paging
}

// VersionsPage is a page of a donation's history, newest first.
type VersionsPage struct {
	Versions []VersionView `json:"versions"`
	Total    int           `json:"total"`
	Page     int           `json:"page"`
	PerPage  int           `json:"per_page"`
}

// Versions answers GET …/versions?page=&per_page= (newest first).
func (s *ManageService) Versions(ctx context.Context, scope tenants.Scope, req *VersionsRequest) (*VersionsPage, error) {
	page, per, err := req.Paging.parse()
	if err != nil {
		return nil, err
	}
	r, err := s.load(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	rows, err := scope.Store().DonationVersionsPage(ctx, sharddb.DonationVersionsPageParams{OrganizationID: scope.OrgID,
		DonationID: r.ID, PerPage: int32(per), Skip: int32((page - 1) * per)})
	if err != nil {
		return nil, err
	}
	out := &VersionsPage{Versions: make([]VersionView, len(rows)), Total: int(r.VersionsCount), Page: page, PerPage: per}
	for i, v := range rows {
		out.Versions[i] = VersionView{UUID: v.ID.String(), Actor: v.Actor, ActorType: actorType(v.Actor), Field: v.Field,
			Before: rawOrNull(v.Before), After: rawOrNull(v.After), At: v.CreatedAt}
	}
	return out, nil
}

// actorType tells a user's change from the workflow's own and the API's.
func actorType(actor string) string {
	switch _, err := uuid.Parse(actor); {
	case err == nil:
		return "user"
	case actor == collection.ActorSystem:
		return "system"
	case strings.HasPrefix(actor, collection.ActorDonorPrefix):
		return "donor"
	}
	return "api"
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
func (s *ManageService) Support(ctx context.Context, scope tenants.Scope, req *DonationRequest) (*SupportView, error) {
	r, err := s.load(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	v := &SupportView{DonationUUID: r.ID.String(), WorkflowID: collection.WorkflowID(r.ID.String()), WorkflowStatus: "not_found",
		Status: r.Status, PausedReason: r.PausedReason, ConsecutiveFailedPeriods: int(r.ConsecutiveFailedPeriods),
		Gateway: r.PmGateway, GatewayCustomerID: r.PmCustomerID, GatewayCardID: r.PmCardID, PendingActivites: []string{},
		Recent: json.RawMessage("[]"), NextChargeDate: chargeDate(r.NextChargeDate, r.Status)}
	if r.Recurrence == 1 {
		s.describeWorkflow(ctx, v)
	}
	if v.MaxFailedPeriods == 0 {
		v.MaxFailedPeriods = collection.DefaultMaxFailedPeriods
	}
	pays, err := scope.Store().DonationLastPayments(ctx, sharddb.DonationLastPaymentsParams{OrganizationID: scope.OrgID, DonationID: r.ID})
	if err != nil {
		return nil, err
	}
	v.LastPayments = make([]SupportPay, len(pays))
	for i, p := range pays {
		v.LastPayments[i] = SupportPay{Period: p.Period, Attempt: int(p.Attempt), Status: p.Status, StatusDetail: p.StatusDetail,
			PaymentID: p.PaymentID, At: p.At}
	}
	return v, nil
}

// describeWorkflow adds what Temporal knows of the donation's collection workflow, as far as it answers.
func (s *ManageService) describeWorkflow(ctx context.Context, v *SupportView) {
	desc, err := s.d.Temporal.DescribeWorkflowExecution(ctx, v.WorkflowID, "")
	if err != nil || desc.WorkflowExecutionInfo == nil {
		return
	}
	info := desc.WorkflowExecutionInfo
	v.RunID = info.GetExecution().GetRunId()
	v.WorkflowStatus = strings.ToLower(strings.TrimPrefix(info.GetStatus().String(), "WORKFLOW_EXECUTION_STATUS_"))
	if v.WorkflowStatus == "" || v.WorkflowStatus == "unspecified" {
		v.WorkflowStatus = strings.ToLower(info.GetStatus().String())
	}
	v.TaskQueue = info.GetTaskQueue()
	if st := info.GetStartTime(); st != nil {
		t := st.AsTime()
		v.WorkflowStarted = &t
	}
	v.HistoryLength = info.GetHistoryLength()
	for _, a := range desc.GetPendingActivities() {
		line := a.GetActivityType().GetName() + " attempt " + strconv.Itoa(int(a.GetAttempt()))
		if f := a.GetLastFailure(); f != nil {
			line += ": " + f.GetMessage()
		}
		v.PendingActivites = append(v.PendingActivites, line)
	}
	if v.WorkflowStatus != "running" {
		return
	}
	if st, err := s.state(ctx, uuid.MustParse(v.DonationUUID)); err == nil {
		v.NextPeriod = st.NextPeriod.String()
		v.MaxFailedPeriods, v.ChargedPeriods = st.MaxFailedPeriods, st.ChargedPeriods
		v.ConsecutiveFailedPeriods = st.ConsecutiveFailed
		if b, err := json.Marshal(st.Recent); err == nil && len(st.Recent) > 0 {
			v.Recent = b
		}
	}
}

// UpgradeRequest is POST …/upgrades and PATCH …/upgrades/:id.
type UpgradeRequest struct {
	DonationRequest
	Percentage *Decimal `json:"percentage"` // 10 or "10.5": percent, two decimals at most
	Period     *int     `json:"period"`     // months: 1, 2, 3, 4, 6 or 12 (a year)
	Auto       *bool    `json:"auto"`       // default true
}

// UpgradeChange is PATCH …/upgrades/:id.
type UpgradeChange struct {
	UpgradeRequest
	UpgradeID uuid.UUID `path:"id" json:"-"`
}

// UpgradeRemoval is DELETE …/upgrades/:id.
type UpgradeRemoval struct {
	DonationRequest
	UpgradeID uuid.UUID `path:"id" json:"-"`
}

// Upgrade percentage bounds when the campaign sets none.
const (
	minUpgradeBP = 1      // 0.01%
	maxUpgradeBP = 10_000 // 100%
)

// upgradeBounds are the campaign's percentage bounds, in basis points.
func upgradeBounds(ctx context.Context, scope tenants.Scope, r *row) (int64, int64) {
	lo, hi := int64(minUpgradeBP), int64(maxUpgradeBP)
	b, err := scope.Store().CampaignUpgradeBounds(ctx, sharddb.CampaignUpgradeBoundsParams{OrganizationID: scope.OrgID, ID: r.CampaignID})
	if err != nil {
		return lo, hi
	}
	if bp, ok := basisPoints(b.MinPercentage); ok && bp > 0 {
		lo = bp
	}
	if bp, ok := basisPoints(b.MaxPercentage); ok && bp > 0 {
		hi = bp
	}
	return lo, hi
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

// checkUpgrade is the workflow's upgrade from the request and the current upgrade (nil for a new one).
func (s *ManageService) checkUpgrade(ctx context.Context, scope tenants.Scope, r *row, req *UpgradeRequest, cur *UpgradeView) (collection.SetUpgradeRequest, error) {
	out := collection.SetUpgradeRequest{Actor: actor(ctx), Auto: true}
	// Increases stop at the largest amount the campaign's form accepts.
	_, lim, err := s.limits(ctx, scope, r)
	if err != nil {
		return out, err
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
		lo, hi := upgradeBounds(ctx, scope, r)
		switch {
		case !ok:
			fields["percentage"] = "donation.upgrade_percentage_invalid"
		case bp < lo || bp > hi:
			fields["percentage"] = "donation.upgrade_percentage_range"
			params = []any{pct(lo), pct(hi)}
		default:
			out.BasisPoints = bp
		}
	} else if cur == nil {
		fields["percentage"] = "donation.required"
	}
	if req.Period != nil {
		if !slices.Contains(collection.UpgradePeriods, *req.Period) {
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
	switch {
	case params != nil:
		return out, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.upgrade_percentage_range", Params: params, Fields: fields}
	case len(fields) > 0:
		return out, apierror.Validation(fields)
	}
	return out, nil
}

func pct(bp int64) string {
	s := strconv.FormatFloat(float64(bp)/100, 'f', -1, 64)
	return s + "%"
}

// AddUpgrade answers POST …/upgrades {percentage, period, auto?}: 201 with the detail.
func (s *ManageService) AddUpgrade(ctx context.Context, scope tenants.Scope, req *UpgradeRequest) (*Detail, error) {
	r, err := s.loadOpen(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	d, err := detail(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	if d.Upgrade != nil {
		return nil, apierror.New(http.StatusConflict, "donation.upgrade_exists")
	}
	set, err := s.checkUpgrade(ctx, scope, r, req, nil)
	if err != nil {
		return nil, err
	}
	set.ID = uuid.NewString()
	if _, err := s.update(ctx, scope, r, collection.UpdateSetUpgrade, set); err != nil {
		return nil, err
	}
	out, err := s.detail(ctx, scope, r.ID)
	if out != nil {
		out.status = http.StatusCreated
	}
	return out, err
}

// EditUpgrade answers PATCH …/upgrades/:id {percentage?, period?, auto?}.
func (s *ManageService) EditUpgrade(ctx context.Context, scope tenants.Scope, req *UpgradeChange) (*Detail, error) {
	r, cur, err := s.loadUpgrade(ctx, scope, req.ID, req.UpgradeID)
	if err != nil {
		return nil, err
	}
	set, err := s.checkUpgrade(ctx, scope, r, &req.UpgradeRequest, cur)
	if err != nil {
		return nil, err
	}
	if _, err := s.update(ctx, scope, r, collection.UpdateSetUpgrade, set); err != nil {
		return nil, err
	}
	return s.detail(ctx, scope, r.ID)
}

// RemoveUpgrade answers DELETE …/upgrades/:id (kept in the history as removed).
func (s *ManageService) RemoveUpgrade(ctx context.Context, scope tenants.Scope, req *UpgradeRemoval) (*Detail, error) {
	r, cur, err := s.loadUpgrade(ctx, scope, req.ID, req.UpgradeID)
	if err != nil {
		return nil, err
	}
	if _, err := s.update(ctx, scope, r, collection.UpdateRemoveUpgrade,
		collection.RemoveUpgradeRequest{Actor: actor(ctx), ID: cur.ID}); err != nil {
		return nil, err
	}
	return s.detail(ctx, scope, r.ID)
}

// loadUpgrade loads an open donation and its current upgrade, which id must name (404 otherwise).
func (s *ManageService) loadUpgrade(ctx context.Context, scope tenants.Scope, donationID, id uuid.UUID) (*row, *UpgradeView, error) {
	r, err := s.loadOpen(ctx, scope, donationID)
	if err != nil {
		return nil, nil, err
	}
	d, err := detail(ctx, scope, r.ID)
	if err != nil {
		return nil, nil, err
	}
	if d.Upgrade == nil || d.Upgrade.ID != id.String() {
		return nil, nil, apierror.NotFound()
	}
	return r, d.Upgrade, nil
}
