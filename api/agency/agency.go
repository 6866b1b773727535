// Package agency is the organisation's external teams (agencies, spec organisation-and-account §2,
// §3, §4, §6, §7): the organisation side creates agencies, authorises campaigns for them and
// manages their people; the agency side (work.go) is where those people sign donors up.
//
// Who may do what is Keto's answer (identity/namespaces.keto.ts): the organisation side needs the
// organisation's manage_agencies permit and the agency's administer permit, the agency side the
// agency's work, acquire and manage_donors permits and the campaign's and donation's permits that
// traverse to them. Go only reads rows scoped by organisation (an id of another organisation's
// agency is unknown here) and keeps the relations Keto decides on in step with them.
package agency

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Modes and the sync delays an agency may have (§4 Mode).
var (
	Modes      = []string{"sandbox", "live"}
	SyncDelays = []int32{0, 60, 300, 600, 1800, 3600, 7200}
)

// Agency is one agency as the organisation's pages show it.
type Agency struct {
	UUID        string     `json:"uuid"`
	Name        string     `json:"agency_name"`
	Mode        string     `json:"mode"`
	SyncDelay   int32      `json:"sync_delay"`
	CreatedAt   time.Time  `json:"created_at"`
	DiscardedAt *time.Time `json:"discarded_at"`
}

func agencyView(a sharddb.Agency) Agency {
	return Agency{UUID: a.ID.String(), Name: a.Name, Mode: a.Mode, SyncDelay: a.SyncDelay, CreatedAt: a.CreatedAt, DiscardedAt: a.DiscardedAt}
}

// Campaign is an authorised campaign with how the agency's form offers it.
type Campaign struct {
	UUID             string         `json:"uuid"`
	Title            string         `json:"title"`
	Currency         string         `json:"currency"`
	Published        bool           `json:"published"`
	AllowOneTime     bool           `json:"allow_one_time"`
	AllowOtherAmount bool           `json:"allow_other_amount"`
	Amounts          []money.Amount `json:"amounts"`
}

func campaignView(r sharddb.ListAgencyCampaignsRow) Campaign {
	c := Campaign{UUID: r.CampaignID.String(), Title: r.Title, Currency: r.Currency, Published: r.Published,
		AllowOneTime: r.AllowOneTime, AllowOtherAmount: r.AllowOtherAmount, Amounts: make([]money.Amount, len(r.Amounts))}
	for i, a := range r.Amounts {
		c.Amounts[i] = money.New(a, r.Currency)
	}
	return c
}

// AgencyRequest names an agency by its token (uuid); anything else is an unknown agency.
type AgencyRequest struct {
	Token string `path:"token" json:"-"`
}

func (r AgencyRequest) id() (uuid.UUID, error) {
	id, err := uuid.Parse(r.Token)
	if err != nil {
		return uuid.Nil, apierror.NotFound()
	}
	return id, nil
}

// administered reads the organisation's agency (404 for another organisation's or an unknown id)
// and asks Keto whether the user administers it.
func (h *Handler) administered(ctx context.Context, r AgencyRequest) (tenants.Scope, sharddb.Agency, error) {
	id, err := r.id()
	if err != nil {
		return tenants.Scope{}, sharddb.Agency{}, err
	}
	scope, err := authz.Scope(ctx)
	if err != nil {
		return scope, sharddb.Agency{}, err
	}
	a, err := scope.Store().Agency(ctx, sharddb.AgencyParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return scope, a, err
	}
	ok, err := h.keto.Check(ctx, identity.NamespaceAgency, a.ID.String(), PermitAdminister, authz.CurrentUser(ctx).ID.String())
	if err != nil {
		return scope, a, err
	}
	if !ok {
		return scope, a, apierror.Forbidden()
	}
	return scope, a, nil
}

// live refuses changes to a discarded agency.
func live(a sharddb.Agency) error {
	if a.DiscardedAt != nil {
		return apierror.New(http.StatusConflict, "agency.discarded")
	}
	return nil
}

// ListRequest filters agencies by status (default active: the spec's list filters discarded_at null).
type ListRequest struct {
	Status string `query:"status" json:"-"`
}

// Validate accepts active, discarded and all.
func (r *ListRequest) Validate() error {
	switch r.Status {
	case "", "active":
		r.Status = "active"
	case "all":
		r.Status = ""
	case "discarded":
	default:
		return apierror.Validation(map[string]string{"status": "agency.status_invalid"})
	}
	return nil
}

// List is GET /manage/api/agencies.
type List struct {
	Agencies []Agency `json:"agencies"`
}

func (h *Handler) list(ctx context.Context, scope tenants.Scope, r *ListRequest) (*List, error) {
	rows, err := scope.Store().ListAgencies(ctx, sharddb.ListAgenciesParams{OrganizationID: scope.OrgID, Status: r.Status})
	if err != nil {
		return nil, err
	}
	out := &List{Agencies: make([]Agency, len(rows))}
	for i, a := range rows {
		out.Agencies[i] = agencyView(a)
	}
	return out, nil
}

// Settings is the body of creating and editing an agency ({"account": {…}}, §7).
type Settings struct {
	Account struct {
		Name      string `json:"agency_name"`
		Mode      string `json:"mode"`
		SyncDelay *int32 `json:"sync_delay"`
	} `json:"account"`
}

// Validate trims and checks the settings.
func (s *Settings) Validate() error {
	a := &s.Account
	a.Name = strings.TrimSpace(a.Name)
	fields := map[string]string{}
	switch n := utf8.RuneCountInString(a.Name); {
	case n == 0:
		fields["agency_name"] = "agency.name_required"
	case n < 3:
		fields["agency_name"] = "agency.name_min_length"
	case n > 120:
		fields["agency_name"] = "agency.name_too_long"
	}
	if !slices.Contains(Modes, a.Mode) {
		fields["mode"] = "agency.mode_invalid"
	}
	if a.SyncDelay == nil || !slices.Contains(SyncDelays, *a.SyncDelay) {
		fields["sync_delay"] = "agency.sync_delay_invalid"
	}
	return apierror.Invalid(fields)
}

// One is the answer of the calls on one agency: its settings, campaigns and people.
type One struct {
	Agency    Agency     `json:"agency"`
	Campaigns []Campaign `json:"campaigns"`
	Users     []User     `json:"users"`
}

type createdOne struct{ One }

func (createdOne) StatusCode() int { return http.StatusCreated }

// create is POST /manage/api/agencies: the agency row, then its Keto link to the organisation
// (the row is removed again if Keto refuses, so a retry starts clean).
func (h *Handler) create(ctx context.Context, scope tenants.Scope, s *Settings) (*createdOne, error) {
	a, err := scope.Store().InsertAgency(ctx, sharddb.InsertAgencyParams{OrganizationID: scope.OrgID, ID: uuid.New(),
		Name: s.Account.Name, Mode: s.Account.Mode, SyncDelay: *s.Account.SyncDelay})
	if err != nil {
		return nil, err
	}
	if err := h.keto.Relate(ctx, identity.NamespaceAgency, a.ID.String(), identity.RelationOrganizations,
		identity.NamespaceOrganization, scope.OrgID.String()); err != nil {
		if _, derr := scope.Store().DiscardAgency(context.WithoutCancel(ctx), sharddb.DiscardAgencyParams{OrganizationID: scope.OrgID, ID: a.ID}); derr != nil {
			return nil, fmt.Errorf("%w (and discarding the unlinked agency: %v)", err, derr)
		}
		return nil, err
	}
	return &createdOne{One{Agency: agencyView(a), Campaigns: []Campaign{}, Users: []User{}}}, nil
}

// show is GET /manage/api/agencies/:token.
func (h *Handler) show(ctx context.Context, r *AgencyRequest) (*One, error) {
	scope, a, err := h.administered(ctx, *r)
	if err != nil {
		return nil, err
	}
	return h.one(ctx, scope, a)
}

func (h *Handler) one(ctx context.Context, scope tenants.Scope, a sharddb.Agency) (*One, error) {
	rows, err := scope.Store().ListAgencyCampaigns(ctx, sharddb.ListAgencyCampaignsParams{OrganizationID: scope.OrgID, AgencyID: a.ID})
	if err != nil {
		return nil, err
	}
	out := &One{Agency: agencyView(a), Campaigns: make([]Campaign, len(rows))}
	for i, r := range rows {
		out.Campaigns[i] = campaignView(r)
	}
	out.Users, err = h.people(ctx, scope.OrgID, a.ID)
	return out, err
}

// UpdateRequest is PATCH /manage/api/agencies/:token.
type UpdateRequest struct {
	AgencyRequest
	Settings
}

// update changes name, mode and sync delay; a new delay applies to acquisitions made from now on
// (each acquisition keeps the delay it was made with).
func (h *Handler) update(ctx context.Context, r *UpdateRequest) (*One, error) {
	scope, a, err := h.administered(ctx, r.AgencyRequest)
	if err != nil {
		return nil, err
	}
	if err := live(a); err != nil {
		return nil, err
	}
	a, err = scope.Store().UpdateAgency(ctx, sharddb.UpdateAgencyParams{OrganizationID: scope.OrgID, ID: a.ID,
		Name: r.Account.Name, Mode: r.Account.Mode, SyncDelay: *r.Account.SyncDelay})
	if err != nil {
		return nil, err
	}
	return h.one(ctx, scope, a)
}

// discard is DELETE /manage/api/agencies/:token: the agency and all its people are discarded, their
// Keto relations deleted and every session of theirs closed at once (§4). Pending live
// acquisitions are voided by their workflows when they wake (see workflows/agencysync).
func (h *Handler) discard(ctx context.Context, r *AgencyRequest) (*One, error) {
	scope, a, err := h.administered(ctx, *r)
	if err != nil {
		return nil, err
	}
	a, err = scope.Store().DiscardAgency(ctx, sharddb.DiscardAgencyParams{OrganizationID: scope.OrgID, ID: a.ID})
	if err != nil {
		return nil, err
	}
	if _, err := h.directory().DiscardAgencyMembers(ctx, dirdb.DiscardAgencyMembersParams{OrganizationID: scope.OrgID, AgencyID: a.ID}); err != nil {
		return nil, err
	}
	for _, rel := range peopleRelations {
		if err := h.keto.RevokeAll(ctx, identity.NamespaceAgency, a.ID.String(), rel); err != nil {
			return nil, err
		}
	}
	// Everyone discarded with the agency (a retry finds them again) is signed out.
	members, err := h.directory().ListAgencyMembers(ctx, dirdb.ListAgencyMembersParams{OrganizationID: scope.OrgID, AgencyID: a.ID})
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		if m.DiscardedAt == nil || m.DiscardedAt.Before(*a.DiscardedAt) {
			continue
		}
		if err := h.kratos.RevokeSessions(ctx, m.UserID); err != nil {
			return nil, err
		}
	}
	return h.one(ctx, scope, a)
}
