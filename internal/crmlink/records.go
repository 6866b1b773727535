package crmlink

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/crm"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
)

// Values are one record's attribute values as the CRM takes them: strings, float64 numbers,
// booleans, dates as YYYY-MM-DD, nil for none.
type Values map[string]any

// Links of a donation to the records it refers to (the CRM's lookups are set through them).
type Links struct {
	Donor, Campaign uuid.UUID
}

// Load reads the records of one kind, by id; a deleted record is absent.
func Load(ctx context.Context, q *sharddb.Queries, orgID uuid.UUID, kind string, ids []uuid.UUID) (map[uuid.UUID]Values, map[uuid.UUID]Links, error) {
	out, links := map[uuid.UUID]Values{}, map[uuid.UUID]Links{}
	switch kind {
	case Donor:
		rows, err := q.CRMDonors(ctx, sharddb.CRMDonorsParams{OrganizationID: orgID, Ids: ids})
		if err != nil {
			return nil, nil, err
		}
		for _, d := range rows {
			out[d.ID] = Values{"email": d.Email, "first_name": d.FirstName, "last_name": d.LastName,
				"full_name": strings.TrimSpace(d.FirstName + " " + d.LastName), "phone": d.Phone, "cellphone": d.Cellphone,
				"uid_type": deref(d.UidType), "uid_number": deref(d.UidNumber), "street": d.Street, "city": d.City,
				"state": d.State, "country": d.Country, "created_at": day(&d.CreatedAt)}
		}
	case Campaign:
		rows, err := q.CRMCampaigns(ctx, sharddb.CRMCampaignsParams{OrganizationID: orgID, Ids: ids})
		if err != nil {
			return nil, nil, err
		}
		for _, c := range rows {
			out[c.ID] = Values{"title": c.Title, "description": c.Description, "type": c.Type, "channel": c.Channel,
				"published": c.Published, "created_at": day(&c.CreatedAt)}
		}
	case Donation:
		rows, err := q.CRMDonations(ctx, sharddb.CRMDonationsParams{OrganizationID: orgID, Ids: ids})
		if err != nil {
			return nil, nil, err
		}
		for _, d := range rows {
			recurrence, collectDay := "monthly", "last"
			if d.Recurrence == 0 {
				recurrence = "one_time"
			}
			if d.CollectDay != nil {
				collectDay = strconv.Itoa(int(*d.CollectDay))
			}
			amount := decimal(d.AmountMinor, d.Currency)
			v := Values{"amount": amount, "currency": d.Currency, "status": d.Status, "recurrence": recurrence,
				"collect_day": collectDay, "created_at": day(&d.CreatedAt), "campaign_title": d.CampaignTitle,
				"charges_approved": float64(d.ChargesApproved), "total_collected": decimal(d.CollectedMinor, d.Currency),
				"last_charge_status": deref(&d.LastChargeStatus), "last_charge_date": day(d.LastChargeAt),
				"paused_reason": deref(d.PausedReason),
				"title":         d.CampaignTitle + " · " + money.New(d.AmountMinor, d.Currency).Decimal() + " " + d.Currency}
			var answers []struct {
				Title string `json:"title"`
				Value any    `json:"value"`
			}
			if json.Unmarshal(d.FormValues, &answers) == nil {
				for _, a := range answers {
					if a.Value != nil {
						v[FormPrefix+a.Title] = strings.TrimSpace(strings.Trim(mustJSON(a.Value), `"`))
					}
				}
			}
			out[d.ID] = v
			links[d.ID] = Links{Donor: d.DonorID, Campaign: d.CampaignID}
		}
	}
	return out, links, nil
}

func mustJSON(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func deref(s *string) any {
	if s == nil || *s == "" {
		return nil
	}
	return *s
}

func day(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(time.DateOnly)
}

func decimal(minor int64, currency string) float64 {
	f, _ := strconv.ParseFloat(money.New(minor, currency).Decimal(), 64)
	return f
}

// Record builds what the CRM gets for one record of an object: the rules' fields, value-mapped,
// skipping an "override if empty" field the CRM already has a value in (existing is the CRM's
// current record, nil when it has none or no rule reads it).
func Record(rules []Rule, values Values, existing crm.Record) crm.Record {
	out := crm.Record{}
	for _, r := range rules {
		if r.SyncRule == OverrideIfEmpty && existing != nil && !empty(existing[r.Field]) {
			continue
		}
		v := values[r.Attribute]
		if s, ok := v.(string); ok {
			v = r.mapped(s)
			if v == "" {
				v = nil
			}
		}
		if f, ok := v.(float64); ok && fieldIsText(r) {
			v = strconv.FormatFloat(f, 'f', -1, 64)
		}
		if b, ok := v.(bool); ok && fieldIsText(r) {
			v = strconv.FormatBool(b)
		}
		out[r.Field] = v
	}
	return out
}

// fieldIsText says whether the rule writes a number or flag into a text field (the type was
// checked against the describe when the rule was saved; Rule.FieldType keeps it).
func fieldIsText(r Rule) bool { return r.FieldType == "string" || r.FieldType == "textarea" }

func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	}
	return false
}
