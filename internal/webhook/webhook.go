// Package webhook is what the writers of donations and charges, the API and the delivery workflow
// share about organisations' webhooks (issue #20): the events (queued by Enqueue in the transaction
// that makes the change, the way crmlink queues CRM changes), the signature every delivery carries,
// the guard that keeps deliveries off private networks, and the sealed per-endpoint secrets.
//
// Events (the body's "type"):
//
//	donation.created    a donation was made (form, agency sign-up)
//	donation.updated    a donation changed (amount, card, collect day, pause, resume, donor…): data.field says what
//	donation.cancelled  a donation was cancelled (discarded), by the organisation, the donor or the collection
//	charge.approved     a charge of a donation was approved
//	charge.declined     a charge of a donation was declined (rejected or cancelled by the gateway)
//	charge.refunded     an approved charge was refunded at the gateway
//	charge.charged_back an approved charge was taken back by the card's bank (a chargeback)
//
// The body is {"id", "type", "created_at", "organization_id", "data"}; id is the event's, the same
// on every attempt and resend, so receivers can ignore an event they already handled.
package webhook

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/sharddb"
)

// Event types.
const (
	DonationCreated   = "donation.created"
	DonationUpdated   = "donation.updated"
	DonationCancelled = "donation.cancelled"
	ChargeApproved    = "charge.approved"
	ChargeDeclined    = "charge.declined"
	ChargeRefunded    = "charge.refunded"
	ChargeChargedBack = "charge.charged_back"
)

// Events are every type an endpoint may take, in the order the settings page lists them.
var Events = []string{DonationCreated, DonationUpdated, DonationCancelled, ChargeApproved, ChargeDeclined, ChargeRefunded,
	ChargeChargedBack}

// Known reports whether t is an event type.
func Known(t string) bool {
	for _, e := range Events {
		if e == t {
			return true
		}
	}
	return false
}

// Body is what a delivery posts.
type Body struct {
	ID             uuid.UUID `json:"id"`
	Type           string    `json:"type"`
	CreatedAt      time.Time `json:"created_at"`
	OrganizationID uuid.UUID `json:"organization_id"`
	Data           any       `json:"data"`
}

// Amount is an amount in a body: minor units and its currency.
type Amount struct {
	Minor    int64  `json:"minor"`
	Currency string `json:"currency"`
}

// Donation is a new donation's data.
type Donation struct {
	DonationID uuid.UUID `json:"donation_id"`
	CampaignID uuid.UUID `json:"campaign_id"`
	DonorID    uuid.UUID `json:"donor_id"`
	Status     string    `json:"status"`
	Monthly    bool      `json:"monthly"`
	Amount     Amount    `json:"amount"`
}

// Change is a donation change's data: one field of its version history, from what to what.
type Change struct {
	DonationID uuid.UUID       `json:"donation_id"`
	Field      string          `json:"field"`
	Before     json.RawMessage `json:"before"`
	After      json.RawMessage `json:"after"`
	Actor      string          `json:"actor"`
}

// Charge is a charge's data.
type Charge struct {
	TransactionID    uuid.UUID `json:"transaction_id"`
	DonationID       uuid.UUID `json:"donation_id"`
	Period           string    `json:"period,omitempty"`
	Attempt          int       `json:"attempt"`
	Amount           Amount    `json:"amount"`
	Status           string    `json:"status"`
	StatusDetail     string    `json:"status_detail"`
	GatewayPaymentID string    `json:"gateway_payment_id"`
}

// eventIDs derives the ids of events whose writer has no id of its own to give them, so a retried
// writer queues the same event again (and the queue keeps it once).
var eventIDs = uuid.MustParse("5b0c2d4e-8a5f-4c2e-9a7d-2f1c0b6a9e31")

// EventID is the id of the event typ of the record id.
func EventID(id uuid.UUID, typ string) uuid.UUID {
	return uuid.NewSHA1(eventIDs, []byte(typ+"/"+id.String()))
}

// Enqueue queues the event for every active endpoint of the organisation that takes its type, on
// q: the store of the transaction that makes the change, so the change and its event commit
// together. Without such endpoints it writes nothing.
func Enqueue(ctx context.Context, q *sharddb.Queries, orgID, eventID uuid.UUID, typ string, data any) error {
	body, err := Encode(orgID, eventID, typ, data)
	if err != nil {
		return err
	}
	return q.EnqueueWebhookEvent(ctx, sharddb.EnqueueWebhookEventParams{OrganizationID: orgID, EventID: eventID, EventType: typ, Body: body})
}

// Encode is the body Enqueue queues for the event, created now, for a writer that queues it in a statement of its
// own (charge.Record's).
func Encode(orgID, eventID uuid.UUID, typ string, data any) (json.RawMessage, error) {
	return json.Marshal(Body{ID: eventID, Type: typ, CreatedAt: time.Now().UTC(), OrganizationID: orgID, Data: data})
}

// ChangeType is the event a version of a donation's field is: a status that became discarded is a
// cancellation, anything else an update.
func ChangeType(field string, after json.RawMessage) string {
	if field == "status" {
		var s struct {
			Status string `json:"status"`
		}
		if json.Unmarshal(after, &s) == nil && s.Status == "discarded" {
			return DonationCancelled
		}
	}
	return DonationUpdated
}

// ChargeType is the event a charge's outcome is; "" for an outcome that is neither (pending, planned…).
func ChargeType(status string) string {
	switch status {
	case "approved":
		return ChargeApproved
	case "rejected", "cancelled":
		return ChargeDeclined
	case "refunded":
		return ChargeRefunded
	case "charged_back":
		return ChargeChargedBack
	}
	return ""
}
