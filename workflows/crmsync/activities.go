package crmsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/activity"

	"github.com/aporta/aporta/internal/crm"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// Activities drain integrations' queues.
type Activities struct {
	Tenants orgscope.Organizations
	Vault   *crmlink.Vault
	// BatchSize is how many changes one Drain takes (200 when zero); ParkFor how long a queue
	// waits when the budget ran out before it looks again (an hour when zero).
	BatchSize int
	ParkFor   time.Duration
}

// objectOrder is the order a batch writes objects in: a recurring donation or opportunity looks
// up the contact and campaign, so those go first.
var objectOrder = []string{crm.ObjectCampaign, crm.ObjectContact, crm.ObjectRecurringDonation, crm.ObjectOpportunity}

// kindOf is the kind of record an object is written from.
var kindOf = map[string]string{crm.ObjectCampaign: crmlink.Campaign, crm.ObjectContact: crmlink.Donor,
	crm.ObjectRecurringDonation: crmlink.Donation, crm.ObjectOpportunity: crmlink.Donation}

// drain is one Drain's state: the calls it made (for the log) and what happened to each change.
type drain struct {
	scope   tenants.Scope
	integ   sharddb.CrmIntegration
	client  *crm.Client
	ctx     context.Context
	calls   []loggedCall
	budget  int       // calls this drain may still make
	usage   crm.Usage // the last the CRM reported
	failed  map[uuid.UUID]refusal
	pending map[uuid.UUID]bool // changes not (fully) sent yet
}

type loggedCall struct {
	id uuid.UUID
	crm.Call
	failed int
}

type refusal struct {
	message   string
	requestID uuid.UUID
}

// Drain sends one batch of the integration's queue.
func (a *Activities) Drain(ctx context.Context, in Input) (Result, error) {
	scope, err := orgscope.For(ctx, a.Tenants, in.OrganizationID)
	if err != nil {
		return Result{}, err
	}
	id, err := uuid.Parse(in.IntegrationID)
	if err != nil {
		return Result{State: StateGone}, nil
	}
	q := scope.Store()
	integ, err := q.CRMIntegration(ctx, sharddb.CRMIntegrationParams{OrganizationID: scope.OrgID, ID: id})
	if errors.Is(err, dberr.ErrNotFound) {
		return Result{State: StateGone}, nil
	}
	if err != nil {
		return Result{}, err
	}
	// How long a park lasts is the workflow's timer; parked_until only tells the setup page.
	switch integ.Status {
	case "paused":
		return Result{State: StateIdle}, nil
	case "needs_attention":
		return Result{State: StateBlocked}, nil
	}
	size := a.BatchSize
	if size <= 0 {
		size = 200
	}
	changes, err := q.PendingCRMChanges(ctx, sharddb.PendingCRMChangesParams{OrganizationID: scope.OrgID, IntegrationID: id, Limit: int32(size)})
	if err != nil || len(changes) == 0 {
		return Result{State: StateIdle}, err
	}
	creds, err := a.Vault.Credentials(ctx, integ)
	if err != nil {
		return Result{}, fmt.Errorf("open credentials: %w", err)
	}
	d := &drain{scope: scope, integ: integ, ctx: ctx, failed: map[uuid.UUID]refusal{}, pending: map[uuid.UUID]bool{}}
	d.client = a.Vault.Client(creds, func(c crm.Call) {
		d.calls = append(d.calls, loggedCall{id: uuid.New(), Call: c})
		if c.Usage != nil {
			d.usage = *c.Usage
		}
		if activity.IsActivity(ctx) {
			activity.RecordHeartbeat(ctx, len(d.calls))
		}
	})
	if integ.UsageUsed != nil && integ.UsageMax != nil {
		d.usage = crm.Usage{Used: int(*integ.UsageUsed), Max: int(*integ.UsageMax)}
	}
	res, err := a.send(d, changes)
	if werr := a.record(d, changes, &res); werr != nil && err == nil {
		err = werr
	}
	if err == nil && res.State == "" {
		res.State = StateIdle
		if len(changes) == size {
			res.State = StateMore
		}
	}
	return res, err
}

// send writes the batch's records object by object; it stops at the budget's end (parked), at
// credentials the CRM refuses (blocked), and returns an error for what a retry may fix.
func (a *Activities) send(d *drain, changes []sharddb.CrmChange) (Result, error) {
	ctx, q, orgID := d.ctx, d.scope.Store(), d.scope.OrgID
	var err error
	if d.budget, err = a.budgetLeft(d); err != nil {
		return a.stopped(d, err)
	}
	if d.budget <= 0 {
		return a.park(d), nil
	}
	rules, err := a.rules(d)
	if err != nil {
		return Result{}, err
	}
	byKind := map[string][]uuid.UUID{}
	for _, c := range changes {
		byKind[c.Kind] = append(byKind[c.Kind], c.RecordID)
		d.pending[c.ID] = true
	}
	values, links := map[string]map[uuid.UUID]crmlink.Values{}, map[uuid.UUID]crmlink.Links{}
	for kind, ids := range byKind {
		v, l, err := crmlink.Load(ctx, q, orgID, kind, ids)
		if err != nil {
			return Result{}, err
		}
		values[kind] = v
		for k, x := range l {
			links[k] = x
		}
	}
	for _, object := range objectOrder {
		rs := rules[object]
		if len(rs) == 0 {
			continue
		}
		kind := kindOf[object]
		var batch []sharddb.CrmChange
		for _, c := range changes {
			if _, exists := values[kind][c.RecordID]; exists && c.Kind == kind {
				batch = append(batch, c)
			}
		}
		for start := 0; start < len(batch); start += crm.MaxCollection {
			chunk := batch[start:min(start+crm.MaxCollection, len(batch))]
			if err := a.upsert(d, object, rs, rules, chunk, values[kind], links); err != nil {
				return a.stopped(d, err)
			}
		}
	}
	for id := range d.pending {
		delete(d.pending, id) // everything the batch named was written (or refused, in failed)
	}
	return Result{}, nil
}

// upsert writes one chunk of an object's records, reading first what "override if empty" rules need.
func (a *Activities) upsert(d *drain, object string, rs []crmlink.Rule, all map[string][]crmlink.Rule, chunk []sharddb.CrmChange,
	values map[uuid.UUID]crmlink.Values, links map[uuid.UUID]crmlink.Links) error {
	sobject, ext := crm.SObjects[object], d.integ.ExternalIDField
	existing, err := a.existing(d, sobject, rs, chunk)
	if err != nil {
		return err
	}
	describe := describes(d.integ)[object]
	records := make([]crm.Record, len(chunk))
	for i, c := range chunk {
		r := crmlink.Record(rs, values[c.RecordID], existing[c.RecordID.String()])
		r[ext] = c.RecordID.String()
		if l, ok := links[c.RecordID]; ok {
			link(r, describe, ext, "Contact", len(all[crm.ObjectContact]) > 0, l.Donor)
			link(r, describe, ext, "Campaign", len(all[crm.ObjectCampaign]) > 0, l.Campaign)
			if object == crm.ObjectOpportunity {
				link(r, describe, ext, crm.SObjects[crm.ObjectRecurringDonation], len(all[crm.ObjectRecurringDonation]) > 0, c.RecordID)
			}
		}
		records[i] = r
	}
	if err := d.spend(); err != nil {
		return err
	}
	results, err := d.client.Upsert(d.ctx, sobject, ext, records)
	var ae *crm.APIError
	if errors.As(err, &ae) && ae.Status == http.StatusBadRequest {
		// The CRM refused the whole request (a field removed since the mapping was saved, say):
		// every record of it fails, to be retried once the mapping is fixed.
		results = make([]crm.SaveResult, len(chunk))
		for i := range results {
			results[i].Errors = ae.Errors
		}
		err = nil
	}
	if err != nil {
		return err
	}
	last := &d.calls[len(d.calls)-1]
	for i, res := range results {
		if res.Success {
			continue
		}
		last.failed++
		msg := "refused"
		if len(res.Errors) > 0 {
			msg = res.Errors[0].Code() + ": " + res.Errors[0].Message
		}
		if _, already := d.failed[chunk[i].ID]; !already {
			d.failed[chunk[i].ID] = refusal{message: object + " " + msg, requestID: last.id}
		}
	}
	return nil
}

// link sets a lookup to another object by its external id, when the describe has the lookup and
// the organisation syncs that object.
func link(r crm.Record, d crm.Describe, ext, to string, synced bool, id uuid.UUID) {
	if !synced || id == uuid.Nil {
		return
	}
	if f, ok := d.Reference(to); ok {
		r[f.RelationshipName] = map[string]any{ext: id.String()}
	}
}

// existing reads the CRM's current values of the fields "override if empty" rules write, by
// external id (nil when no rule needs them).
func (a *Activities) existing(d *drain, sobject string, rs []crmlink.Rule, chunk []sharddb.CrmChange) (map[string]crm.Record, error) {
	var fields []string
	for _, r := range rs {
		if r.SyncRule == crmlink.OverrideIfEmpty {
			fields = append(fields, r.Field)
		}
	}
	if len(fields) == 0 {
		return nil, nil
	}
	ext := d.integ.ExternalIDField
	out := map[string]crm.Record{}
	const perQuery = 100 // external ids per query: the URL stays well under Salesforce's 16 KB
	for start := 0; start < len(chunk); start += perQuery {
		var ids []string
		for _, c := range chunk[start:min(start+perQuery, len(chunk))] {
			ids = append(ids, crm.Quote(c.RecordID.String()))
		}
		if err := d.spend(); err != nil {
			return nil, err
		}
		res, err := d.client.Query(d.ctx, sobject, "SELECT "+ext+", "+strings.Join(fields, ", ")+" FROM "+sobject+
			" WHERE "+ext+" IN ("+strings.Join(ids, ", ")+")")
		if err != nil {
			return nil, err
		}
		for _, r := range res.Records {
			if v, ok := r[ext].(string); ok {
				out[v] = r
			}
		}
	}
	return out, nil
}

// errBudget is the drain's budget spent: the rest of the batch waits for the next window.
var errBudget = errors.New("crm sync: daily call budget spent")

func (d *drain) spend() error {
	if d.budget <= 0 {
		return errBudget
	}
	d.budget--
	return nil
}

// budgetLeft is how many calls may be made now: what the CRM says is left of its daily limit (asked
// with the free /limits call when the last answer said nothing is) and what our own cap leaves.
func (a *Activities) budgetLeft(d *drain) (int, error) {
	left := math.MaxInt
	if d.integ.DailyCallLimit != nil {
		used, err := d.scope.Store().CRMCallsSince(d.ctx, sharddb.CRMCallsSinceParams{OrganizationID: d.scope.OrgID,
			IntegrationID: d.integ.ID, At: time.Now().Add(-24 * time.Hour)})
		if err != nil {
			return 0, err
		}
		left = int(*d.integ.DailyCallLimit - used)
	}
	if d.usage.Max > 0 && d.usage.Used >= d.usage.Max && left > 0 {
		l, err := d.client.Limits(d.ctx)
		if err != nil {
			return 0, err
		}
		d.usage = crm.Usage{Used: l.DailyAPIRequests.Max - l.DailyAPIRequests.Remaining, Max: l.DailyAPIRequests.Max}
	}
	if d.usage.Max > 0 {
		left = min(left, d.usage.Max-d.usage.Used)
	}
	return left, nil
}

func (a *Activities) park(d *drain) Result {
	wait := a.ParkFor
	if wait <= 0 {
		wait = time.Hour
	}
	return Result{State: StateParked, Wait: wait}
}

// stopped turns what ended a batch early into the workflow's next step.
func (a *Activities) stopped(d *drain, err error) (Result, error) {
	switch {
	case errors.Is(err, errBudget), errors.Is(err, crm.ErrLimit):
		return a.park(d), nil
	case errors.Is(err, crm.ErrAuth), errors.Is(err, crm.ErrHost):
		return Result{State: StateBlocked}, nil
	}
	return Result{}, err // transient: Temporal retries the batch with backoff
}

// rules are the integration's rules by object, with their fields' types from the cached describes.
func (a *Activities) rules(d *drain) (map[string][]crmlink.Rule, error) {
	rows, err := d.scope.Store().CRMRules(d.ctx, sharddb.CRMRulesParams{OrganizationID: d.scope.OrgID, IntegrationID: d.integ.ID})
	if err != nil {
		return nil, err
	}
	ds := describes(d.integ)
	out := map[string][]crmlink.Rule{}
	for _, r := range rows {
		rule := crmlink.FromRow(r)
		if f, ok := ds[r.CrmObject].Field(r.Field); ok {
			rule.FieldType = f.Type
		}
		out[r.CrmObject] = append(out[r.CrmObject], rule)
	}
	return out, nil
}

func describes(in sharddb.CrmIntegration) map[string]crm.Describe {
	out := map[string]crm.Describe{}
	_ = json.Unmarshal(in.Describes, &out) // written by us; an unreadable cache only loses lookups
	return out
}

// record writes what the drain did: the calls in the request log, the sent changes out of the
// queue, the refused ones as failed, and the budget and park time on the integration. It runs
// however the drain ended, so a batch that failed half-way keeps its log and its progress.
func (a *Activities) record(d *drain, changes []sharddb.CrmChange, res *Result) error {
	ctx, orgID := context.WithoutCancel(d.ctx), d.scope.OrgID
	var failed, sent int // counted per run of the transaction, which may run again (tenants.Scope.Tx)
	err := d.scope.Tx(ctx, func(tx pgx.Tx) error {
		failed, sent = 0, 0
		q := sharddb.Store(tx)
		for _, c := range d.calls {
			if err := q.LogCRMRequest(ctx, logRow(orgID, d.integ.ID, c)); err != nil {
				return err
			}
		}
		for _, c := range changes {
			if r, ok := d.failed[c.ID]; ok {
				if _, err := q.FailCRMChange(ctx, sharddb.FailCRMChangeParams{OrganizationID: orgID, ID: c.ID, Version: c.Version,
					Error: &r.message, RequestID: &r.requestID}); err != nil {
					return err
				}
				failed++
				continue
			}
			if d.pending[c.ID] {
				continue
			}
			n, err := q.DeleteSentCRMChange(ctx, sharddb.DeleteSentCRMChangeParams{OrganizationID: orgID, ID: c.ID, Version: c.Version})
			if err != nil {
				return err
			}
			sent += int(n)
		}
		st := sharddb.SetCRMIntegrationSyncStateParams{OrganizationID: orgID, ID: d.integ.ID, Now: time.Now()}
		if d.usage.Max > 0 {
			used, limit := int32(d.usage.Used), int32(d.usage.Max)
			st.UsageUsed, st.UsageMax = &used, &limit
		}
		if res.State == StateParked {
			until := time.Now().Add(res.Wait)
			st.ParkedUntil = &until
		}
		if res.State == StateBlocked {
			msg := "crm.credentials_refused"
			st.LastError = &msg
		}
		return q.SetCRMIntegrationSyncState(ctx, st)
	})
	if err == nil {
		res.Failed += failed
		res.Sent += sent
	}
	return err
}

func logRow(orgID, integrationID uuid.UUID, c loggedCall) sharddb.LogCRMRequestParams {
	row := sharddb.LogCRMRequestParams{OrganizationID: orgID, IntegrationID: integrationID, ID: c.id, At: c.At, Object: c.Object,
		Operation: c.Operation, Records: int32(c.Records), Failed: int32(c.failed), Status: int32(c.Status),
		Outcome: "ok", DurationMs: int32(c.Duration.Milliseconds())}
	if c.Usage != nil {
		used, limit := int32(c.Usage.Used), int32(c.Usage.Max)
		row.UsageUsed, row.UsageMax = &used, &limit
	}
	switch {
	case errors.Is(c.Err, crm.ErrLimit):
		row.Outcome = "limited"
	case c.Status == http.StatusUnauthorized:
		row.Outcome = "session_expired"
	case c.Err != nil:
		row.Outcome = "failed"
	case c.failed > 0 && c.failed == c.Records:
		row.Outcome = "failed"
	case c.failed > 0:
		row.Outcome = "partial"
	}
	if c.Err != nil {
		msg := c.Err.Error()
		row.Error = &msg
	} else if c.failed > 0 {
		msg := fmt.Sprintf("%d of %d records refused", c.failed, c.Records)
		row.Error = &msg
	}
	return row
}
