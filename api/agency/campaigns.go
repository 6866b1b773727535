package agency

import (
	"context"
	"strconv"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// MaxAmounts bounds an association's available amounts (the agency form's buttons).
const MaxAmounts = 8

// CampaignRequest names an agency and one of the organisation's campaigns.
type CampaignRequest struct {
	AgencyRequest
	Campaign string `path:"uuid" json:"-"`
}

func (r CampaignRequest) campaignID() (uuid.UUID, error) {
	id, err := uuid.Parse(r.Campaign)
	if err != nil {
		return uuid.Nil, apierror.NotFound()
	}
	return id, nil
}

// AssociationRequest is POST and PUT /manage/api/agencies/:token/campaigns/:uuid: the agency
// association form (allow one-time, allow other amount, available amounts as decimal strings).
type AssociationRequest struct {
	CampaignRequest
	AllowOneTime     bool     `json:"allow_one_time"`
	AllowOtherAmount bool     `json:"allow_other_amount"`
	Amounts          []string `json:"amounts"`
}

// Validate checks what can be checked without the campaign's currency.
func (r *AssociationRequest) Validate() error {
	switch {
	case len(r.Amounts) > MaxAmounts:
		return apierror.Validation(map[string]string{"amounts": "agency.amounts_too_many"})
	case len(r.Amounts) == 0 && !r.AllowOtherAmount:
		return apierror.Validation(map[string]string{"amounts": "agency.amounts_required"})
	}
	return nil
}

// associate authorises the campaign for the agency (or changes how it is offered) and relates it
// to the agency in Keto, which is what lets the agency's people acquire on it.
func (h *Handler) associate(ctx context.Context, r *AssociationRequest) (*One, error) {
	scope, a, err := h.administered(ctx, r.AgencyRequest)
	if err != nil {
		return nil, err
	}
	if err := live(a); err != nil {
		return nil, err
	}
	cid, err := r.campaignID()
	if err != nil {
		return nil, err
	}
	found, err := scope.Store().CampaignsForAgencies(ctx, sharddb.CampaignsForAgenciesParams{OrganizationID: scope.OrgID, ID: &cid})
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, apierror.NotFound() // another organisation's campaign is as unknown as a made-up one
	}
	c := found[0]
	amounts := make([]int64, 0, len(r.Amounts))
	fields := map[string]string{}
	for i, s := range r.Amounts {
		m, err := money.Parse(s, c.Currency)
		if err != nil || m.Minor <= 0 {
			fields["amounts."+strconv.Itoa(i)] = "agency.amount_invalid"
			continue
		}
		amounts = append(amounts, m.Minor)
	}
	if len(fields) > 0 {
		return nil, apierror.Validation(fields)
	}
	if _, err := scope.Store().UpsertAgencyCampaign(ctx, sharddb.UpsertAgencyCampaignParams{OrganizationID: scope.OrgID,
		AgencyID: a.ID, CampaignID: c.ID, AllowOneTime: r.AllowOneTime, AllowOtherAmount: r.AllowOtherAmount, Amounts: amounts}); err != nil {
		return nil, err
	}
	if err := h.keto.Relate(ctx, identity.NamespaceCampaign, c.ID.String(), identity.RelationAgencies, identity.NamespaceAgency, a.ID.String()); err != nil {
		return nil, err
	}
	return h.one(ctx, scope, a)
}

// dissociate is DELETE /manage/api/agencies/:token/campaigns/:uuid: the agency signs nobody else up
// on the campaign (the donors it acquired there stay its own).
func (h *Handler) dissociate(ctx context.Context, r *CampaignRequest) (*One, error) {
	scope, a, err := h.administered(ctx, r.AgencyRequest)
	if err != nil {
		return nil, err
	}
	cid, err := r.campaignID()
	if err != nil {
		return nil, err
	}
	// Keto first: once the relation is gone nobody acquires on it, whatever happens to the row.
	if err := h.keto.Unrelate(ctx, identity.NamespaceCampaign, cid.String(), identity.RelationAgencies, identity.NamespaceAgency, a.ID.String()); err != nil {
		return nil, err
	}
	if _, err := scope.Store().DeleteAgencyCampaign(ctx, sharddb.DeleteAgencyCampaignParams{OrganizationID: scope.OrgID, AgencyID: a.ID, CampaignID: cid}); err != nil {
		return nil, err
	}
	return h.one(ctx, scope, a)
}

// Authorisable is one of the organisation's campaigns the association form offers.
type Authorisable struct {
	UUID      string `json:"uuid"`
	Title     string `json:"title"`
	Currency  string `json:"currency"`
	Published bool   `json:"published"`
}

// Authorisables is GET /manage/api/agencies/campaigns.
type Authorisables struct {
	Campaigns []Authorisable `json:"campaigns"`
}

// authorisable lists the campaigns an agency can be authorised on: agency administrators see them
// here, without the organisation's view permit.
func (h *Handler) authorisable(ctx context.Context, scope tenants.Scope, _ *EmptyRequest) (*Authorisables, error) {
	rows, err := scope.Store().CampaignsForAgencies(ctx, sharddb.CampaignsForAgenciesParams{OrganizationID: scope.OrgID})
	if err != nil {
		return nil, err
	}
	out := &Authorisables{Campaigns: make([]Authorisable, len(rows))}
	for i, r := range rows {
		out.Campaigns[i] = Authorisable{UUID: r.ID.String(), Title: r.Title, Currency: r.Currency, Published: r.Published}
	}
	return out, nil
}
