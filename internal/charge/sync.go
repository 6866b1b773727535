package charge

import (
	"context"
	"errors"
	"slices"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// PaymentReader reads one payment by the gateway's id.
type PaymentReader interface {
	Payment(ctx context.Context, id string) (gateway.Payment, error)
}

// GivenBack reports whether a status is an approved charge's money going back: its receipt is annulled.
func GivenBack(s gateway.Status) bool {
	return s == gateway.StatusRefunded || s == gateway.StatusChargedBack
}

// laterStatuses are the changes a gateway may make to a settled payment: a refund, a chargeback, a
// dispute and its end. An undecided charge is not settled here but by whoever charged it (the
// first-charge guard, collection), which also moves the donation.
var laterStatuses = map[gateway.Status][]gateway.Status{
	gateway.StatusApproved:    {gateway.StatusRefunded, gateway.StatusChargedBack, gateway.StatusInMediation},
	gateway.StatusInMediation: {gateway.StatusApproved, gateway.StatusRefunded, gateway.StatusChargedBack},
}

// Sync brings the transaction a gateway payment settled up to what the gateway says of the payment
// now, read back with the organisation's own account (a notification names only the payment, and
// its body is never trusted). It reports whether the transaction changed; a payment that is not one
// of the organisation's transactions, or a change that does not follow from its status, changes
// nothing. Calling it again changes nothing more.
func Sync(ctx context.Context, scope tenants.Scope, g PaymentReader, paymentID string) (bool, error) {
	p, err := g.Payment(ctx, paymentID)
	if errors.Is(err, gateway.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	row, err := scope.Store().TransactionByGatewayPayment(ctx, sharddb.TransactionByGatewayPaymentParams{
		OrganizationID: scope.OrgID, GatewayPaymentID: p.ID})
	if errors.Is(err, dberr.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	o := OutcomeOf(p)
	if !slices.Contains(laterStatuses[gateway.Status(row.Status)], o.Status) {
		return false, nil
	}
	t := Transaction{OrgID: scope.OrgID, ID: row.ID, DonationID: row.DonationID, Attempt: int(row.Attempt),
		Amount: row.AmountMinor, Currency: row.Currency}
	if row.Period != nil {
		t.Period = *row.Period
	}
	return true, Record(ctx, scope, t, o)
}
