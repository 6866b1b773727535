package agency

import (
	"context"
	"errors"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// AgencyHeader picks one of the agencies a person works for; without it, the first one.
const AgencyHeader = "X-Agency-Id"

// agent is the signed-in person's agency, resolved once per request by requireAgent.
type agent struct {
	scope  tenants.Scope
	agency sharddb.Agency
	member dirdb.AgencyMember
}

type agentKey struct{}

func agentOf(ctx context.Context) (agent, error) {
	a, ok := ctx.Value(agentKey{}).(agent)
	if !ok {
		return a, errors.New("agency: route mounted without requireAgent")
	}
	return a, nil
}

// mountWork mounts the agency's work area on /agency/api:
//
//	GET   /me                             the agency, its authorised campaigns and the person's permits
//	GET   /acquisitions                   the agency's sign-ups, newest first
//	POST  /acquisitions                   {campaign, amount, recurrence, donor, card, idempotency_key} → 201
//	PATCH /acquisitions/:uuid             {amount}: correct while pending, or change the synced donation's
//	POST  /acquisitions/:uuid/void        void while pending
//
// and, on a synced donation with Keto's Donation#manage (the management grant, the agency's donation,
// its campaign still authorised), the manage area's changes (manage.go):
//
//	POST  /acquisitions/:uuid/payment_method   the manage area's card body
//	POST  /acquisitions/:uuid/pause            {reason}: cancel
//	POST  /acquisitions/:uuid/discard          {reason}
//	POST  /acquisitions/:uuid/restore          reactivate the donor's donation
//	GET   /donation_reasons                    the pause and discard reasons those offer
func (h *Handler) mountWork(w *gin.RouterGroup) {
	w.Use(h.requireAgent())
	w.GET("/me", endpoint.Handle(h.me))
	w.GET("/acquisitions", endpoint.Handle(h.acquisitions))
	w.POST("/acquisitions", endpoint.Handle(h.acquire))
	w.PATCH("/acquisitions/:uuid", endpoint.Handle(h.changeAmount))
	w.POST("/acquisitions/:uuid/void", endpoint.Handle(h.void))
	w.POST("/acquisitions/:uuid/payment_method", endpoint.Handle(h.changePaymentMethod))
	w.POST("/acquisitions/:uuid/pause", endpoint.Handle(h.pause))
	w.POST("/acquisitions/:uuid/discard", endpoint.Handle(h.discardDonation))
	w.POST("/acquisitions/:uuid/restore", endpoint.Handle(h.restore))
	w.GET("/donation_reasons", endpoint.Handle(h.reasons))
}

// requireAgent lets through a person Keto says works for their (not discarded) agency, and puts
// the agency and its organisation's shard in the request's context.
func (h *Handler) requireAgent() gin.HandlerFunc {
	return func(c *gin.Context) {
		a, err := h.resolveAgent(c)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		c.Request = c.Request.WithContext(tenants.WithScope(context.WithValue(c.Request.Context(), agentKey{}, a), a.scope))
		c.Next()
	}
}

func (h *Handler) resolveAgent(c *gin.Context) (agent, error) {
	ctx := c.Request.Context()
	u := authz.User(c)
	ms, err := h.directory().AgenciesOfUser(ctx, u.ID)
	if err != nil {
		return agent{}, err
	}
	var a agent
	want := c.GetHeader(AgencyHeader)
	for _, m := range ms {
		if want == "" || m.AgencyID.String() == want {
			a.member = m
			break
		}
	}
	if a.member.UserID != u.ID {
		return a, apierror.Forbidden()
	}
	if a.scope, err = h.tenants.ForOrganization(ctx, a.member.OrganizationID); err != nil {
		return a, err
	}
	if a.agency, err = a.scope.Store().Agency(ctx, sharddb.AgencyParams{OrganizationID: a.scope.OrgID, ID: a.member.AgencyID}); err != nil {
		return a, err
	}
	ok, err := h.keto.Check(ctx, identity.NamespaceAgency, a.agency.ID.String(), PermitWork, u.ID.String())
	switch {
	case err != nil:
		return a, err
	case !ok || a.agency.DiscardedAt != nil:
		return a, apierror.Forbidden()
	}
	return a, nil
}

// Me is the work area's start: who, for which agency, what they may do, on which campaigns.
type Me struct {
	Agency      Agency     `json:"agency"`
	Role        string     `json:"role"`
	Permissions []string   `json:"permissions"` // acquire, manage_donors, supervise: Keto's answers
	Campaigns   []Campaign `json:"campaigns"`
	// Gateway is where the acquisition form tokenises the donor's card (live mode only).
	Gateway Tokenizer `json:"gateway"`
}

// Tokenizer is the organisation's active gateway as the public form's checkout names it: the
// gateway, its browser-facing tokeniser and the organisation's public key.
type Tokenizer struct {
	Name         string `json:"name"`
	TokenizerURL string `json:"tokenizer_url"`
	PublicKey    string `json:"public_key"`
}

// EmptyRequest is a call without parameters.
type EmptyRequest struct{}

func (h *Handler) me(ctx context.Context, _ *EmptyRequest) (*Me, error) {
	a, err := agentOf(ctx)
	if err != nil {
		return nil, err
	}
	out := &Me{Agency: agencyView(a.agency), Role: a.member.Role, Permissions: []string{}}
	for _, p := range []string{PermitAcquire, PermitManageDonors, PermitSupervise} {
		ok, err := h.keto.Check(ctx, identity.NamespaceAgency, a.agency.ID.String(), p, a.member.UserID.String())
		if err != nil {
			return nil, err
		}
		if ok {
			out.Permissions = append(out.Permissions, p)
		}
	}
	if a.agency.Mode == "live" {
		conn, err := h.conns.ActiveConnection(ctx, a.scope, "")
		switch {
		case err == nil:
			out.Gateway = Tokenizer{Name: conn.Gateway, TokenizerURL: h.tokenizers[conn.Gateway], PublicKey: conn.PublicKey}
		case !errors.Is(err, connections.ErrNotConnected): // not connected: no tokeniser, the form says so on submit
			return nil, err
		}
	}
	rows, err := a.scope.Store().ListAgencyCampaigns(ctx, sharddb.ListAgencyCampaignsParams{OrganizationID: a.scope.OrgID, AgencyID: a.agency.ID})
	if err != nil {
		return nil, err
	}
	out.Campaigns = make([]Campaign, 0, len(rows))
	for _, r := range rows {
		if r.Published {
			out.Campaigns = append(out.Campaigns, campaignView(r))
		}
	}
	return out, nil
}
