package donation

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
)

// row is a donation with its campaign, donor and active payment method, as the shard stores it.
type row struct {
	ID                 uuid.UUID
	Amount             int64
	Currency           string
	Items              []byte
	Recurrence         int
	CollectDay         *int
	Status             string
	PausedReason       string
	PausedSince        *time.Time
	DiscardedAt        *time.Time
	DiscardReason      string
	NextChargeDate     *time.Time
	CreatedAt          time.Time
	UpdatedAt          time.Time
	UpgradeOptIn       bool
	Instalments        int
	ConsecutiveFailed  int
	CampaignID         uuid.UUID
	CampaignTitle      string
	Donor              DonorView
	PaymentMethodID    *uuid.UUID
	PMGateway          string
	PMCustomerID       string
	PMCardID           string
	PMBrand, PMBIN     string
	PMLastFour         string
	PMExpMonth         int
	PMExpYear          int
	PMHolder           string
	VersionsCount      int
	OrganizationTZName string
}

func loadRow(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*row, error) {
	r := &row{}
	var day *int16
	var rec, inst int16
	var expM, expY int16
	var dn = &r.Donor
	err := scope.QueryRow(ctx, queries.Get("ManageDonation"), scope.OrgID, id).Scan(
		&r.ID, &r.Amount, &r.Currency, &r.Items, &rec, &day, &r.Status, &r.PausedReason,
		&r.PausedSince, &r.DiscardedAt, &r.DiscardReason, &r.NextChargeDate, &r.CreatedAt, &r.UpdatedAt,
		&r.UpgradeOptIn, &inst, &r.ConsecutiveFailed,
		&r.CampaignID, &r.CampaignTitle,
		&dn.UUID, &dn.FirstName, &dn.LastName, &dn.Email, &dn.Phone, &dn.Cellphone, &dn.UIDType, &dn.UIDNumber,
		&dn.Street, &dn.City, &dn.State, &dn.Country, &dn.Zipcode, &dn.Gender, &dn.CreatedAt, &dn.DiscardedAt,
		&dn.DiscardReason,
		&r.PaymentMethodID, &r.PMGateway, &r.PMCustomerID, &r.PMCardID, &r.PMBrand, &r.PMBIN, &r.PMLastFour,
		&expM, &expY, &r.PMHolder, &r.VersionsCount, &r.OrganizationTZName)
	if err != nil {
		return nil, err
	}
	r.Recurrence, r.Instalments, r.PMExpMonth, r.PMExpYear = int(rec), int(inst), int(expM), int(expY)
	if day != nil {
		d := int(*day)
		r.CollectDay = &d
	}
	dn.Discarded = dn.DiscardedAt != nil
	return r, nil
}

// Detail is GET /manage/api/donations/:uuid and the answer of every donation action.
type Detail struct {
	Donation      DonationDetail     `json:"donation"`
	Donor         DonorView          `json:"donor"`
	PaymentMethod *PaymentMethodView `json:"payment_method"` // null: none
	Transactions  []TransactionView  `json:"transactions"`   // newest first, at most 120
	Upgrade       *UpgradeView       `json:"upgrade"`        // the current periodic increase, null: none
	Upgrades      []UpgradeView      `json:"upgrades"`       // every increase, current first, removed ones after
	// UpgradeHistory is every application of an increase, newest first.
	UpgradeHistory []UpgradeAppliedView `json:"upgrade_history"`
	VersionsCount  int                  `json:"versions_count"`
	// Gateway is where a new card is tokenised, in the browser, when the payment method changes.
	Gateway Tokenizer `json:"gateway"`
	// Collect is set by collect_payment only.
	Collect *CollectView `json:"collect,omitempty"`
}

// Tokenizer is the gateway's browser-facing tokeniser: card data goes there, never to Aporta.
type Tokenizer struct {
	Name         string `json:"name"`
	TokenizerURL string `json:"tokenizer_url"`
	PublicKey    string `json:"public_key"`
}

// DonationDetail is the donation part of the detail.
type DonationDetail struct {
	UUID   string          `json:"uuid"`
	Amount money.Amount    `json:"amount"`
	Items  json.RawMessage `json:"items"` // [{uuid, amount (minor), item_name, quantity}]
	// FormValues are the answers to the campaign's extra form fields: [{order, type, title, label, value}].
	FormValues     json.RawMessage `json:"form_values"`
	Campaign       CampaignRef     `json:"campaign"`
	Recurrence     int             `json:"recurrence"` // 1 monthly, 0 one-time
	Frequency      string          `json:"frequency"`  // monthly, one_time
	CollectDay     *int            `json:"collect_day"`
	CollectLastDay bool            `json:"collect_last_day"` // monthly with collect_day null: last day of the month
	Status         string          `json:"status"`           // pending, active, paused, discarded, rejected
	PausedReason   *string         `json:"paused_reason"`
	PausedSince    *time.Time      `json:"paused_since"`
	DiscardedAt    *time.Time      `json:"discarded_at"`
	DiscardReason  *string         `json:"discard_reason"`
	NextChargeDate *string         `json:"next_charge_date"` // YYYY-MM-DD
	UpgradeOptIn   bool            `json:"upgrade_opt_in"`
	Instalments    int             `json:"instalments"`
	CreatedAt      time.Time       `json:"created_at"`
	UpdatedAt      time.Time       `json:"updated_at"`
	// Actions lists what can be done now: pause, restore, discard, collect_payment, change_amount,
	// change_payment_method, upgrade.
	Actions []string `json:"actions"`
	// SubmittedDonor is the donor's data as the public form submitted it with this donation, which
	// may differ from the donor's record; null for donations made elsewhere or before it was kept.
	SubmittedDonor *DonorSnapshot `json:"submitted_donor"`
}

// CampaignRef names a campaign.
type CampaignRef struct {
	UUID  string `json:"uuid"`
	Title string `json:"title"`
}

// DonorView is the donor (spec §3).
type DonorView struct {
	UUID          uuid.UUID  `json:"uuid"`
	FirstName     string     `json:"first_name"`
	LastName      string     `json:"last_name"`
	Email         string     `json:"email"`
	Phone         string     `json:"phone"`
	Cellphone     string     `json:"cellphone"`
	UIDType       string     `json:"uid_type"`
	UIDNumber     string     `json:"uid_number"`
	Street        string     `json:"street"`
	City          string     `json:"city"`
	State         string     `json:"state"`
	Country       string     `json:"country"`
	Zipcode       string     `json:"zipcode"`
	Gender        string     `json:"gender"`
	CreatedAt     time.Time  `json:"created_at"`
	Discarded     bool       `json:"discarded"`
	DiscardedAt   *time.Time `json:"discarded_at"`
	DiscardReason string     `json:"discard_reason"`
}

// PaymentMethodView is the active card: never more than brand, BIN, last four, expiry and holder.
type PaymentMethodView struct {
	UUID        string `json:"uuid"`
	Brand       string `json:"brand"`
	BIN         string `json:"bin"`
	LastFour    string `json:"last_four"`
	ExpiryMonth int    `json:"expiry_month"`
	ExpiryYear  int    `json:"expiry_year"`
	Expiry      string `json:"expiry"` // MM/YYYY
	HolderName  string `json:"holder_name"`
}

// TransactionView is one charge attempt.
type TransactionView struct {
	UUID          string       `json:"uuid"`
	Amount        money.Amount `json:"amount"`
	Date          time.Time    `json:"date"`
	Status        string       `json:"status"`
	StatusDetail  string       `json:"status_detail"`
	Period        *string      `json:"period"` // YYYY-MM, null for one-time
	Attempt       int          `json:"attempt"`
	PaymentID     string       `json:"payment_id"`
	PaymentMethod *struct {
		Brand    string `json:"brand"`
		LastFour string `json:"last_four"`
	} `json:"payment_method"`
}

// UpgradeView is a periodic increase.
type UpgradeView struct {
	ID           string       `json:"id"`
	Percentage   string       `json:"percentage"` // "10.50"
	PeriodMonths int          `json:"period"`     // 1, 2, 3, 4, 6 or 12
	OldAmount    money.Amount `json:"old_amount"`
	NewAmount    money.Amount `json:"new_amount"`
	NextDate     string       `json:"next_date"` // YYYY-MM-DD
	Auto         bool         `json:"auto"`
	RemovedAt    *time.Time   `json:"removed_at"`
	CreatedAt    time.Time    `json:"created_at"`
}

// UpgradeAppliedView is one application of an increase.
type UpgradeAppliedView struct {
	UpgradeID string       `json:"upgrade_id"`
	AppliedOn string       `json:"applied_on"`
	OldAmount money.Amount `json:"old_amount"`
	NewAmount money.Amount `json:"new_amount"`
}

func detail(ctx context.Context, scope tenants.Scope, id uuid.UUID) (Detail, error) {
	r, err := loadRow(ctx, scope, id)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Donor: r.Donor, VersionsCount: r.VersionsCount, Transactions: []TransactionView{},
		Upgrades: []UpgradeView{}, UpgradeHistory: []UpgradeAppliedView{}}
	dd := DonationDetail{UUID: r.ID.String(), Amount: money.New(r.Amount, r.Currency), Items: r.Items,
		Campaign: CampaignRef{UUID: r.CampaignID.String(), Title: r.CampaignTitle}, Recurrence: r.Recurrence,
		Frequency: frequency(r.Recurrence), CollectDay: r.CollectDay, Status: r.Status, PausedSince: r.PausedSince,
		DiscardedAt: r.DiscardedAt, UpgradeOptIn: r.UpgradeOptIn, Instalments: r.Instalments, CreatedAt: r.CreatedAt,
		UpdatedAt: r.UpdatedAt, Actions: actions(r, time.Now())}
	if r.Recurrence == 1 && r.CollectDay == nil {
		dd.CollectLastDay = true
	}
	if r.PausedReason != "" {
		dd.PausedReason = &r.PausedReason
	}
	if r.DiscardReason != "" {
		dd.DiscardReason = &r.DiscardReason
	}
	if r.NextChargeDate != nil && r.Status != "discarded" {
		s := r.NextChargeDate.Format(time.DateOnly)
		dd.NextChargeDate = &s
	}
	if len(dd.Items) == 0 {
		dd.Items = json.RawMessage("[]")
	}
	if err := scope.QueryRow(ctx, queries.Get("DonationSubmitted"), scope.OrgID, id).Scan(&dd.FormValues, &dd.SubmittedDonor); err != nil {
		return Detail{}, err
	}
	d.Donation = dd
	if r.PaymentMethodID != nil {
		d.PaymentMethod = &PaymentMethodView{UUID: r.PaymentMethodID.String(), Brand: r.PMBrand, BIN: r.PMBIN,
			LastFour: r.PMLastFour, ExpiryMonth: r.PMExpMonth, ExpiryYear: r.PMExpYear,
			Expiry: expiry(r.PMExpMonth, r.PMExpYear), HolderName: r.PMHolder}
	}

	rows, err := scope.Query(ctx, queries.Get("DonationTransactions"), scope.OrgID, id, 120)
	if err != nil {
		return d, err
	}
	for rows.Next() {
		var t TransactionView
		var tid uuid.UUID
		var amount int64
		var cur, period, brand, last string
		var attempt int16
		if err := rows.Scan(&tid, &amount, &cur, &t.Status, &t.StatusDetail, &period, &attempt, &t.PaymentID, &t.Date,
			&brand, &last); err != nil {
			rows.Close()
			return d, err
		}
		t.UUID, t.Amount, t.Attempt = tid.String(), money.New(amount, cur), int(attempt)
		if period != "" {
			t.Period = &period
		}
		if brand != "" || last != "" {
			t.PaymentMethod = &struct {
				Brand    string `json:"brand"`
				LastFour string `json:"last_four"`
			}{brand, last}
		}
		d.Transactions = append(d.Transactions, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, err
	}

	rows, err = scope.Query(ctx, queries.Get("DonationUpgrades"), scope.OrgID, id)
	if err != nil {
		return d, err
	}
	for rows.Next() {
		var u UpgradeView
		var uid uuid.UUID
		var period int16
		var old, nw int64
		var next time.Time
		if err := rows.Scan(&uid, &u.Percentage, &period, &old, &nw, &next, &u.Auto, &u.RemovedAt, &u.CreatedAt); err != nil {
			rows.Close()
			return d, err
		}
		u.ID, u.PeriodMonths, u.NextDate = uid.String(), int(period), next.Format(time.DateOnly)
		u.OldAmount, u.NewAmount = money.New(old, r.Currency), money.New(nw, r.Currency)
		d.Upgrades = append(d.Upgrades, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, err
	}
	if len(d.Upgrades) > 0 && d.Upgrades[0].RemovedAt == nil {
		u := d.Upgrades[0]
		d.Upgrade = &u
	}

	rows, err = scope.Query(ctx, queries.Get("DonationUpgradeHistory"), scope.OrgID, id)
	if err != nil {
		return d, err
	}
	for rows.Next() {
		var h UpgradeAppliedView
		var uid uuid.UUID
		var on time.Time
		var old, nw int64
		if err := rows.Scan(&uid, &on, &old, &nw); err != nil {
			rows.Close()
			return d, err
		}
		h.UpgradeID, h.AppliedOn = uid.String(), on.Format(time.DateOnly)
		h.OldAmount, h.NewAmount = money.New(old, r.Currency), money.New(nw, r.Currency)
		d.UpgradeHistory = append(d.UpgradeHistory, h)
	}
	rows.Close()
	return d, rows.Err()
}

// collectDue is the collection workflow's collect-now rule (collection.ErrNotDue) read from the
// row: the next unpaid period may be collected from the first day of its month.
func collectDue(r *row, now time.Time) bool {
	if r.NextChargeDate == nil {
		return true // not synced yet: the workflow decides
	}
	loc, err := time.LoadLocation(r.OrganizationTZName)
	if err != nil {
		loc = time.UTC
	}
	return !collection.PeriodOf(now.In(loc)).Before(collection.PeriodOf(*r.NextChargeDate))
}

func frequency(rec int) string {
	if rec == 1 {
		return "monthly"
	}
	return "one_time"
}

func expiry(m, y int) string {
	if m == 0 {
		return ""
	}
	return twoDigits(m) + "/" + itoa(y)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + itoa(n)
	}
	return itoa(n)
}

func itoa(n int) string { return strconv.Itoa(n) }

// actions lists what the organisation can do with the donation now.
func actions(r *row, now time.Time) []string {
	out := []string{}
	if r.Status == "discarded" {
		return out
	}
	monthly := r.Recurrence == 1 && (r.Status == "active" || r.Status == "paused")
	if monthly {
		switch r.Status {
		case "active":
			out = append(out, "pause")
			if collectDue(r, now) {
				out = append(out, "collect_payment")
			}
		case "paused":
			out = append(out, "restore")
		}
		out = append(out, "change_amount", "change_payment_method", "upgrade")
	}
	out = append(out, "discard", "edit_donor")
	return out
}
