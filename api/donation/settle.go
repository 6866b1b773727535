package donation

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/firstcharge"
)

// FirstChargeGuard makes sure a donation's first charge gets settled even if the donor's request
// does not finish (workflows/firstcharge). It is started before the charge, in the step that
// stores the donation, so a process that dies after charging loses nothing.
type FirstChargeGuard interface {
	GuardFirstCharge(ctx context.Context, orgID, donationID uuid.UUID) error
}

// FirstChargeStarter starts the firstcharge workflow; starting it again is a no-op.
type FirstChargeStarter struct{ Temporal client.Client }

// GuardFirstCharge implements FirstChargeGuard.
func (s FirstChargeStarter) GuardFirstCharge(ctx context.Context, orgID, donationID uuid.UUID) error {
	return firstcharge.Start(ctx, s.Temporal, firstcharge.Input{OrganizationID: orgID.String(), DonationID: donationID.String()})
}

// SettleFirstCharge is the firstcharge workflow's activity: it reads a pending first charge back
// from the gateway (by its external reference, never charging) and records what it finds, as the
// donor's request would have: the transaction, the donation's status, the monthly collection and
// the thank-you e-mail. It reports whether the first charge is settled. On the final check a
// charge the gateway never received is recorded as cancelled and the donation as rejected.
func (s *Service) SettleFirstCharge(ctx context.Context, req firstcharge.SettleRequest) (bool, error) {
	// Input that cannot become valid by retrying fails the activity at once.
	orgID, err := uuid.Parse(req.OrganizationID)
	if err != nil {
		return false, temporal.NewNonRetryableApplicationError("organization id", "invalid_input", err)
	}
	donationID, err := uuid.Parse(req.DonationID)
	if err != nil {
		return false, temporal.NewNonRetryableApplicationError("donation id", "invalid_input", err)
	}
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if errors.Is(err, tenants.ErrUnknownOrganization) {
		return false, temporal.NewNonRetryableApplicationError("unknown organization", "not_found", err)
	}
	if err != nil {
		return false, err
	}
	var d stored
	var day *int16
	var email, country, timezone string
	cp := &campaign.Campaign{}
	if err := scope.QueryRow(ctx, queries.Get("FirstChargeToSettle"), orgID, donationID).Scan(&d.id, &d.status, &d.recurrence,
		&d.amount, &d.currency, &day, &d.donorID, &d.firstName, &d.campaignID, &d.pmID, &d.idemKey, &email,
		&cp.Title, &cp.Slug, &cp.Thanks.Instant, &cp.Thanks.EmailSubject, &cp.Thanks.Email, &country, &timezone); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return false, temporal.NewNonRetryableApplicationError("donation not found", "not_found", err)
		}
		return false, fmt.Errorf("donation %s: %w", donationID, err)
	}
	d.setCollectDay(day)
	first, err := firstTransaction(ctx, scope, d)
	if err != nil {
		return false, err
	}
	if d.status != "pending" || (first.status != "pending" && first.status != "in_process") {
		return true, nil
	}
	gw, _, err := s.gateways.For(ctx, orgID, d.currency)
	if err != nil {
		return false, err
	}
	payments, err := gw.FindPayments(ctx, first.ref)
	if err != nil {
		return false, err
	}
	final := len(payments) > 0 && payments[0].Status != gateway.StatusPending && payments[0].Status != gateway.StatusInProcess
	switch {
	case final:
	case len(payments) == 0 && req.Final:
		// Never reached the gateway: the donor was told it failed, and nothing was charged.
		if err := scope.Exec(ctx, queries.Get("SettleTransaction"), orgID, first.id, "cancelled", nil, "not_charged"); err != nil {
			return false, err
		}
		return true, scope.Exec(ctx, queries.Get("SettleDonation"), orgID, d.id, "rejected", nil)
	default:
		return false, nil // still pending at the gateway, or not there yet
	}
	loc, err := time.LoadLocation(timezone)
	if err != nil {
		loc = time.UTC
	}
	out := Outcome{DonationID: d.id, Recurrency: d.recurrence, AmountMinor: d.amount, Currency: d.currency,
		FirstName: d.firstName, Form: campaign.Form{Campaign: cp, Scope: scope}}
	out, err = s.record(ctx, scope, d, out, first.id, payments[0], s.now().In(loc))
	if err != nil {
		return false, err
	}
	s.sendThanks(ctx, i18n.ForCountry(country), out, email)
	return true, nil
}
