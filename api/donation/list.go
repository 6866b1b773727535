package donation

import (
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
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
	"github.com/aporta/aporta/workflows/export"
)

func tr(l i18n.Lang, code string) string { return i18n.T(l, code) }

// pagination reads page (1…) and per_page (1…100, default 25).
func pagination(c *gin.Context) (int, int, error) {
	page, per := 1, 25
	if s := c.Query("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1_000_000 {
			return 0, 0, apierror.Validation(map[string]string{"page": "donation.invalid_option"})
		}
		page = n
	}
	if s := c.Query("per_page"); s != "" {
		n, err := strconv.Atoi(s)
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

// listQuery is the list's filters as SQL.
type listQuery struct {
	where string
	args  []any
	order string
}

// parseList reads the list's query: status (comma list), campaign (uuid), frequency (monthly,
// one_time), from/to (YYYY-MM-DD or YYYY-MM, creation date in the organisation's timezone, to
// inclusive), q (donor name, e-mail or document), sort (created_at, amount, status, donor_name;
// "-" prefix or order=desc for descending; default -created_at).
func parseList(ctx context.Context, c *gin.Context, scope tenants.Scope) (listQuery, error) {
	q := listQuery{args: []any{scope.OrgID}}
	conds := []string{"d.organization_id = $1"}
	fields := map[string]string{}
	arg := func(v any) string {
		q.args = append(q.args, v)
		return "$" + strconv.Itoa(len(q.args))
	}
	if s := strings.TrimSpace(c.Query("status")); s != "" {
		var sts []string
		for _, v := range strings.Split(s, ",") {
			v = strings.TrimSpace(v)
			if !contains(listStatuses, v) {
				fields["status"] = "donation.invalid_option"
				break
			}
			sts = append(sts, v)
		}
		conds = append(conds, "d.status = ANY("+arg(sts)+"::text[])")
	}
	if s := strings.TrimSpace(c.Query("campaign")); s != "" {
		id, err := uuid.Parse(s)
		if err != nil {
			fields["campaign"] = "donation.invalid_option"
		} else {
			conds = append(conds, "d.campaign_id = "+arg(id))
		}
	}
	switch c.Query("frequency") {
	case "":
	case "monthly":
		conds = append(conds, "d.recurrence = 1")
	case "one_time":
		conds = append(conds, "d.recurrence = 0")
	default:
		fields["frequency"] = "donation.invalid_option"
	}
	from, to := strings.TrimSpace(c.Query("from")), strings.TrimSpace(c.Query("to"))
	if from != "" || to != "" {
		var tz string
		if err := scope.QueryRow(ctx, queries.Get("OrgTimezone"), scope.OrgID).Scan(&tz); err != nil {
			return q, err
		}
		loc, err := time.LoadLocation(tz)
		if err != nil {
			loc = time.UTC
		}
		if from != "" {
			t, _, ok := parseDay(from, loc)
			if !ok {
				fields["from"] = "donation.date_invalid"
			} else {
				conds = append(conds, "d.created_at >= "+arg(t))
			}
		}
		if to != "" {
			_, end, ok := parseDay(to, loc)
			if !ok {
				fields["to"] = "donation.date_invalid"
			} else {
				conds = append(conds, "d.created_at < "+arg(end))
			}
		}
	}
	if s := strings.ToLower(strings.TrimSpace(c.Query("q"))); s != "" {
		if len([]rune(s)) > 100 {
			fields["q"] = "donation.too_long"
		} else {
			// The donors' trigram index answers the LIKE; donations join through donations_donor_idx.
			pattern := "%" + likeEscape(s) + "%"
			conds = append(conds, "d.donor_id IN (SELECT s.id FROM donors s WHERE s.organization_id = $1 AND s.search LIKE "+arg(pattern)+")")
		}
	}
	sortKey := c.DefaultQuery("sort", "-created_at")
	dir := "ASC"
	if strings.HasPrefix(sortKey, "-") {
		sortKey, dir = sortKey[1:], "DESC"
	}
	switch strings.ToLower(c.Query("order")) {
	case "desc":
		dir = "DESC"
	case "asc":
		dir = "ASC"
	}
	col, ok := sortColumns[sortKey]
	if !ok {
		fields["sort"] = "donation.invalid_option"
	}
	if len(fields) > 0 {
		return q, apierror.Validation(fields)
	}
	if strings.Contains(col, "%[1]s") {
		col = strings.ReplaceAll(col, "%[1]s", dir)
	}
	q.where = strings.Join(conds, " AND ")
	q.order = col + " " + dir + ", d.created_at " + dir + ", d.id " + dir
	return q, nil
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
       coalesce(dn.uid_number, ''), coalesce(pm.brand, ''), coalesce(pm.last_four, '')
FROM donations d
JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN payment_methods pm ON pm.organization_id = d.organization_id AND pm.id = d.payment_method_id
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
	PaymentMethod *struct {
		Brand    string `json:"brand"`
		LastFour string `json:"last_four"`
	} `json:"payment_method"`
}

// scanItem reads a listSelect row; extra receives columns added after the list's own.
func scanItem(rows interface{ Scan(...any) error }, extra ...any) (ListItem, error) {
	var it ListItem
	var id, cid, did uuid.UUID
	var amount int64
	var cur, paused, discard, brand, last string
	var rec int16
	var day *int16
	var next *time.Time
	err := rows.Scan(append([]any{&id, &amount, &cur, &rec, &day, &it.Status, &paused, &it.PausedSince, &it.DiscardedAt, &discard,
		&next, &it.CreatedAt, &cid, &it.Campaign.Title, &did, &it.Donor.FirstName, &it.Donor.LastName, &it.Donor.Email,
		&it.Donor.UIDType, &it.Donor.UIDNumber, &brand, &last}, extra...)...)
	if err != nil {
		return it, err
	}
	it.UUID, it.Campaign.UUID, it.Donor.UUID = id.String(), cid.String(), did.String()
	it.Amount, it.Recurrence, it.Frequency = money.New(amount, cur), int(rec), frequency(int(rec))
	if day != nil {
		d := int(*day)
		it.CollectDay = &d
	}
	if paused != "" {
		it.PausedReason = &paused
	}
	if discard != "" {
		it.DiscardReason = &discard
	}
	if next != nil && it.Status != collection.StatusDiscarded {
		s := next.Format(time.DateOnly)
		it.NextChargeDate = &s
	}
	if brand != "" {
		it.PaymentMethod = &struct {
			Brand    string `json:"brand"`
			LastFour string `json:"last_four"`
		}{brand, last}
	}
	return it, nil
}

// List answers GET /manage/api/donations → {donations, total, page, per_page}.
func (h *ManageHandler) List(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := c.Request.Context()
	page, per, err := pagination(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	q, err := parseList(ctx, c, scope)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	var total int
	countSQL := "SELECT count(*) FROM donations d WHERE " + q.where
	if strings.Contains(q.order, "dn.") {
		countSQL = "SELECT count(*) FROM donations d WHERE " + q.where
	}
	if err := scope.QueryRow(ctx, countSQL, q.args...).Scan(&total); err != nil {
		apierror.Abort(c, err)
		return
	}
	args := append(append([]any{}, q.args...), per, (page-1)*per)
	n := len(q.args)
	rows, err := scope.Query(ctx, listSelect+q.where+" ORDER BY "+q.order+
		" LIMIT $"+strconv.Itoa(n+1)+" OFFSET $"+strconv.Itoa(n+2), args...)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	defer rows.Close()
	out := []ListItem{}
	for rows.Next() {
		it, err := scanItem(rows)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"donations": out, "total": total, "page": page, "per_page": per})
}

// CSV answers GET /manage/api/donations.csv with the list's filters and sort, streamed.
func (h *ManageHandler) CSV(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := c.Request.Context()
	q, err := parseList(ctx, c, scope)
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
		q.where+" ORDER BY "+q.order, q.args...)
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
		"submitted_email", "submitted_document_type", "submitted_document_number"}, mapSlice(titles, export.SafeCell)...))
	n := 0
	for rows.Next() {
		var values []storedValue
		var sent *DonorSnapshot // the donor's data as the form submitted it, when it did
		it, err := scanItem(rows, &values, &sent)
		if err != nil {
			break
		}
		next, paused, discard := "", "", ""
		if it.NextChargeDate != nil {
			next = *it.NextChargeDate
		}
		if it.PausedReason != nil {
			paused = *it.PausedReason
		}
		if it.DiscardReason != nil {
			discard = *it.DiscardReason
		}
		brand, last := "", ""
		if it.PaymentMethod != nil {
			brand, last = it.PaymentMethod.Brand, it.PaymentMethod.LastFour
		}
		rec := []string{it.UUID, it.CreatedAt.UTC().Format(time.RFC3339), it.Campaign.Title, it.Donor.FirstName,
			it.Donor.LastName, it.Donor.Email, it.Donor.UIDType, it.Donor.UIDNumber, it.Amount.Decimal(), it.Amount.Currency,
			it.Frequency, it.Status, paused, discard, next, brand, last}
		if sent == nil {
			sent = &DonorSnapshot{}
		}
		rec = append(rec, sent.FirstName, sent.LastName, sent.Email, sent.UIDType, sent.UIDNumber)
		for _, t := range titles {
			i := slices.IndexFunc(values, func(v storedValue) bool { return v.Title == t })
			if i < 0 {
				rec = append(rec, "")
			} else {
				rec = append(rec, values[i].Value)
			}
		}
		for i := range rec {
			rec[i] = export.SafeCell(rec[i])
		}
		_ = w.Write(rec)
		if n++; n%500 == 0 {
			w.Flush()
			c.Writer.Flush()
		}
	}
	w.Flush()
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
		q.where+" ORDER BY 1", q.args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// DonorActionRequest is the body of donor discard.
type DonorActionRequest struct {
	Reason string `json:"reason"`
}

// DiscardDonor answers POST /manage/api/donors/:uuid/discard {reason}: every donation of the donor
// that is not discarded yet is discarded (monthly ones through their workflow), then the donor is
// marked discarded. Answers {donor_uuid, discarded: true, discarded_donations: [uuid…]}.
func (h *ManageHandler) DiscardDonor(c *gin.Context) {
	id, ok := paramUUID(c, "uuid")
	if !ok {
		return
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	var req DonorActionRequest
	if !bind(c, &req) {
		return
	}
	reason := strings.TrimSpace(req.Reason)
	if reason == "" {
		apierror.Abort(c, apierror.Validation(map[string]string{"reason": "donation.required"}))
		return
	}
	ctx := c.Request.Context()
	var did uuid.UUID
	var at *time.Time
	if err := scope.QueryRow(ctx, queries.Get("DonorByID"), scope.OrgID, id).Scan(&did, &at); err != nil {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	rows, err := scope.Query(ctx, queries.Get("DonorOpenDonations"), scope.OrgID, id)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	var ids []uuid.UUID
	for rows.Next() {
		var d uuid.UUID
		var rec int16
		var st string
		if err := rows.Scan(&d, &rec, &st); err != nil {
			rows.Close()
			apierror.Abort(c, err)
			return
		}
		ids = append(ids, d)
	}
	rows.Close()
	discarded := []string{}
	for _, d := range ids {
		r, err := loadRow(ctx, scope, d)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		if r.Recurrence == 1 && (r.Status == collection.StatusActive || r.Status == collection.StatusPaused) {
			if _, ok := h.update(c, scope, r, collection.UpdateDiscard, collection.DiscardRequest{Actor: actor(c), Reason: reason}); !ok {
				return
			}
		} else if err := h.discardRow(c, scope, d, reason); err != nil {
			apierror.Abort(c, err)
			return
		}
		discarded = append(discarded, d.String())
	}
	if err := scope.Exec(ctx, queries.Get("DiscardDonor"), scope.OrgID, id, reason); err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"donor_uuid": id.String(), "discarded": true, "discarded_donations": discarded})
}

// ReactivateDonor answers POST /manage/api/donors/:uuid/reactivate: clears the donor's discard
// mark (409 if the donor is not discarded). Answers {donor_uuid, discarded: false}.
func (h *ManageHandler) ReactivateDonor(c *gin.Context) {
	id, ok := paramUUID(c, "uuid")
	if !ok {
		return
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := c.Request.Context()
	var did uuid.UUID
	var at *time.Time
	if err := scope.QueryRow(ctx, queries.Get("DonorByID"), scope.OrgID, id).Scan(&did, &at); err != nil {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	if at == nil {
		apierror.Abort(c, apierror.New(http.StatusConflict, "donation.donor_not_discarded"))
		return
	}
	if err := scope.Exec(ctx, queries.Get("ReactivateDonor"), scope.OrgID, id); err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"donor_uuid": id.String(), "discarded": false})
}
