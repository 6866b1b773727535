package donation

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
)

// row is a donation with its campaign, donor and active payment method, as the shard stores it;
// the smallint columns the code compares (recurrence, collect day, instalments) are ints here.
type row struct {
	sharddb.DonationForManageRow
	Recurrence  int
	CollectDay  *int
	Instalments int
	Donor       DonorView
	Submitted   *DonorSnapshot
}

func loadRow(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*row, error) {
	g, err := scope.Store().DonationForManage(ctx, sharddb.DonationForManageParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return nil, err
	}
	r := &row{DonationForManageRow: g, Recurrence: int(g.Recurrence), Instalments: int(g.Instalments),
		Donor: DonorView{UUID: g.DonorID, FirstName: g.FirstName, LastName: g.LastName, Email: g.Email, Phone: g.Phone,
			Cellphone: g.Cellphone, UIDType: g.UidType, UIDNumber: g.UidNumber, Street: g.Street, City: g.City,
			State: g.State, Country: g.Country, Zipcode: g.Zipcode, Gender: g.Gender, CreatedAt: g.DonorCreatedAt,
			Discarded: g.DonorDiscardedAt != nil, DiscardedAt: g.DonorDiscardedAt, DiscardReason: g.DonorDiscardReason}}
	if g.CollectDay != nil {
		d := int(*g.CollectDay)
		r.CollectDay = &d
	}
	if len(g.DonorSnapshot) > 0 {
		if err := json.Unmarshal(g.DonorSnapshot, &r.Submitted); err != nil {
			return nil, err
		}
	}
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
	// Gateway is where a new card is tokenised, in the browser, when the payment method changes,
	// with the brands the organisation's account takes (as on the public form).
	Gateway campaign.Checkout `json:"gateway"`
	// Collect is set by collect_payment only.
	Collect *CollectView `json:"collect,omitempty"`
	// answerStatus is 200 unless the action answered otherwise (201 for a new upgrade, 202 for a
	// charge the gateway has not decided yet).
	answerStatus
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
	UUID         string       `json:"uuid"`
	Amount       money.Amount `json:"amount"`
	Date         time.Time    `json:"date"`
	Status       string       `json:"status"`
	StatusDetail string       `json:"status_detail"`
	// Decline is why a rejected attempt was declined, in words in the reader's language ("" otherwise).
	Decline       string   `json:"decline"`
	Period        *string  `json:"period"` // YYYY-MM, null for one-time
	Attempt       int      `json:"attempt"`
	PaymentID     string   `json:"payment_id"`
	PaymentMethod *CardRef `json:"payment_method"`
	// Receipt is the number of an approved charge's receipt (null: none).
	Receipt *int64 `json:"receipt"`
}

// CardRef names the card a row was charged to.
type CardRef struct {
	Brand    string `json:"brand"`
	LastFour string `json:"last_four"`
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
	d := Detail{Donation: donationDetail(r, time.Now()), Donor: r.Donor, VersionsCount: int(r.VersionsCount)}
	if r.PaymentMethodID != nil {
		d.PaymentMethod = &PaymentMethodView{UUID: r.PaymentMethodID.String(), Brand: r.PmBrand, BIN: r.PmBin,
			LastFour: r.PmLastFour, ExpiryMonth: int(r.PmExpiryMonth), ExpiryYear: int(r.PmExpiryYear),
			Expiry: expiry(int(r.PmExpiryMonth), int(r.PmExpiryYear)), HolderName: r.PmHolderName}
	}
	q, key := scope.Store(), sharddb.DonationTransactionsForManageParams{OrganizationID: scope.OrgID, DonationID: id}
	txs, err := q.DonationTransactionsForManage(ctx, key)
	if err != nil {
		return d, err
	}
	numbers, err := q.DonationReceiptNumbers(ctx, sharddb.DonationReceiptNumbersParams(key))
	if err != nil {
		return d, err
	}
	receipts := make(map[uuid.UUID]int64, len(numbers))
	for _, n := range numbers {
		receipts[n.TransactionID] = n.Number
	}
	d.Transactions = make([]TransactionView, len(txs))
	lang := i18n.FromContext(ctx)
	for i, t := range txs {
		d.Transactions[i] = TransactionView{UUID: t.ID.String(), Amount: money.New(t.AmountMinor, t.Currency), Date: t.Date,
			Status: t.Status, StatusDetail: t.StatusDetail, Period: nonEmpty(t.Period), Attempt: int(t.Attempt),
			PaymentID: t.PaymentID}
		if n, ok := receipts[t.ID]; ok {
			d.Transactions[i].Receipt = &n
		}
		if dc := gateway.DeclineOf(t.StatusDetail); dc != "" && t.Status == "rejected" {
			d.Transactions[i].Decline = i18n.T(lang, "decline."+string(dc))
		}
		if t.Brand != "" || t.LastFour != "" {
			d.Transactions[i].PaymentMethod = &CardRef{t.Brand, t.LastFour}
		}
	}
	ups, err := q.DonationUpgradesForManage(ctx, sharddb.DonationUpgradesForManageParams(key))
	if err != nil {
		return d, err
	}
	d.Upgrades = make([]UpgradeView, len(ups))
	for i, u := range ups {
		d.Upgrades[i] = UpgradeView{ID: u.ID.String(), Percentage: u.Percentage, PeriodMonths: int(u.PeriodMonths),
			OldAmount: money.New(u.OldAmountMinor, r.Currency), NewAmount: money.New(u.NewAmountMinor, r.Currency),
			NextDate: u.NextDate.Format(time.DateOnly), Auto: u.Auto, RemovedAt: u.RemovedAt, CreatedAt: u.CreatedAt}
	}
	if len(d.Upgrades) > 0 && d.Upgrades[0].RemovedAt == nil {
		u := d.Upgrades[0]
		d.Upgrade = &u
	}
	applied, err := q.DonationUpgradeHistoryForManage(ctx, sharddb.DonationUpgradeHistoryForManageParams(key))
	if err != nil {
		return d, err
	}
	d.UpgradeHistory = make([]UpgradeAppliedView, len(applied))
	for i, h := range applied {
		d.UpgradeHistory[i] = UpgradeAppliedView{UpgradeID: h.UpgradeID.String(), AppliedOn: h.AppliedOn.Format(time.DateOnly),
			OldAmount: money.New(h.OldAmountMinor, r.Currency), NewAmount: money.New(h.NewAmountMinor, r.Currency)}
	}
	return d, nil
}

// donationDetail is the donation part of the detail.
func donationDetail(r *row, now time.Time) DonationDetail {
	dd := DonationDetail{UUID: r.ID.String(), Amount: money.New(r.AmountMinor, r.Currency), Items: r.Items,
		FormValues: r.FormValues, Campaign: CampaignRef{UUID: r.CampaignID.String(), Title: r.CampaignTitle},
		Recurrence: r.Recurrence, Frequency: frequency(r.Recurrence), CollectDay: r.CollectDay, Status: r.Status,
		PausedReason: nonEmpty(r.PausedReason), PausedSince: r.PausedSince, DiscardedAt: r.DiscardedAt,
		DiscardReason: nonEmpty(r.DiscardReason), NextChargeDate: chargeDate(r.NextChargeDate, r.Status),
		UpgradeOptIn: r.UpgradeOptIn, Instalments: r.Instalments, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Actions: actions(r, now), SubmittedDonor: r.Submitted}
	dd.CollectLastDay = r.Recurrence == 1 && r.CollectDay == nil
	if len(dd.Items) == 0 {
		dd.Items = json.RawMessage("[]")
	}
	return dd
}

// nonEmpty is s, or nil when it is empty (a JSON null).
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// chargeDate is a next charge date as YYYY-MM-DD; a discarded donation has none.
func chargeDate(next *time.Time, status string) *string {
	if next == nil || status == collection.StatusDiscarded {
		return nil
	}
	s := next.Format(time.DateOnly)
	return &s
}

// collectDue is the collection workflow's collect-now rule (collection.ErrNotDue) read from the
// row: the next unpaid period may be collected from the first day of its month.
func collectDue(r *row, now time.Time) bool {
	if r.NextChargeDate == nil {
		return true // not synced yet: the workflow decides
	}
	loc, err := time.LoadLocation(r.Timezone)
	if err != nil {
		loc = time.UTC
	}
	return !collectday.PeriodOf(now.In(loc)).Before(collectday.PeriodOf(*r.NextChargeDate))
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
