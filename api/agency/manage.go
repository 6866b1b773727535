package agency

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// managed runs change on the agency's synced donation when Keto's Donation#manage allows it: the
// agent's management grant, a donation the agency acquired, on a campaign still authorised to it.
// Another agency's id is not found; a donation still waiting for its sync (or voided) is a conflict.
func (h *Handler) managed(ctx context.Context, r AcquisitionRequest, change func(scope tenants.Scope, donationID uuid.UUID) error) (*AcquisitionReply, error) {
	a, acq, err := h.own(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := h.check(ctx, identity.NamespaceDonation, acq.ID.String(), PermitManage); err != nil {
		return nil, err
	}
	if acq.Status != "synced" || acq.DonationID == nil {
		return nil, apierror.New(http.StatusConflict, "agency.not_synced")
	}
	if err := change(a.scope, *acq.DonationID); err != nil {
		return nil, err
	}
	if acq, err = a.scope.Store().Acquisition(ctx, sharddb.AcquisitionParams{OrganizationID: a.scope.OrgID, ID: acq.ID, AgencyID: &a.agency.ID}); err != nil {
		return nil, err
	}
	return &AcquisitionReply{Acquisition: acquisitionView(acq, "")}, nil
}

// CardRequest is POST /agency/api/acquisitions/:uuid/payment_method: the manage area's body (a
// card tokenised at the organisation's gateway, never card data), passed on as it came.
type CardRequest struct {
	AcquisitionRequest
	// Body is the whole body (UnmarshalJSON); its tag only tells endpoint.Handle that one comes.
	Body json.RawMessage `json:"body,omitempty"`
}

// UnmarshalJSON keeps the body for the manage area, which checks it.
func (r *CardRequest) UnmarshalJSON(b []byte) error {
	r.Body = append(json.RawMessage(nil), b...)
	return nil
}

func (h *Handler) changePaymentMethod(ctx context.Context, r *CardRequest) (*AcquisitionReply, error) {
	return h.managed(ctx, r.AcquisitionRequest, func(scope tenants.Scope, id uuid.UUID) error {
		return h.donations.ChangePaymentMethod(ctx, scope, id, r.Body)
	})
}

// ReasonRequest is POST …/pause and …/discard {reason}: the manage area's reasons.
type ReasonRequest struct {
	AcquisitionRequest
	Reason string `json:"reason"`
}

func (h *Handler) pause(ctx context.Context, r *ReasonRequest) (*AcquisitionReply, error) {
	return h.managed(ctx, r.AcquisitionRequest, func(scope tenants.Scope, id uuid.UUID) error { return h.donations.Pause(ctx, scope, id, r.Reason) })
}

func (h *Handler) discardDonation(ctx context.Context, r *ReasonRequest) (*AcquisitionReply, error) {
	return h.managed(ctx, r.AcquisitionRequest, func(scope tenants.Scope, id uuid.UUID) error { return h.donations.Discard(ctx, scope, id, r.Reason) })
}

func (h *Handler) restore(ctx context.Context, r *AcquisitionRequest) (*AcquisitionReply, error) {
	return h.managed(ctx, *r, func(scope tenants.Scope, id uuid.UUID) error { return h.donations.Restore(ctx, scope, id) })
}

// reasons is GET /agency/api/donation_reasons: the manage area's pause and discard reasons, as its
// dialogs (which the work area shares) take them.
func (h *Handler) reasons(ctx context.Context, _ *EmptyRequest) (*any, error) {
	r, err := h.donations.Reasons(ctx)
	if err != nil {
		return nil, err
	}
	return &r, nil
}
