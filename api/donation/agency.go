package donation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/tenants"
)

// ForAgencies is the manage service as an agency's work area changes the donations it acquired
// (api/agency.Donations), after its own Keto check: the same checks, version history and
// collection workflow updates as the manage area, with the agent as the actor.
type ForAgencies struct{ S *ManageService }

// ChangeAmount is PATCH …/donations/:uuid {amount}.
func (a ForAgencies) ChangeAmount(ctx context.Context, scope tenants.Scope, id uuid.UUID, amount string) error {
	d := Decimal(amount)
	_, err := a.S.Patch(ctx, scope, &PatchRequest{DonationRequest: DonationRequest{ID: id}, Amount: &d})
	return err
}

// ChangePaymentMethod is POST …/donations/:uuid/payment_method with the same body.
func (a ForAgencies) ChangePaymentMethod(ctx context.Context, scope tenants.Scope, id uuid.UUID, body json.RawMessage) error {
	req := CardChangeRequest{DonationRequest: DonationRequest{ID: id}}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields() // as the manage area's own route decodes it
	if err := dec.Decode(&req.PaymentMethodRequest); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return apierror.Validation(map[string]string{typeErr.Field: "wrong_type"})
		}
		return apierror.BadRequest("malformed_json")
	}
	_, err := a.S.PaymentMethod(ctx, scope, &req)
	return err
}

// Pause is POST …/donations/:uuid/pause {reason}.
func (a ForAgencies) Pause(ctx context.Context, scope tenants.Scope, id uuid.UUID, reason string) error {
	_, err := a.S.Pause(ctx, scope, &ReasonRequest{DonationRequest: DonationRequest{ID: id}, Reason: reason})
	return err
}

// Discard is POST …/donations/:uuid/discard {reason}.
func (a ForAgencies) Discard(ctx context.Context, scope tenants.Scope, id uuid.UUID, reason string) error {
	_, err := a.S.Discard(ctx, scope, &ReasonRequest{DonationRequest: DonationRequest{ID: id}, Reason: reason})
	return err
}

// Restore is POST …/donations/:uuid/restore.
func (a ForAgencies) Restore(ctx context.Context, scope tenants.Scope, id uuid.UUID) error {
	_, err := a.S.Restore(ctx, scope, &DonationRequest{ID: id})
	return err
}

// Reasons is GET /manage/api/donation_reasons's answer.
func (a ForAgencies) Reasons(ctx context.Context) (any, error) { return a.S.Reasons(ctx, nil) }
