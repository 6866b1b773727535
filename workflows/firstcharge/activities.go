package firstcharge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/thanks"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// Thanker e-mails a donor's thank-you once per donation (thanks.Mailer).
type Thanker interface {
	Send(ctx context.Context, lang i18n.Lang, d thanks.Donation)
}

// Activities settle first charges.
type Activities struct {
	Tenants  orgscope.Organizations
	Gateways charge.Gateways
	Settler  Settler
	Thanks   Thanker // nil: no thank-you e-mails
	Now      func() time.Time
}

// Register adds the workflow and its activities to a worker on TaskQueue.
func Register(w worker.Registry, a *Activities) {
	w.RegisterWorkflow(Workflow)
	w.RegisterActivity(a)
}

// SettleFirstCharge reads a pending first charge back from the gateway (by its external
// reference, never charging) and records what it finds as the donor's request would have: the
// transaction, the donation's status, the monthly collection and the thank-you e-mail. It reports
// whether the first charge is settled. On the final check a charge the gateway never received is
// recorded as cancelled and the donation as rejected.
func (a *Activities) SettleFirstCharge(ctx context.Context, req SettleRequest) (bool, error) {
	// Input that cannot become valid by retrying fails the activity at once.
	scope, donationID, err := orgscope.Row(ctx, a.Tenants, req.OrganizationID, "donation id", req.DonationID)
	if err != nil {
		return false, err
	}
	orgID := scope.OrgID
	row, err := scope.Store().FirstChargeDonation(ctx, sharddb.FirstChargeDonationParams{OrganizationID: orgID, ID: donationID})
	if errors.Is(err, dberr.ErrNotFound) {
		return false, temporal.NewNonRetryableApplicationError("donation not found", "not_found", err)
	}
	if err != nil {
		return false, fmt.Errorf("donation %s: %w", donationID, err)
	}
	d := Donation{OrgID: orgID, ID: donationID, Recurrence: int(row.Recurrence), Amount: row.AmountMinor, Currency: row.Currency,
		CollectDay: collectday.FromColumn(row.CollectDay)}
	first, err := FirstOf(ctx, scope, d)
	if err != nil {
		return false, err
	}
	if row.Status != "pending" || first.Settled() {
		return true, a.followUp(ctx, scope, d, row, first)
	}
	g, err := a.Gateways.Gateway(ctx, orgID, row.Gateway, d.Currency) // where the donation's card is saved
	if err == nil {
		g, err = charge.Routed(ctx, scope, g, donationID, d.Currency) // and where its route charged it
	}
	if err != nil {
		return false, err
	}
	p, found, err := charge.Find(ctx, g, first.Key().Reference)
	if err != nil {
		return false, err
	}
	o := charge.OutcomeFrom(g, p)
	switch {
	case found && p.Status != gateway.StatusPending && p.Status != gateway.StatusInProcess:
	case !found && req.Final:
		// Never reached the gateway: the donor was told it failed, and nothing was charged.
		o = charge.Outcome{Status: gateway.StatusCancelled, Detail: "not_charged"}
	default:
		return false, nil // still pending at the gateway, or not there yet
	}
	settled, err := a.Settler.Settle(ctx, scope, d, first, o, a.today(row.Timezone))
	if err != nil {
		return false, err
	}
	if settled == StatusApproved {
		a.thank(ctx, d, row)
	}
	return true, nil
}

// followUp does what follows a first charge its writer settled, which a writer that died before it left undone
// (each step is done once however often asked): an approved charge's receipt and thank-you e-mails and a monthly
// donation's collection; a planned one's donation activated, thanked and collected.
func (a *Activities) followUp(ctx context.Context, scope tenants.Scope, d Donation, row sharddb.FirstChargeDonationRow, first First) error {
	switch {
	case first.Status == string(gateway.StatusPlanned) && row.Status == "pending":
		if err := a.Settler.activate(ctx, scope, d, a.today(row.Timezone)); err != nil { // starts its collection
			return err
		}
		a.thank(ctx, d, row)
		return nil
	case first.Status == string(gateway.StatusApproved):
		if err := a.Settler.Receipts.Send(ctx, scope, receipt.Charge{DonationID: d.ID,
			TransactionID: charge.FirstTransactionID(d.ID)}); err != nil {
			return fmt.Errorf("receipt e-mail: %w", err)
		}
	case first.Status != string(gateway.StatusPlanned):
		return nil
	}
	a.thank(ctx, d, row)
	if d.Recurrence == 1 && row.Status == "active" {
		a.Settler.StartCollection(ctx, scope.OrgID, d.ID)
	}
	return nil
}

// today is the date in the organisation's timezone tz (UTC when it does not parse).
func (a *Activities) today(tz string) time.Time {
	loc, err := time.LoadLocation(tz)
	if err != nil {
		loc = time.UTC
	}
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	return now().In(loc)
}

// thank e-mails the donor of a donation whose first charge is approved their thank-you, in their
// country's language.
func (a *Activities) thank(ctx context.Context, d Donation, row sharddb.FirstChargeDonationRow) {
	if a.Thanks == nil {
		return
	}
	a.Thanks.Send(ctx, i18n.ForCountry(row.Country), thanks.Donation{OrgID: d.OrgID, ID: d.ID, Recurrence: d.Recurrence,
		Amount: d.Amount, Currency: d.Currency, FirstName: row.FirstName, Email: row.Email,
		Campaign: thanks.Campaign{Title: row.Title, Slug: row.Slug, Instant: row.ThanksInstant,
			EmailSubject: row.ThanksEmailSubject, Email: row.ThanksEmail}})
}
