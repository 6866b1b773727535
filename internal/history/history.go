// Package history writes a donation's version history (donation_versions): who changed which
// field, from what, to what, and when. The manage area records the changes it makes to a row
// itself, collection the ones its workflow makes; both write through Record.
package history

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/webhook"
)

// Version is one change of a donation.
type Version struct {
	ID         uuid.UUID // uuid.Nil: a new id (a writer that may retry passes its own)
	DonationID uuid.UUID
	Actor      string // a user id, "api" or "system"
	Field      string
	Before     any // stored as JSON; nil: none
	After      any
	At         time.Time // zero: now
}

// Record writes v once per id, on q: the store of the transaction that makes the change, so the
// version commits with it.
func Record(ctx context.Context, q *sharddb.Queries, orgID uuid.UUID, v Version) error {
	if v.ID == uuid.Nil {
		v.ID = uuid.New()
	}
	before, err := jsonOrNil(v.Before)
	if err != nil {
		return err
	}
	after, err := jsonOrNil(v.After)
	if err != nil {
		return err
	}
	var at *time.Time
	if !v.At.IsZero() {
		at = &v.At
	}
	if err := q.RecordDonationVersion(ctx, sharddb.RecordDonationVersionParams{OrganizationID: orgID, ID: v.ID, DonationID: v.DonationID,
		Actor: v.Actor, Field: v.Field, Before: before, After: after, CreatedAt: at}); err != nil {
		return err
	}
	if v.Field == "status" && pausesOrRestores(before, after) { // a fact of the dashboard's pause widget
		facts := sharddb.RecordDashboardPauseParams{OrganizationID: orgID, VersionID: v.ID}
		if err := q.RecordDashboardPause(ctx, facts); err != nil {
			return err
		}
		if err := q.RecordDashboardResume(ctx, sharddb.RecordDashboardResumeParams(facts)); err != nil {
			return err
		}
		links := sharddb.LinkDashboardPausesParams{OrganizationID: orgID, DonationID: v.DonationID}
		if err := q.LinkDashboardPauses(ctx, links); err != nil {
			return err
		}
	}
	// Every change of a donation goes through here: its CRM sync and its webhook event are queued with it.
	if err := crmlink.Enqueue(ctx, q, orgID, crmlink.Donation, v.DonationID); err != nil {
		return err
	}
	return webhook.Enqueue(ctx, q, orgID, v.ID, webhook.ChangeType(v.Field, after),
		webhook.Change{DonationID: v.DonationID, Field: v.Field, Before: before, After: after, Actor: v.Actor})
}

// pausesOrRestores tells a status version that RecordDashboardPause (to paused) or RecordDashboardResume (paused
// to active) records, by the same fields they read, so the other status changes cost no statement of theirs.
func pausesOrRestores(before, after json.RawMessage) bool {
	var b, a struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(before, &b) // a version without the field, or no JSON object, is neither
	_ = json.Unmarshal(after, &a)
	return a.Status == "paused" || (b.Status == "paused" && a.Status == "active")
}

func jsonOrNil(v any) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	return json.Marshal(v)
}
