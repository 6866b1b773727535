package donation

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
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

// Period is the months a transactions call covers: the :period parameter or ?period= (YYYY-MM), or
// ?from=&to= (YYYY-MM, both inclusive; this month without either). A transaction belongs to the
// month of its date (created_at) in the organisation's timezone.
type Period struct {
	PathPeriod string `path:"period" json:"-"`
	Period     string `query:"period" json:"-"`
	From       string `query:"from" json:"-"`
	To         string `query:"to" json:"-"`
}

// txRange is the period's first and last month and the times they start and end.
func (p Period) txRange(ctx context.Context, scope tenants.Scope) (from, to string, start, end time.Time, err error) {
	loc, err := orgLocation(ctx, scope)
	if err != nil {
		return
	}
	one := cmp.Or(p.PathPeriod, p.Period)
	from, to = one, one
	if one == "" {
		from, to = cmp.Or(p.From, p.To), cmp.Or(p.To, p.From)
		if from == "" {
			from = time.Now().In(loc).Format("2006-01")
			to = from
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
		if one != "" {
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
	// ProcessorFees and Commissions are what the approved transactions owe: the integrated payments
	// processors' fees and Aporta's commission.
	ProcessorFees money.Amount `json:"processor_fees"`
	Commissions   money.Amount `json:"commissions"`
}

// Summary is the transactions summary of a period.
type Summary struct {
	From       string              `json:"from"`
	To         string              `json:"to"`
	Currencies []CurrencySummary   `json:"currencies"`
	Groups     map[string][]string `json:"groups"`
	GroupOrder []string            `json:"group_order"`
}

// Summary answers GET /manage/api/payment_transactions/summary/:period (YYYY-MM) and
// GET …/summary?from=YYYY-MM&to=YYYY-MM.
func (s *ManageService) Summary(ctx context.Context, scope tenants.Scope, req *Period) (*Summary, error) {
	from, to, start, end, err := req.txRange(ctx, scope)
	if err != nil {
		return nil, err
	}
	rows, err := scope.Store().TransactionSummaryByStatus(ctx, sharddb.TransactionSummaryByStatusParams{
		OrganizationID: scope.OrgID, Start: start, Until: end})
	if err != nil {
		return nil, err
	}
	byCur := map[string]*CurrencySummary{}
	out := &Summary{From: from, To: to, Currencies: []CurrencySummary{}, Groups: summaryGroups, GroupOrder: summaryOrder}
	for _, r := range rows {
		cs := byCur[r.Currency]
		if cs == nil {
			cs = &CurrencySummary{Currency: r.Currency, ByStatus: map[string]SummaryBucket{}}
			for _, b := range cs.buckets() {
				b.Amount = money.New(0, r.Currency)
			}
			cs.ProcessorFees, cs.Commissions = money.New(0, r.Currency), money.New(0, r.Currency)
			byCur[r.Currency] = cs
		}
		cs.ByStatus[r.Status] = SummaryBucket{Count: int(r.Count), Amount: money.New(r.Sum, r.Currency)}
		for g, sts := range summaryGroups {
			if slices.Contains(sts, r.Status) {
				b := cs.buckets()[g]
				b.Count += int(r.Count)
				b.Amount = money.New(b.Amount.Minor+r.Sum, r.Currency)
			}
		}
	}
	fees, err := scope.Store().TransactionFeesByCurrency(ctx, sharddb.TransactionFeesByCurrencyParams{
		OrganizationID: scope.OrgID, Start: start, Until: end})
	if err != nil {
		return nil, err
	}
	for _, f := range fees {
		if cs := byCur[f.Currency]; cs != nil {
			cs.ProcessorFees, cs.Commissions = money.New(f.ProcessorFees, f.Currency), money.New(f.Commissions, f.Currency)
		}
	}
	for _, cs := range byCur {
		out.Currencies = append(out.Currencies, *cs)
	}
	sort.Slice(out.Currencies, func(i, j int) bool { return out.Currencies[i].Currency < out.Currencies[j].Currency })
	return out, nil
}

// buckets are the summary's buckets by name.
func (cs *CurrencySummary) buckets() map[string]*SummaryBucket {
	return map[string]*SummaryBucket{"approved": &cs.Approved, "rejected": &cs.Rejected, "pending": &cs.Pending,
		"refunded": &cs.Refunded, "charged_back": &cs.ChargedBack}
}

// TransactionRow is a row behind the summary: the charge attempt, as a donation's detail shows it,
// with its donation, campaign and donor.
type TransactionRow struct {
	TransactionView
	DonationUUID string      `json:"donation_uuid"`
	Frequency    string      `json:"frequency"`
	Campaign     CampaignRef `json:"campaign"`
	Donor        struct {
		UUID      string `json:"uuid"`
		FirstName string `json:"first_name"`
		LastName  string `json:"last_name"`
		Email     string `json:"email"`
	} `json:"donor"`
}

// TransactionsRequest is GET /manage/api/payment_transactions.
type TransactionsRequest struct {
	Period
	Paging
	Status   string `query:"status" json:"-"`
	Currency string `query:"currency" json:"-"`
}

// TransactionList is a page of the transactions of a period.
type TransactionList struct {
	Transactions []TransactionRow `json:"transactions"`
	Total        int              `json:"total"`
	Page         int              `json:"page"`
	PerPage      int              `json:"per_page"`
	From         string           `json:"from"`
	To           string           `json:"to"`
}

const transactionsSelect = `SELECT t.id, t.created_at, t.amount_minor, t.currency, t.status,
	coalesce(t.status_detail, ''), coalesce(t.period, ''), t.attempt, coalesce(t.gateway_payment_id, ''), d.id,
	d.recurrence, c.id, c.title, dn.id, dn.first_name, dn.last_name, dn.email, coalesce(pm.brand, ''),
	coalesce(pm.last_four, '')
	FROM transactions t
	JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
	JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
	JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
	LEFT JOIN payment_methods pm ON pm.organization_id = t.organization_id AND pm.id = t.payment_method_id
	WHERE `

// Transactions answers GET /manage/api/payment_transactions?period=YYYY-MM (or from/to)
// &status=approved|rejected|pending|refunded|charged_back (a summary bucket) or a raw status
// &currency=ARS&page=&per_page= → {transactions, total, page, per_page, from, to}, newest first.
func (s *ManageService) Transactions(ctx context.Context, scope tenants.Scope, req *TransactionsRequest) (*TransactionList, error) {
	page, per, err := req.Paging.parse()
	if err != nil {
		return nil, err
	}
	from, to, start, end, err := req.txRange(ctx, scope)
	if err != nil {
		return nil, err
	}
	var f filter
	f.add("t.organization_id = %s AND t.created_at >= %s AND t.created_at < %s", scope.OrgID, start, end)
	if st := strings.TrimSpace(req.Status); st != "" {
		sts, ok := summaryGroups[st]
		if !ok {
			if !slices.Contains(allTxStatuses, st) {
				return nil, apierror.Validation(map[string]string{"status": "donation.invalid_option"})
			}
			sts = []string{st}
		}
		f.add("t.status = ANY(%s::text[])", sts)
	}
	if cur := strings.ToUpper(strings.TrimSpace(req.Currency)); cur != "" {
		f.add("t.currency = %s", cur)
	}
	out := &TransactionList{Page: page, PerPage: per, From: from, To: to}
	out.Total, out.Transactions, err = pageOf(ctx, scope, &f, "SELECT count(*) FROM transactions t WHERE ",
		transactionsSelect, "t.created_at DESC, t.id", page, per, scanTransaction)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanTransaction reads a transactionsSelect row.
func scanTransaction(rows pgx.Rows) (TransactionRow, error) {
	var t TransactionRow
	var id, did, cid, dnid uuid.UUID
	var amount int64
	var cur, period, brand, last string
	var attempt, rec int16
	if err := rows.Scan(&id, &t.Date, &amount, &cur, &t.Status, &t.StatusDetail, &period, &attempt, &t.PaymentID, &did,
		&rec, &cid, &t.Campaign.Title, &dnid, &t.Donor.FirstName, &t.Donor.LastName, &t.Donor.Email, &brand, &last); err != nil {
		return t, err
	}
	t.UUID, t.DonationUUID, t.Campaign.UUID, t.Donor.UUID = id.String(), did.String(), cid.String(), dnid.String()
	t.Amount, t.Attempt, t.Frequency, t.Period = money.New(amount, cur), int(attempt), frequency(int(rec)), nonEmpty(period)
	if brand != "" {
		t.PaymentMethod = &CardRef{brand, last}
	}
	return t, nil
}
