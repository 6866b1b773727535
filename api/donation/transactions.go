package donation

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
)

// summaryGroups are the summary's buckets and the transaction statuses (spec §4) each one sums.
// planned (not charged yet) and non_existant (no payment) are in no bucket.
var summaryGroups = map[string][]string{
	"approved":     {"approved"},
	"rejected":     {"rejected", "cancelled"},
	"pending":      {"pending", "in_process", "in_mediation"},
	"refunded":     {"refunded"},
	"charged_back": {"charged_back"},
}

var summaryOrder = []string{"approved", "rejected", "pending", "refunded", "charged_back"}

var allTxStatuses = []string{"approved", "cancelled", "charged_back", "in_mediation", "in_process", "pending", "planned",
	"refunded", "rejected", "non_existant"}

// txRange reads the period: the :period parameter or ?period= (YYYY-MM), or ?from=&to= (YYYY-MM,
// both inclusive). A transaction belongs to the month of its date (created_at) in the
// organisation's timezone.
func txRange(c *gin.Context, scope tenants.Scope) (from, to string, start, end time.Time, err error) {
	var tz string
	if err = scope.QueryRow(c.Request.Context(), queries.Get("OrgTimezone"), scope.OrgID).Scan(&tz); err != nil {
		return
	}
	loc, lerr := time.LoadLocation(tz)
	if lerr != nil {
		loc = time.UTC
	}
	p := firstNonEmpty(c.Param("period"), c.Query("period"))
	from, to = p, p
	if p == "" {
		from, to = c.Query("from"), c.Query("to")
		if from == "" && to == "" {
			from = time.Now().In(loc).Format("2006-01")
			to = from
		}
		if to == "" {
			to = from
		}
		if from == "" {
			from = to
		}
	}
	fields := map[string]string{}
	s, e1 := time.ParseInLocation("2006-01", from, loc)
	t, e2 := time.ParseInLocation("2006-01", to, loc)
	if e1 != nil {
		fields["from"] = "donation.period_invalid"
	}
	if e2 != nil {
		fields["to"] = "donation.period_invalid"
	}
	if e1 == nil && e2 == nil && t.Before(s) {
		fields["to"] = "donation.period_order"
	}
	if e1 == nil && e2 == nil && t.Sub(s) > 5*366*24*time.Hour {
		fields["to"] = "donation.period_too_long"
	}
	if len(fields) > 0 {
		if p != "" {
			fields = map[string]string{"period": "donation.period_invalid"}
		}
		err = apierror.Validation(fields)
		return
	}
	return from, to, s, t.AddDate(0, 1, 0), nil
}

// SummaryBucket is the count and sum of one bucket in one currency.
type SummaryBucket struct {
	Count  int          `json:"count"`
	Amount money.Amount `json:"amount"`
}

// CurrencySummary is a currency's buckets.
type CurrencySummary struct {
	Currency    string        `json:"currency"`
	Approved    SummaryBucket `json:"approved"`
	Rejected    SummaryBucket `json:"rejected"`
	Pending     SummaryBucket `json:"pending"`
	Refunded    SummaryBucket `json:"refunded"`
	ChargedBack SummaryBucket `json:"charged_back"`
	// ByStatus has every status's count and sum, including planned and non_existant.
	ByStatus map[string]SummaryBucket `json:"by_status"`
}

// Summary answers GET /manage/api/payment_transactions/summary/:period (YYYY-MM) and
// GET …/summary?from=YYYY-MM&to=YYYY-MM.
func (h *ManageHandler) Summary(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	from, to, start, end, err := txRange(c, scope)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	rows, err := scope.Query(c.Request.Context(), queries.Get("TransactionSummary"), scope.OrgID, start, end)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	defer rows.Close()
	byCur := map[string]*CurrencySummary{}
	for rows.Next() {
		var cur, status string
		var n int
		var sum int64
		if err := rows.Scan(&cur, &status, &n, &sum); err != nil {
			apierror.Abort(c, err)
			return
		}
		cs := byCur[cur]
		if cs == nil {
			cs = &CurrencySummary{Currency: cur, ByStatus: map[string]SummaryBucket{}}
			for _, b := range []*SummaryBucket{&cs.Approved, &cs.Rejected, &cs.Pending, &cs.Refunded, &cs.ChargedBack} {
				b.Amount = money.New(0, cur)
			}
			byCur[cur] = cs
		}
		cs.ByStatus[status] = SummaryBucket{Count: n, Amount: money.New(sum, cur)}
		for g, sts := range summaryGroups {
			if !contains(sts, status) {
				continue
			}
			b := map[string]*SummaryBucket{"approved": &cs.Approved, "rejected": &cs.Rejected, "pending": &cs.Pending,
				"refunded": &cs.Refunded, "charged_back": &cs.ChargedBack}[g]
			b.Count += n
			b.Amount = money.New(b.Amount.Minor+sum, cur)
		}
	}
	if err := rows.Err(); err != nil {
		apierror.Abort(c, err)
		return
	}
	out := []CurrencySummary{}
	for _, cs := range byCur {
		out = append(out, *cs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	c.JSON(http.StatusOK, gin.H{"from": from, "to": to, "currencies": out,
		"groups": summaryGroups, "group_order": summaryOrder})
}

// TransactionRow is a row behind the summary.
type TransactionRow struct {
	UUID         string       `json:"uuid"`
	Date         time.Time    `json:"date"`
	Amount       money.Amount `json:"amount"`
	Status       string       `json:"status"`
	StatusDetail string       `json:"status_detail"`
	Period       *string      `json:"period"`
	Attempt      int          `json:"attempt"`
	PaymentID    string       `json:"payment_id"`
	DonationUUID string       `json:"donation_uuid"`
	Frequency    string       `json:"frequency"`
	Campaign     CampaignRef  `json:"campaign"`
	Donor        struct {
		UUID      string `json:"uuid"`
		FirstName string `json:"first_name"`
		LastName  string `json:"last_name"`
		Email     string `json:"email"`
	} `json:"donor"`
	PaymentMethod *struct {
		Brand    string `json:"brand"`
		LastFour string `json:"last_four"`
	} `json:"payment_method"`
}

// Transactions answers GET /manage/api/payment_transactions?period=YYYY-MM (or from/to)
// &status=approved|rejected|pending|refunded|charged_back (a summary bucket) or a raw status
// &currency=ARS&page=&per_page= → {transactions, total, page, per_page, from, to}, newest first.
func (h *ManageHandler) Transactions(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	page, per, err := pagination(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	from, to, start, end, err := txRange(c, scope)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	args := []any{scope.OrgID, start, end}
	where := "t.organization_id = $1 AND t.created_at >= $2 AND t.created_at < $3"
	if s := strings.TrimSpace(c.Query("status")); s != "" {
		sts, ok := summaryGroups[s]
		if !ok {
			if !contains(allTxStatuses, s) {
				apierror.Abort(c, apierror.Validation(map[string]string{"status": "donation.invalid_option"}))
				return
			}
			sts = []string{s}
		}
		args = append(args, sts)
		where += " AND t.status = ANY($" + strconv.Itoa(len(args)) + "::text[])"
	}
	if s := strings.ToUpper(strings.TrimSpace(c.Query("currency"))); s != "" {
		args = append(args, s)
		where += " AND t.currency = $" + strconv.Itoa(len(args))
	}
	ctx := c.Request.Context()
	var total int
	if err := scope.QueryRow(ctx, "SELECT count(*) FROM transactions t WHERE "+where, args...).Scan(&total); err != nil {
		apierror.Abort(c, err)
		return
	}
	n := len(args)
	args = append(args, per, (page-1)*per)
	rows, err := scope.Query(ctx, `SELECT t.id, t.created_at, t.amount_minor, t.currency, t.status,
		coalesce(t.status_detail, ''), coalesce(t.period, ''), t.attempt, coalesce(t.gateway_payment_id, ''), d.id,
		d.recurrence, c.id, c.title, dn.id, dn.first_name, dn.last_name, dn.email, coalesce(pm.brand, ''),
		coalesce(pm.last_four, '')
		FROM transactions t
		JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
		JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
		JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
		LEFT JOIN payment_methods pm ON pm.organization_id = t.organization_id AND pm.id = t.payment_method_id
		WHERE `+where+` ORDER BY t.created_at DESC, t.id LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2), args...)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	defer rows.Close()
	out := []TransactionRow{}
	for rows.Next() {
		var t TransactionRow
		var id, did, cid, dnid uuid.UUID
		var amount int64
		var cur, period, brand, last string
		var attempt, rec int16
		if err := rows.Scan(&id, &t.Date, &amount, &cur, &t.Status, &t.StatusDetail, &period, &attempt, &t.PaymentID, &did,
			&rec, &cid, &t.Campaign.Title, &dnid, &t.Donor.FirstName, &t.Donor.LastName, &t.Donor.Email, &brand, &last); err != nil {
			apierror.Abort(c, err)
			return
		}
		t.UUID, t.DonationUUID, t.Campaign.UUID, t.Donor.UUID = id.String(), did.String(), cid.String(), dnid.String()
		t.Amount, t.Attempt, t.Frequency = money.New(amount, cur), int(attempt), frequency(int(rec))
		if period != "" {
			t.Period = &period
		}
		if brand != "" {
			t.PaymentMethod = &struct {
				Brand    string `json:"brand"`
				LastFour string `json:"last_four"`
			}{brand, last}
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"transactions": out, "total": total, "page": page, "per_page": per, "from": from, "to": to})
}
