package agency

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Cards is the organisation's active gateway account, as its public forms charge through
// (connections.Clients.ForOrganization with no gateway named), and that gateway's name.
type Cards func(ctx context.Context, orgID uuid.UUID, currency string) (gateway.Customers, string, error)

// Syncs starts a live acquisition's sync after its delay (agencysync.Client).
type Syncs interface {
	Start(ctx context.Context, orgID, acquisitionID uuid.UUID, delay time.Duration) error
}

// Donations changes a synced donation through the organisation's own change paths (the manage
// area's service: its checks, version history and collection workflow updates), as the signed-in
// agent, once Keto's Donation#manage allowed it here (donation.ForAgencies).
type Donations interface {
	ChangeAmount(ctx context.Context, scope tenants.Scope, donationID uuid.UUID, amount string) error
	// ChangePaymentMethod takes the manage area's payment_method body: a card tokenised at the gateway.
	ChangePaymentMethod(ctx context.Context, scope tenants.Scope, donationID uuid.UUID, body json.RawMessage) error
	Pause(ctx context.Context, scope tenants.Scope, donationID uuid.UUID, reason string) error
	Discard(ctx context.Context, scope tenants.Scope, donationID uuid.UUID, reason string) error
	Restore(ctx context.Context, scope tenants.Scope, donationID uuid.UUID) error
	// Reasons is the manage area's GET /manage/api/donation_reasons answer, in the request's language.
	Reasons(ctx context.Context) (any, error)
}

var (
	keyRe  = regexp.MustCompile(`^[A-Za-z0-9_.:-]{8,128}$`)
	binRe  = regexp.MustCompile(`^[0-9]{6,8}$`)
	lastRe = regexp.MustCompile(`^[0-9]{4}$`)
)

// CardIn is the card as the browser tokenised it at the gateway: the token and what may be shown.
type CardIn struct {
	Token      string `json:"token"`
	MethodID   string `json:"method_id"`
	BIN        string `json:"bin"`
	LastFour   string `json:"last_four"`
	ExpMonth   int    `json:"expiration_month"`
	ExpYear    int    `json:"expiration_year"`
	HolderName string `json:"cardholder_name"`
}

// DonorIn is the donor the agent signs up.
type DonorIn struct {
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	UIDType   string `json:"uid_type"`
	UIDNumber string `json:"uid_number"`
}

// AcquireRequest is POST /agency/api/acquisitions.
type AcquireRequest struct {
	Campaign       string  `json:"campaign"`
	Amount         string  `json:"amount"`
	Recurrence     int     `json:"recurrence"` // 1 monthly, 0 one-time
	Donor          DonorIn `json:"donor"`
	Card           CardIn  `json:"card"`
	IdempotencyKey string  `json:"idempotency_key"`
}

// Validate checks what needs no database.
func (r *AcquireRequest) Validate() error {
	d := &r.Donor
	d.Email = strings.ToLower(strings.TrimSpace(d.Email))
	d.FirstName, d.LastName = strings.TrimSpace(d.FirstName), strings.TrimSpace(d.LastName)
	d.UIDType, d.UIDNumber = strings.TrimSpace(d.UIDType), strings.TrimSpace(d.UIDNumber)
	f := map[string]string{}
	if a, err := mail.ParseAddress(d.Email); err != nil || a.Address != d.Email || len(d.Email) > 320 {
		f["donor.email"] = "agency.email_invalid"
	}
	for field, v := range map[string]string{"donor.first_name": d.FirstName, "donor.last_name": d.LastName} {
		if n := utf8.RuneCountInString(v); n < 2 || n > 100 {
			f[field] = "agency.donor_name_invalid"
		}
	}
	if len(d.UIDNumber) > 30 || len(d.UIDType) > 10 {
		f["donor.uid_number"] = "agency.uid_invalid"
	}
	if r.Recurrence != 0 && r.Recurrence != 1 {
		f["recurrence"] = "agency.recurrence_invalid"
	}
	c := &r.Card
	if c.Token == "" || len(c.Token) > 200 || !binRe.MatchString(c.BIN) || !lastRe.MatchString(c.LastFour) ||
		c.ExpMonth < 1 || c.ExpMonth > 12 || c.ExpYear < 2000 || c.ExpYear > 2100 || utf8.RuneCountInString(c.HolderName) > 100 {
		f["card"] = "agency.card_invalid"
	}
	if !keyRe.MatchString(r.IdempotencyKey) {
		f["idempotency_key"] = "agency.key_invalid"
	}
	return apierror.Invalid(f)
}

// Acquisition is one sign-up as the agency's list shows it.
type Acquisition struct {
	UUID       string       `json:"uuid"`
	Campaign   string       `json:"campaign"`
	Title      string       `json:"campaign_title,omitempty"`
	Mode       string       `json:"mode"`
	Status     string       `json:"status"` // practice | pending | synced | voided
	VoidReason string       `json:"void_reason,omitempty"`
	Amount     money.Amount `json:"amount"` // in the list, the synced donation's amount now
	Recurrence int          `json:"recurrence"`
	DonorName  string       `json:"donor_name"`
	DonorEmail string       `json:"donor_email"`
	LastFour   string       `json:"last_four"`
	SyncAt     *time.Time   `json:"sync_at"`
	CreatedAt  time.Time    `json:"created_at"`

	// DonationStatus is the synced donation's (active, paused, discarded…), which tells the
	// management actions that apply; only in the list.
	DonationStatus string `json:"donation_status,omitempty"`
}

func acquisitionView(a sharddb.AgencyAcquisition, title string) Acquisition {
	v := Acquisition{UUID: a.ID.String(), Campaign: a.CampaignID.String(), Title: title, Mode: a.Mode, Status: a.Status,
		Amount: money.New(a.AmountMinor, a.Currency), Recurrence: int(a.Recurrence), DonorName: a.FirstName + " " + a.LastName,
		DonorEmail: a.Email, LastFour: a.LastFour, SyncAt: a.SyncAt, CreatedAt: a.CreatedAt}
	if a.VoidReason != nil {
		v.VoidReason = *a.VoidReason
	}
	return v
}

// AcquisitionReply answers the calls on one acquisition.
type AcquisitionReply struct {
	Acquisition Acquisition `json:"acquisition"`
}

type createdAcquisition struct{ AcquisitionReply }

func (createdAcquisition) StatusCode() int { return http.StatusCreated }

// check asks Keto for a permit of the signed-in agent.
func (h *Handler) check(ctx context.Context, namespace, object, permit string) error {
	ok, err := h.keto.Check(ctx, namespace, object, permit, authz.CurrentUser(ctx).ID.String())
	if err != nil {
		return err
	}
	if !ok {
		return apierror.Forbidden()
	}
	return nil
}

// acquire is POST /agency/api/acquisitions: Keto's Campaign#acquire decides (the agency's
// authorised campaign and the agent's acquisition grant); the amount must be one the association
// offers, or any when it allows another amount. In sandbox mode nothing reaches the gateway.
func (h *Handler) acquire(ctx context.Context, r *AcquireRequest) (*createdAcquisition, error) {
	a, err := agentOf(ctx)
	if err != nil {
		return nil, err
	}
	campaignID, err := uuid.Parse(r.Campaign)
	if err != nil {
		return nil, apierror.Forbidden() // not a campaign the agency may acquire on
	}
	if err := h.check(ctx, identity.NamespaceCampaign, campaignID.String(), PermitAcquire); err != nil {
		return nil, err
	}
	q := a.scope.Store()
	if prev, err := q.AcquisitionByKey(ctx, sharddb.AcquisitionByKeyParams{OrganizationID: a.scope.OrgID, AgencyID: a.agency.ID,
		IdempotencyKey: r.IdempotencyKey}); err == nil {
		return h.replayed(ctx, a, prev)
	} else if !errors.Is(err, dberr.ErrNotFound) {
		return nil, err
	}
	rows, err := q.ListAgencyCampaigns(ctx, sharddb.ListAgencyCampaignsParams{OrganizationID: a.scope.OrgID, AgencyID: a.agency.ID, CampaignID: &campaignID})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 || !rows[0].Published {
		return nil, apierror.Forbidden()
	}
	c := rows[0]
	amount, err := money.Parse(r.Amount, c.Currency)
	switch {
	case err != nil || amount.Minor <= 0:
		return nil, apierror.Validation(map[string]string{"amount": "agency.amount_invalid"})
	case !c.AllowOtherAmount && !slices.Contains(c.Amounts, amount.Minor):
		return nil, apierror.Validation(map[string]string{"amount": "agency.amount_not_offered"})
	case r.Recurrence == 0 && !c.AllowOneTime:
		return nil, apierror.Validation(map[string]string{"recurrence": "agency.one_time_not_allowed"})
	}
	row := sharddb.InsertAcquisitionParams{OrganizationID: a.scope.OrgID, ID: uuid.New(), AgencyID: a.agency.ID, CampaignID: c.CampaignID,
		AgentID: a.member.UserID, Mode: a.agency.Mode, Status: "practice", AmountMinor: amount.Minor, Currency: c.Currency,
		Recurrence: int16(r.Recurrence), Email: r.Donor.Email, FirstName: r.Donor.FirstName, LastName: r.Donor.LastName,
		UidType: optional(r.Donor.UIDType), UidNumber: optional(r.Donor.UIDNumber), Brand: r.Card.MethodID, Bin: r.Card.BIN,
		LastFour: r.Card.LastFour, ExpiryMonth: int16(r.Card.ExpMonth), ExpiryYear: int16(r.Card.ExpYear), HolderName: r.Card.HolderName,
		SyncDelay: a.agency.SyncDelay, IdempotencyKey: r.IdempotencyKey}
	if a.agency.Mode == "live" {
		if err := h.saveCard(ctx, a, &row, r); err != nil {
			return nil, err
		}
		at := time.Now().Add(time.Duration(a.agency.SyncDelay) * time.Second)
		row.Status, row.SyncAt = "pending", &at
	}
	saved, err := q.InsertAcquisition(ctx, row)
	if errors.Is(err, dberr.ErrNotFound) { // a concurrent twin with the same key won
		saved, err = q.AcquisitionByKey(ctx, sharddb.AcquisitionByKeyParams{OrganizationID: a.scope.OrgID, AgencyID: a.agency.ID, IdempotencyKey: r.IdempotencyKey})
	}
	if err != nil {
		return nil, err
	}
	return h.replayed(ctx, a, saved)
}

// replayed finishes (or repeats) what follows a stored acquisition: its Keto relations and, in
// live mode, its sync. Both are idempotent, so a retried submission completes a failed first one.
func (h *Handler) replayed(ctx context.Context, a agent, acq sharddb.AgencyAcquisition) (*createdAcquisition, error) {
	id := acq.ID.String()
	if err := h.keto.Relate(ctx, identity.NamespaceDonation, id, identity.RelationAgencies, identity.NamespaceAgency, acq.AgencyID.String()); err != nil {
		return nil, err
	}
	if err := h.keto.Relate(ctx, identity.NamespaceDonation, id, identity.RelationAgents, identity.NamespaceUser, acq.AgentID.String()); err != nil {
		return nil, err
	}
	if err := h.keto.Relate(ctx, identity.NamespaceDonation, id, identity.RelationCampaigns, identity.NamespaceCampaign, acq.CampaignID.String()); err != nil {
		return nil, err
	}
	if acq.Mode == "live" {
		if err := h.syncs.Start(ctx, a.scope.OrgID, acq.ID, time.Duration(acq.SyncDelay)*time.Second); err != nil {
			return nil, err
		}
	}
	return &createdAcquisition{AcquisitionReply{Acquisition: acquisitionView(acq, "")}}, nil
}

// saveCard attaches the tokenised card to the donor's customer at the organisation's gateway now:
// the browser's token is single-use and would not outlive the delay.
func (h *Handler) saveCard(ctx context.Context, a agent, row *sharddb.InsertAcquisitionParams, r *AcquireRequest) error {
	gw, name, err := h.cards(ctx, a.scope.OrgID, row.Currency)
	if errors.Is(err, connections.ErrNotConnected) {
		return apierror.New(http.StatusConflict, "agency.not_accepting")
	}
	if err != nil {
		return err
	}
	row.Gateway = &name
	cust, err := gw.EnsureCustomer(ctx, gateway.Customer{Email: r.Donor.Email, FirstName: r.Donor.FirstName, LastName: r.Donor.LastName,
		IDType: r.Donor.UIDType, IDNumber: r.Donor.UIDNumber})
	if err != nil {
		return cardError(err)
	}
	card, err := gw.SaveCard(ctx, cust.ID, r.Card.Token)
	if err != nil {
		return cardError(err)
	}
	row.CustomerID, row.CardID = &cust.ID, &card.ID
	if card.PaymentMethodID != "" {
		row.Brand = card.PaymentMethodID
	}
	return nil
}

func cardError(err error) error {
	var g *gateway.Error
	if errors.As(err, &g) && g.Status < 500 {
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "agency.card_refused", Err: err}
	}
	return &apierror.Error{Status: http.StatusBadGateway, Code: "agency.gateway_unavailable", Err: err}
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Acquisitions is GET /agency/api/acquisitions: the agency's own sign-ups, newest first.
type Acquisitions struct {
	Acquisitions []Acquisition `json:"acquisitions"`
}

func (h *Handler) acquisitions(ctx context.Context, _ *EmptyRequest) (*Acquisitions, error) {
	a, err := agentOf(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := a.scope.Store().ListAcquisitions(ctx, sharddb.ListAcquisitionsParams{OrganizationID: a.scope.OrgID, AgencyID: a.agency.ID})
	if err != nil {
		return nil, err
	}
	out := &Acquisitions{Acquisitions: make([]Acquisition, len(rows))}
	for i, r := range rows {
		out.Acquisitions[i] = acquisitionView(r.AgencyAcquisition, r.CampaignTitle)
		out.Acquisitions[i].DonationStatus = r.DonationStatus
		out.Acquisitions[i].Amount = money.New(r.AmountNow, r.AgencyAcquisition.Currency)
	}
	return out, nil
}

// AcquisitionRequest names one of the agency's acquisitions.
type AcquisitionRequest struct {
	UUID string `path:"uuid" json:"-"`
}

// own reads the agency's acquisition: another agency's (or organisation's) id is unknown.
func (h *Handler) own(ctx context.Context, r AcquisitionRequest) (agent, sharddb.AgencyAcquisition, error) {
	a, err := agentOf(ctx)
	if err != nil {
		return a, sharddb.AgencyAcquisition{}, err
	}
	id, err := uuid.Parse(r.UUID)
	if err != nil {
		return a, sharddb.AgencyAcquisition{}, apierror.NotFound()
	}
	acq, err := a.scope.Store().Acquisition(ctx, sharddb.AcquisitionParams{OrganizationID: a.scope.OrgID, ID: id, AgencyID: &a.agency.ID})
	return a, acq, err
}

// AmountRequest is PATCH /agency/api/acquisitions/:uuid {amount}.
type AmountRequest struct {
	AcquisitionRequest
	Amount string `json:"amount"`
}

// changeAmount corrects a pending acquisition (Donation#correct: its agent or a supervisor) or
// changes a synced donation's amount (Donation#manage: the organisation's management grant),
// through the organisation's own change path.
func (h *Handler) changeAmount(ctx context.Context, r *AmountRequest) (*AcquisitionReply, error) {
	a, acq, err := h.own(ctx, r.AcquisitionRequest)
	if err != nil {
		return nil, err
	}
	switch acq.Status {
	case "pending", "practice":
		if err := h.check(ctx, identity.NamespaceDonation, acq.ID.String(), PermitCorrect); err != nil {
			return nil, err
		}
		m, err := money.Parse(r.Amount, acq.Currency)
		if err != nil || m.Minor <= 0 {
			return nil, apierror.Validation(map[string]string{"amount": "agency.amount_invalid"})
		}
		acq, err = a.scope.Store().CorrectAcquisition(ctx, sharddb.CorrectAcquisitionParams{OrganizationID: a.scope.OrgID,
			AgencyID: a.agency.ID, ID: acq.ID, AmountMinor: m.Minor})
		if errors.Is(err, dberr.ErrNotFound) {
			return nil, apierror.New(http.StatusConflict, "agency.already_synced")
		}
		if err != nil {
			return nil, err
		}
	case "synced":
		if _, err := h.managed(ctx, r.AcquisitionRequest, func(scope tenants.Scope, id uuid.UUID) error {
			return h.donations.ChangeAmount(ctx, scope, id, r.Amount)
		}); err != nil {
			return nil, err
		}
	default:
		return nil, apierror.New(http.StatusConflict, "agency.voided")
	}
	return &AcquisitionReply{Acquisition: acquisitionView(acq, "")}, nil
}

// void is POST /agency/api/acquisitions/:uuid/void: quality control on the street, while the
// acquisition waits for its sync (Donation#correct).
func (h *Handler) void(ctx context.Context, r *AcquisitionRequest) (*AcquisitionReply, error) {
	a, acq, err := h.own(ctx, *r)
	if err != nil {
		return nil, err
	}
	if err := h.check(ctx, identity.NamespaceDonation, acq.ID.String(), PermitCorrect); err != nil {
		return nil, err
	}
	reason := "agency"
	acq, err = a.scope.Store().VoidAcquisition(ctx, sharddb.VoidAcquisitionParams{OrganizationID: a.scope.OrgID, ID: acq.ID, VoidReason: &reason})
	if errors.Is(err, dberr.ErrNotFound) {
		return nil, apierror.New(http.StatusConflict, "agency.not_pending")
	}
	if err != nil {
		return nil, err
	}
	return &AcquisitionReply{Acquisition: acquisitionView(acq, "")}, nil
}
