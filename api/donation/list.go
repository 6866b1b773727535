package donation

import (
	"cmp"
	"context"
	"encoding/csv"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/export"
)

// Paging is a list's page (1…) and per_page (1…100, default 25).
type Paging struct {
	Page    string `query:"page" json:"-"`
	PerPage string `query:"per_page" json:"-"`
}

func (p Paging) parse() (int, int, error) {
	page, per := 1, 25
	if p.Page != "" {
		n, err := strconv.Atoi(p.Page)
		if err != nil || n < 1 || n > 1_000_000 {
			return 0, 0, apierror.Validation(map[string]string{"page": "donation.invalid_option"})
		}
		page = n
	}
	if p.PerPage != "" {
		n, err := strconv.Atoi(p.PerPage)
		if err != nil || n < 1 || n > 100 {
			return 0, 0, apierror.Validation(map[string]string{"per_page": "donation.per_page_invalid"})
		}
		per = n
	}
	return page, per, nil
}

// sortColumns whitelists the list's sort keys.
var sortColumns = map[string]string{
	"created_at": "d.created_at",
	"amount":     "d.amount_minor",
	"status":     "d.status",
	"donor_name": "lower(dn.last_name) %[1]s, lower(dn.first_name)",
}

var listStatuses = []string{"pending", "active", "paused", "discarded", "rejected"}

// ListFilter is the donations list's query: status (comma list), campaign (uuid), frequency
// (monthly, one_time), from/to (YYYY-MM-DD or YYYY-MM, creation date in the organisation's
// timezone, to inclusive), q (donor name, e-mail or document), agency (uuid: the donations that
// agency acquired), sort (created_at, amount, status,
// donor_name; "-" prefix or order=desc for descending; default -created_at). The CSV binds it with
// Gin's form binding, the list through endpoint.Handle.
type ListFilter struct {
	Status    string `query:"status" form:"status" json:"-"`
	Campaign  string `query:"campaign" form:"campaign" json:"-"`
	Frequency string `query:"frequency" form:"frequency" json:"-"`
	From      string `query:"from" form:"from" json:"-"`
	To        string `query:"to" form:"to" json:"-"`
	Q         string `query:"q" form:"q" json:"-"`
	Agency    string `query:"agency" form:"agency" json:"-"`
	Sort      string `query:"sort" form:"sort" json:"-"`
	Order     string `query:"order" form:"order" json:"-"`
}

// listQuery is the list's filters as SQL.
type listQuery struct {
	filter
	order string
}

// parse turns the filter into SQL, or a validation error naming each wrong parameter.
func (l ListFilter) parse(ctx context.Context, scope tenants.Scope) (listQuery, error) {
	q := listQuery{}
	q.add("d.organization_id = %s", scope.OrgID)
	fields := map[string]string{}
	if s := strings.TrimSpace(l.Status); s != "" {
		var sts []string
		for _, v := range strings.Split(s, ",") {
			v = strings.TrimSpace(v)
			if !slices.Contains(listStatuses, v) {
				fields["status"] = "donation.invalid_option"
				break
			}
			sts = append(sts, v)
		}
		q.add("d.status = ANY(%s::text[])", sts)
	}
	if s := strings.TrimSpace(l.Campaign); s != "" {
		if id, err := uuid.Parse(s); err != nil {
			fields["campaign"] = "donation.invalid_option"
		} else {
			q.add("d.campaign_id = %s", id)
		}
	}
	if s := strings.TrimSpace(l.Agency); s != "" {
		if id, err := uuid.Parse(s); err != nil {
			fields["agency"] = "donation.invalid_option"
		} else {
			q.add("d.agency_id = %s", id)
		}
	}
	switch l.Frequency {
	case "":
	case "monthly":
		q.add("d.recurrence = 1")
	case "one_time":
		q.add("d.recurrence = 0")
	default:
		fields["frequency"] = "donation.invalid_option"
	}
	if err := l.created(ctx, scope, &q.filter, fields); err != nil {
		return q, err
	}
	if s := strings.ToLower(strings.TrimSpace(l.Q)); s != "" {
		if len([]rune(s)) > 100 {
			fields["q"] = "donation.too_long"
		} else {
			// The donors' trigram index answers the LIKE; donations join through donations_donor_idx.
			q.add("d.donor_id IN (SELECT s.id FROM donors s WHERE s.organization_id = $1 AND s.search LIKE %s)", "%"+likeEscape(s)+"%")
		}
	}
	q.order = l.orderBy(fields)
	if len(fields) > 0 {
		return q, apierror.Validation(fields)
	}
	return q, nil
}

// created adds the from/to conditions on the creation date, in the organisation's timezone.
func (l ListFilter) created(ctx context.Context, scope tenants.Scope, f *filter, fields map[string]string) error {
	from, to := strings.TrimSpace(l.From), strings.TrimSpace(l.To)
	if from == "" && to == "" {
		return nil
	}
	loc, err := orgLocation(ctx, scope)
	if err != nil {
		return err
	}
	if from != "" {
		if t, _, ok := parseDay(from, loc); ok {
			f.add("d.created_at >= %s", t)
		} else {
			fields["from"] = "donation.date_invalid"
		}
	}
	if to != "" {
		if _, end, ok := parseDay(to, loc); ok {
			f.add("d.created_at < %s", end)
		} else {
			fields["to"] = "donation.date_invalid"
		}
	}
	return nil
}

// orderBy is the ORDER BY of the sort and order parameters.
func (l ListFilter) orderBy(fields map[string]string) string {
	sortKey := cmp.Or(l.Sort, "-created_at")
	dir := "ASC"
	if strings.HasPrefix(sortKey, "-") {
		sortKey, dir = sortKey[1:], "DESC"
	}
	switch strings.ToLower(l.Order) {
	case "desc":
		dir = "DESC"
	case "asc":
		dir = "ASC"
	}
	col, ok := sortColumns[sortKey]
	if !ok {
		fields["sort"] = "donation.invalid_option"
	}
	col = strings.ReplaceAll(col, "%[1]s", dir)
	return col + " " + dir + ", d.created_at " + dir + ", d.id " + dir
}

// orgLocation is the organisation's time zone (UTC when unknown).
func orgLocation(ctx context.Context, scope tenants.Scope) (*time.Location, error) {
	org, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	return loc, nil
}

// parseDay reads YYYY-MM-DD (a day) or YYYY-MM (a month) and returns its start and end.
func parseDay(s string, loc *time.Location) (time.Time, time.Time, bool) {
	if t, err := time.ParseInLocation(time.DateOnly, s, loc); err == nil {
		return t, t.AddDate(0, 0, 1), true
	}
	if t, err := time.ParseInLocation("2006-01", s, loc); err == nil {
		return t, t.AddDate(0, 1, 0), true
	}
	return time.Time{}, time.Time{}, false
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

const listSelect = `SELECT d.id, d.amount_minor, d.currency, d.recurrence, d.collect_day, d.status,
       coalesce(d.paused_reason, ''), d.paused_since, d.discarded_at, coalesce(d.discard_reason, ''), d.next_charge_date,
       d.created_at, c.id, c.title, dn.id, dn.first_name, dn.last_name, dn.email, coalesce(dn.uid_type, ''),
       coalesce(dn.uid_number, ''), coalesce(pm.brand, ''), coalesce(pm.last_four, ''), ag.id, coalesce(ag.name, '')
FROM donations d
JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN payment_methods pm ON pm.organization_id = d.organization_id AND pm.id = d.payment_method_id
LEFT JOIN agencies ag ON ag.organization_id = d.organization_id AND ag.id = d.agency_id
WHERE `

// ListItem is one row of the donations list.
type ListItem struct {
	UUID           string       `json:"uuid"`
	Amount         money.Amount `json:"amount"`
	Frequency      string       `json:"frequency"` // monthly, one_time
	Recurrence     int          `json:"recurrence"`
	CollectDay     *int         `json:"collect_day"`
	Status         string       `json:"status"`
	PausedReason   *string      `json:"paused_reason"`
	PausedSince    *time.Time   `json:"paused_since"`
	DiscardedAt    *time.Time   `json:"discarded_at"`
	DiscardReason  *string      `json:"discard_reason"`
	NextChargeDate *string      `json:"next_charge_date"`
	CreatedAt      time.Time    `json:"created_at"`
	Campaign       CampaignRef  `json:"campaign"`
	Donor          struct {
		UUID      string `json:"uuid"`
		FirstName string `json:"first_name"`
		LastName  string `json:"last_name"`
		Email     string `json:"email"`
		UIDType   string `json:"uid_type"`
		UIDNumber string `json:"uid_number"`
	} `json:"donor"`
	PaymentMethod *CardRef `json:"payment_method"`
	// AcquiredBy is the agency that signed the donor up on the street; null for the other channels.
	AcquiredBy *AgencyRef `json:"acquired_by"`
}

// AgencyRef names an agency.
type AgencyRef struct {
	UUID string `json:"uuid"`
	Name string `json:"name"`
}

// scanItem reads a listSelect row; extra receives columns added after the list's own.
func scanItem(rows interface{ Scan(...any) error }, extra ...any) (ListItem, error) {
	var it ListItem
	var id, cid, did uuid.UUID
	var amount int64
	var cur, paused, discard, brand, last, agencyName string
	var agencyID *uuid.UUID
	var rec int16
	var day *int16
	var next *time.Time
	err := rows.Scan(append([]any{&id, &amount, &cur, &rec, &day, &it.Status, &paused, &it.PausedSince, &it.DiscardedAt, &discard,
		&next, &it.CreatedAt, &cid, &it.Campaign.Title, &did, &it.Donor.FirstName, &it.Donor.LastName, &it.Donor.Email,
		&it.Donor.UIDType, &it.Donor.UIDNumber, &brand, &last, &agencyID, &agencyName}, extra...)...)
	if err != nil {
		return it, err
	}
	it.UUID, it.Campaign.UUID, it.Donor.UUID = id.String(), cid.String(), did.String()
	it.Amount, it.Recurrence, it.Frequency = money.New(amount, cur), int(rec), frequency(int(rec))
	if day != nil {
		d := int(*day)
		it.CollectDay = &d
	}
	it.PausedReason, it.DiscardReason, it.NextChargeDate = nonEmpty(paused), nonEmpty(discard), chargeDate(next, it.Status)
	if brand != "" {
		it.PaymentMethod = &CardRef{brand, last}
	}
	if agencyID != nil {
		it.AcquiredBy = &AgencyRef{UUID: agencyID.String(), Name: agencyName}
	}
	return it, nil
}

// ListRequest is GET /manage/api/donations.
type ListRequest struct {
	ListFilter
	Paging
}

// DonationList is a page of the donations list.
type DonationList struct {
	Donations []ListItem `json:"donations"`
	Total     int        `json:"total"`
	Page      int        `json:"page"`
	PerPage   int        `json:"per_page"`
}

// List answers GET /manage/api/donations → {donations, total, page, per_page}.
func (s *ManageService) List(ctx context.Context, scope tenants.Scope, req *ListRequest) (*DonationList, error) {
	page, per, err := req.Paging.parse()
	if err != nil {
		return nil, err
	}
	q, err := req.ListFilter.parse(ctx, scope)
	if err != nil {
		return nil, err
	}
	out := &DonationList{Page: page, PerPage: per}
	out.Total, out.Donations, err = pageOf(ctx, scope, &q.filter, "SELECT count(*) FROM donations d WHERE ", listSelect,
		q.order, page, per, func(rows pgx.Rows) (ListItem, error) { return scanItem(rows) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CSV answers GET /manage/api/donations.csv with the list's filters and sort. It stays a Gin handler:
// the file is streamed as the rows are read, which endpoint.Handle (a JSON answer) cannot do.
func (s *ManageService) CSV(c *gin.Context) {
	ctx := c.Request.Context()
	scope, err := authz.Scope(ctx)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	var l ListFilter
	if err := c.ShouldBindQuery(&l); err != nil {
		apierror.Abort(c, apierror.Validation(map[string]string{"query": "wrong_type"}))
		return
	}
	q, err := l.parse(ctx, scope)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	// One column per extra form field title found among the exported donations, after the fixed ones.
	titles, err := fieldTitles(ctx, scope, q)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	rows, err := scope.Query(ctx, strings.Replace(listSelect, "\nFROM donations d", ", d.form_values, d.donor_snapshot\nFROM donations d", 1)+
		q.where()+" ORDER BY "+q.order, q.args...)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	defer rows.Close()
	c.Header("Content-Type", "text/csv; charset=utf-8")
	c.Header("Content-Disposition", `attachment; filename="donations-`+time.Now().Format("20060102")+`.csv"`)
	c.Header("Cache-Control", "no-store")
	c.Status(http.StatusOK)
	_, _ = c.Writer.Write([]byte("\xEF\xBB\xBF")) // UTF-8 BOM: spreadsheets read the accents
	w := csv.NewWriter(c.Writer)
	_ = w.Write(append([]string{"uuid", "created_at", "campaign", "first_name", "last_name", "email", "document_type",
		"document_number", "amount", "currency", "frequency", "status", "paused_reason", "discard_reason",
		"next_charge_date", "card_brand", "card_last_four", "submitted_first_name", "submitted_last_name",
		"submitted_email", "submitted_document_type", "submitted_document_number", "acquired_by"}, mapSlice(titles, export.SafeCell)...))
	n := 0
	for rows.Next() {
		var values []storedValue
		var sent *DonorSnapshot // the donor's data as the form submitted it, when it did
		it, err := scanItem(rows, &values, &sent)
		if err != nil {
			break
		}
		rec := csvRecord(it, sent, values, titles)
		_ = w.Write(rec)
		if n++; n%500 == 0 {
			w.Flush()
			c.Writer.Flush()
		}
	}
	w.Flush()
}

// csvRecord is a donation's CSV row: the list's columns, what the form submitted of the donor, and
// the answer to each extra form field title, every cell made safe for spreadsheets.
func csvRecord(it ListItem, sent *DonorSnapshot, values []storedValue, titles []string) []string {
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	var card CardRef
	if it.PaymentMethod != nil {
		card = *it.PaymentMethod
	}
	rec := []string{it.UUID, it.CreatedAt.UTC().Format(time.RFC3339), it.Campaign.Title, it.Donor.FirstName,
		it.Donor.LastName, it.Donor.Email, it.Donor.UIDType, it.Donor.UIDNumber, it.Amount.Decimal(), it.Amount.Currency,
		it.Frequency, it.Status, deref(it.PausedReason), deref(it.DiscardReason), deref(it.NextChargeDate), card.Brand, card.LastFour}
	if sent == nil {
		sent = &DonorSnapshot{}
	}
	acquiredBy := ""
	if it.AcquiredBy != nil {
		acquiredBy = it.AcquiredBy.Name
	}
	rec = append(rec, sent.FirstName, sent.LastName, sent.Email, sent.UIDType, sent.UIDNumber, acquiredBy)
	for _, t := range titles {
		i := slices.IndexFunc(values, func(v storedValue) bool { return v.Title == t })
		if i < 0 {
			rec = append(rec, "")
		} else {
			rec = append(rec, values[i].Value)
		}
	}
	return mapSlice(rec, export.SafeCell)
}

func mapSlice(ss []string, f func(string) string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	return out
}

// fieldTitles are the distinct titles of the extra form field answers of the listed donations.
func fieldTitles(ctx context.Context, scope tenants.Scope, q listQuery) ([]string, error) {
	rows, err := scope.Query(ctx, "SELECT DISTINCT v->>'title' FROM donations d CROSS JOIN LATERAL jsonb_array_elements(d.form_values) v WHERE "+
		q.where()+" ORDER BY 1", q.args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// DonorDiscardRequest is POST /manage/api/donors/:uuid/discard {reason}.
type DonorDiscardRequest struct {
	DonorID uuid.UUID `path:"uuid" json:"-"`
	Reason  string    `json:"reason"`
}

// DonorState is the answer of a donor's discard and reactivation.
type DonorState struct {
	DonorUUID string `json:"donor_uuid"`
	Discarded bool   `json:"discarded"`
	// DiscardedDonations are the donations the discard ended (discard only).
	DiscardedDonations *[]string `json:"discarded_donations,omitempty"`
}

// DiscardDonor answers POST /manage/api/donors/:uuid/discard {reason}: every donation of the donor
// that is not discarded yet is discarded (monthly ones through their workflow), then the donor is
// marked discarded. Answers {donor_uuid, discarded: true, discarded_donations: [uuid…]}.
func (s *ManageService) DiscardDonor(ctx context.Context, scope tenants.Scope, req *DonorDiscardRequest) (*DonorState, error) {
	reason, err := discardReason(req.Reason)
	if err != nil {
		return nil, err
	}
	q, key := scope.Store(), sharddb.DonorDiscardedAtParams{OrganizationID: scope.OrgID, ID: req.DonorID}
	if _, err := q.DonorDiscardedAt(ctx, key); err != nil {
		return nil, err
	}
	ids, err := q.DonorOpenDonationIDs(ctx, sharddb.DonorOpenDonationIDsParams{OrganizationID: scope.OrgID, DonorID: req.DonorID})
	if err != nil {
		return nil, err
	}
	discarded := []string{}
	for _, id := range ids {
		r, err := loadRow(ctx, scope, id)
		if err != nil {
			return nil, err
		}
		if err := s.discard(ctx, scope, r, reason); err != nil {
			return nil, err
		}
		discarded = append(discarded, id.String())
	}
	if err := q.DiscardDonor(ctx, sharddb.DiscardDonorParams{OrganizationID: scope.OrgID, ID: req.DonorID, DiscardReason: &reason}); err != nil {
		return nil, err
	}
	return &DonorState{DonorUUID: req.DonorID.String(), Discarded: true, DiscardedDonations: &discarded}, nil
}

// DonorRequest names a donor.
type DonorRequest struct {
	DonorID uuid.UUID `path:"uuid" json:"-"`
}

// ReactivateDonor answers POST /manage/api/donors/:uuid/reactivate: clears the donor's discard
// mark (409 if the donor is not discarded). Answers {donor_uuid, discarded: false}.
func (s *ManageService) ReactivateDonor(ctx context.Context, scope tenants.Scope, req *DonorRequest) (*DonorState, error) {
	key := sharddb.DonorDiscardedAtParams{OrganizationID: scope.OrgID, ID: req.DonorID}
	at, err := scope.Store().DonorDiscardedAt(ctx, key)
	if err != nil {
		return nil, err
	}
	if at == nil {
		return nil, apierror.New(http.StatusConflict, "donation.donor_not_discarded")
	}
	if err := scope.Store().ReactivateDonor(ctx, sharddb.ReactivateDonorParams(key)); err != nil {
		return nil, err
	}
	return &DonorState{DonorUUID: req.DonorID.String()}, nil
}
