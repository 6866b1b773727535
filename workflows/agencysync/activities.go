package agencysync

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/newdonation"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/firstcharge"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// Activities sync acquisitions.
type Activities struct {
	Tenants  orgscope.Organizations
	Gateways charge.Gateways
	// Settler charges the first transaction as the public form does, and starts monthly collection.
	Settler firstcharge.Settler
	Now     func() time.Time
}

// Register adds the workflow and its activities to a worker on TaskQueue.
func Register(w worker.Registry, a *Activities) {
	w.RegisterWorkflow(Workflow)
	w.RegisterActivity(a)
}

// Sync makes the pending acquisition the organisation's donation (donor, payment method, donation
// with its agency and agent, pending first transaction) in one transaction, then charges the
// first transaction. A retry after the commit finds the donation and only finishes its charge.
func (a *Activities) Sync(ctx context.Context, in Input) (Result, error) {
	scope, id, err := orgscope.Row(ctx, a.Tenants, in.OrganizationID, "acquisition id", in.AcquisitionID)
	if err != nil {
		return Result{}, err
	}
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	var out Result
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		r, err := q.LockPendingAcquisition(ctx, sharddb.LockPendingAcquisitionParams{OrganizationID: scope.OrgID, ID: id})
		if errors.Is(err, dberr.ErrNotFound) {
			return temporal.NewNonRetryableApplicationError("acquisition not found", "not_found", err)
		}
		if err != nil {
			return err
		}
		switch status := r.AgencyAcquisition.Status; {
		case status == "synced":
			out = Result{Status: "already", DonationID: id.String()}
			return nil
		case status != "pending":
			out = Result{Status: "already"}
			return nil
		case r.AgencyDiscardedAt != nil:
			out = Result{Status: "voided"}
			reason := "agency_discarded"
			_, err := q.VoidAcquisition(ctx, sharddb.VoidAcquisitionParams{OrganizationID: scope.OrgID, ID: id, VoidReason: &reason})
			return err
		}
		if err := writeDonation(ctx, q, scope.OrgID, r.AgencyAcquisition, todayIn(now(), r.Timezone)); err != nil {
			return err
		}
		out = Result{Status: "synced", DonationID: id.String()}
		return q.MarkAcquisitionSynced(ctx, sharddb.MarkAcquisitionSyncedParams{OrganizationID: scope.OrgID, ID: id, DonationID: &id})
	})
	if err != nil || out.DonationID == "" {
		return out, err
	}
	return out, a.chargeFirst(ctx, scope, id, now)
}

func todayIn(now time.Time, tz string) time.Time {
	loc, err := time.LoadLocation(tz)
	if err != nil {
		loc = time.UTC
	}
	return now.In(loc)
}

// writeDonation writes the acquisition as the organisation's donation the way the public form does
// (newdonation.Write): the e-mail's existing donor is linked, never changed; the saved card; the
// donation under the acquisition's id with its agency and agent; its pending first transaction (the
// first charge runs at the sync, monthly donations too).
func writeDonation(ctx context.Context, q *sharddb.Queries, orgID uuid.UUID, r sharddb.AgencyAcquisition, today time.Time) error {
	uidType, uidNumber := deref(r.UidType), deref(r.UidNumber)
	snapshot, err := json.Marshal(map[string]string{"first_name": r.FirstName, "last_name": r.LastName, "email": r.Email,
		"uid_type": uidType, "uid_number": uidNumber})
	if err != nil {
		return err
	}
	var period *string
	if r.Recurrence == 1 {
		p := collectday.PeriodOf(today).String()
		period = &p
	}
	key := "agency:" + r.ID.String()
	_, err = newdonation.Write(ctx, q, newdonation.New{OrgID: orgID,
		Donor: newdonation.Donor{Email: r.Email, FirstName: r.FirstName, LastName: r.LastName, UIDType: uidType, UIDNumber: uidNumber},
		PaymentMethod: &newdonation.Card{Gateway: deref(r.Gateway), CustomerID: deref(r.CustomerID), CardID: deref(r.CardID),
			Brand: r.Brand, Bin: r.Bin, LastFour: r.LastFour, ExpiryMonth: r.ExpiryMonth, ExpiryYear: r.ExpiryYear, HolderName: r.HolderName,
			DonorIsCardholder: true},
		Donation: sharddb.InsertFormDonationParams{ID: r.ID, CampaignID: r.CampaignID, AmountMinor: r.AmountMinor, Currency: r.Currency,
			Recurrence: r.Recurrence, IdempotencyKey: &key, Items: json.RawMessage(`[]`), FormValues: json.RawMessage(`[]`),
			DonorSnapshot: snapshot, AgencyID: &r.AgencyID, AcquiredBy: &r.AgentID},
		Period: period, CollectDay: collectday.Of(today), FirstStatus: "pending"})
	return err
}

// chargeFirst charges a synced donation's first transaction unless it is settled already, the
// same way the public form does: a lost answer leaves the donation pending for the first-charge
// sweep, which reads it back (firstcharge.Sweep), and the same key never charges twice.
func (a *Activities) chargeFirst(ctx context.Context, scope tenants.Scope, id uuid.UUID, now func() time.Time) error {
	row, err := scope.Store().FirstChargeDonation(ctx, sharddb.FirstChargeDonationParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return err
	}
	d := firstcharge.Donation{OrgID: scope.OrgID, ID: id, Recurrence: int(row.Recurrence), Amount: row.AmountMinor, Currency: row.Currency,
		CollectDay: collectday.FromColumn(row.CollectDay)}
	first, err := firstcharge.FirstOf(ctx, scope, d)
	if err != nil {
		return err
	}
	if row.Status != "pending" || first.Settled() {
		return nil
	}
	pm, err := scope.Store().FormSavedCard(ctx, sharddb.FormSavedCardParams{OrganizationID: scope.OrgID, ID: *first.PaymentMethodID})
	if err != nil {
		return err
	}
	// The card is saved at the gateway the acquisition used (the organisation's active one then): charge it there.
	g, err := a.Gateways.Gateway(ctx, scope.OrgID, pm.Gateway, d.Currency)
	if err != nil {
		return err
	}
	charged, err := a.Settler.Charge(ctx, scope, g, d, nil, gateway.Charge{Description: row.Title, CustomerID: pm.CustomerID, Email: row.Email,
		CardID: pm.CardID, PaymentMethodID: pm.Brand,
		Metadata: map[string]string{"organization_id": scope.OrgID.String(), "donation_id": id.String()}}, todayIn(now(), row.Timezone))
	var refused *gateway.Error
	if errors.As(err, &refused) && refused.Status < 500 {
		return nil // the gateway's refusal is recorded as the form records it: the donation is rejected
	}
	if err != nil || charged.Status == firstcharge.StatusUnknown || charged.Status == firstcharge.StatusInProcess {
		return err // an undecided charge stays open for the first-charge sweep's guard
	}
	// Settled, its receipt sent and its collection started (Settler): nothing left for a guard.
	return firstcharge.Close(ctx, scope, id)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
