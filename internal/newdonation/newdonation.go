// Package newdonation writes a new donation the one way every channel does: the public form
// (api/donation) and an agency's synced street sign-up (workflows/agencysync). In the caller's
// transaction it links the donor by e-mail, stores the payment method, the donation (once per
// idempotency key), its pending or planned first transaction, and queues both for the CRM and the donation.created webhook.
package newdonation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/webhook"
)

// Donor is who the donation is from, as the channel collected them.
type Donor struct {
	Email, FirstName, LastName, UIDType, UIDNumber string
	// Fields are answers to form fields related to donor columns, stored on a new donor only.
	Fields map[string]string
}

// New is one donation to write. Donation carries the channel's own columns (amount, recurrence,
// idempotency key, items, snapshots; agency and agent for a sign-up): the organisation, donor,
// payment method and collect day are filled in here. PaymentMethod likewise, without its ids (nil for
// an off-site bank debit, which saves nothing to charge again; a sandbox agency sign-up's card has
// no gateway name and is still saved).
type New struct {
	OrgID         uuid.UUID
	Donor         Donor
	PaymentMethod *Card
	Donation      sharddb.InsertFormDonationParams
	// Period is the first transaction's period of a monthly donation (nil: one-time).
	Period *string
	// CollectDay is the day of the month the donation is collected on.
	CollectDay collectday.Day
	// FirstStatus is the first transaction's status: pending (charged now) or planned.
	FirstStatus string
}

// Card is the card a new donation is charged with, as the channel saved it at its gateway; stored once per gateway
// customer and card (a card saved again refreshes its expiry and holder). donor_card_link reads it by these names
// (migrations/shard/0660).
type Card struct {
	Gateway           string  `json:"gateway"`
	CustomerID        string  `json:"customer_id"`
	CardID            string  `json:"card_id"`
	Brand             string  `json:"brand"`
	Bin               string  `json:"bin"`
	LastFour          string  `json:"last_four"`
	ExpiryMonth       int16   `json:"expiry_month"`
	ExpiryYear        int16   `json:"expiry_year"`
	HolderName        string  `json:"holder_name"`
	HolderIDType      *string `json:"holder_id_type"`
	HolderIDNumber    *string `json:"holder_id_number"`
	DonorIsCardholder bool    `json:"donor_is_cardholder"`
}

// Written is the donation as stored: a concurrent twin with the same key may have written it first.
type Written = sharddb.FormDonationByKeyRow

// Write stores n with q, inside the caller's transaction.
func Write(ctx context.Context, q *sharddb.Queries, n New) (Written, error) {
	donorID, pmID, err := link(ctx, q, n.OrgID, n.Donor, n.PaymentMethod)
	if err != nil {
		return Written{}, fmt.Errorf("donor and card: %w", err)
	}
	row := n.Donation
	row.OrganizationID, row.DonorID, row.PaymentMethodID, row.CollectDay = n.OrgID, donorID, pmID, n.CollectDay.Column()
	// Guarded by the first-charge sweep until the writer has settled it and followed it up (firstcharge.Close).
	row.FirstChargeOpen = true
	if row.ID == uuid.Nil {
		row.ID = uuid.New()
	}
	// The insert answers the row it stored; when a concurrent twin with the key stored one first, the read by the key
	// that follows, a statement of its own, sees it. Then the queued rows, in one statement that Citus runs whole on
	// the worker (issue 19).
	inserted, err := q.InsertFormDonation(ctx, row)
	d := Written(inserted)
	if errors.Is(err, dberr.ErrNotFound) {
		d, err = q.FormDonationByKey(ctx, sharddb.FormDonationByKeyParams{OrganizationID: n.OrgID, IdempotencyKey: row.IdempotencyKey})
	}
	if err != nil {
		return Written{}, fmt.Errorf("donation: %w", err)
	}
	queue := sharddb.QueueNewDonationParams{OrganizationID: n.OrgID, DonorID: donorID, DonationID: d.ID,
		TransactionID: charge.FirstTransactionID(d.ID), Period: n.Period, AmountMinor: d.AmountMinor, Currency: d.Currency,
		Status: n.FirstStatus, PaymentMethodID: pmID}
	if d.ID == row.ID { // this call wrote it (not a concurrent twin with the same key): its donation.created event
		event, typ := webhook.EventID(d.ID, webhook.DonationCreated), webhook.DonationCreated
		body, err := webhook.Encode(n.OrgID, event, typ, webhook.Donation{DonationID: d.ID, CampaignID: d.CampaignID,
			DonorID: d.DonorID, Status: d.Status, Monthly: n.Period != nil, Amount: webhook.Amount{Minor: d.AmountMinor, Currency: d.Currency}})
		if err != nil {
			return Written{}, err
		}
		queue.EventID, queue.EventType, queue.EventBody = &event, &typ, body
	}
	if err := q.QueueNewDonation(ctx, queue); err != nil {
		return Written{}, fmt.Errorf("queue: %w", err)
	}
	return d, nil
}

// link finds the donor with the e-mail or creates one, and stores the card (pm; nil: none), in
// one call (sharddb LinkFormDonorCard). It never writes an existing donor's record: anyone can type someone's e-mail
// into a form, so what they say stays with their donation (its donor snapshot) and only the manage area changes a
// donor.
func link(ctx context.Context, q *sharddb.Queries, orgID uuid.UUID, d Donor, pm *Card) (uuid.UUID, *uuid.UUID, error) {
	var fields, card json.RawMessage // null: no related field answered, no card
	var err error
	if len(d.Fields) > 0 {
		if fields, err = json.Marshal(d.Fields); err != nil {
			return uuid.Nil, nil, err
		}
	}
	if pm != nil {
		if card, err = json.Marshal(struct {
			ID uuid.UUID `json:"id"` // a new payment method's
			*Card
		}{uuid.New(), pm}); err != nil {
			return uuid.Nil, nil, err
		}
	}
	raw, err := q.LinkFormDonorCard(ctx, sharddb.LinkFormDonorCardParams{OrganizationID: orgID, ID: uuid.New(), Email: d.Email,
		FirstName: d.FirstName, LastName: d.LastName, UidType: d.UIDType, UidNumber: d.UIDNumber, Fields: fields, Card: card})
	if err != nil {
		return uuid.Nil, nil, err
	}
	var linked struct {
		DonorID         uuid.UUID  `json:"donor_id"`
		PaymentMethodID *uuid.UUID `json:"payment_method_id"`
	}
	if err := json.Unmarshal(raw, &linked); err != nil {
		return uuid.Nil, nil, err
	}
	return linked.DonorID, linked.PaymentMethodID, nil
}
