// Package payouts shows an organisation the payouts of integrated payments (organisation-and-account
// §7 "Gateways"): GET /manage/api/payouts?page=N and GET /manage/api/payouts/{uuid}, the latter with
// the charges (and reversals) it paid. The workflow that makes them is workflows/payouts.
package payouts

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/bankaccounts"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// PageSize is how many payouts a page lists.
const PageSize = 20

// CodePageInvalid is a page number out of range.
const CodePageInvalid = "payouts.page_invalid"

func init() {
	i18n.Register(i18n.Catalog{
		CodePageInvalid: {i18n.ES: "La página no existe.", i18n.EN: "The page does not exist.", i18n.PT: "A página não existe."},
	})
}

// Mount mounts the routes; only administrators see payouts, as they see the bank accounts.
func Mount(g endpoint.Groups) {
	admin := g.Authz.Require(authz.ManageOrganization)
	g.Manage.GET("/payouts", admin, endpoint.HandleScoped(List))
	g.Manage.GET("/payouts/:id", admin, endpoint.HandleScoped(Get))
}

// Payout is a payout as the organisation sees it.
type Payout struct {
	UUID   uuid.UUID `json:"uuid"`
	Status string    `json:"status"` // waiting, sending, paid, failed
	// Reason is why a payout waits or failed: an error code (payouts.no_bank_account, …).
	Reason     *string      `json:"reason"`
	Gross      money.Amount `json:"gross"`      // the charges
	Commission money.Amount `json:"commission"` // Aporta's commission on them
	Fee        money.Amount `json:"fee"`        // the processor's fee on them
	Deducted   money.Amount `json:"deducted"`   // what earlier payouts paid for charges given back since
	Net        money.Amount `json:"net"`        // what the bank account receives
	Charges    int          `json:"charges"`
	// BankAccount is the masked number it goes to, with the bank's name; null while it waits.
	BankAccount *BankAccount `json:"bank_account"`
	CreatedAt   time.Time    `json:"created_at"`
	SentAt      *time.Time   `json:"sent_at"`
	PaidAt      *time.Time   `json:"paid_at"`
}

// BankAccount is where a payout goes, masked.
type BankAccount struct {
	BankName      string `json:"bank_name"`
	AccountNumber string `json:"account_number"`
}

func present(r sharddb.ListPayoutsRow) Payout {
	m := func(minor int64) money.Amount { return money.New(minor, r.Currency) }
	p := Payout{UUID: r.ID, Status: r.Status, Reason: r.WaitReason, Gross: m(r.GrossMinor), Commission: m(r.CommissionMinor),
		Fee: m(r.FeeMinor), Deducted: m(r.DeductedMinor), Net: m(r.NetMinor), Charges: int(r.Charges), CreatedAt: r.CreatedAt.UTC(),
		SentAt: utc(r.SentAt), PaidAt: utc(r.PaidAt)}
	if r.Status == "failed" {
		p.Reason = r.Failure
	}
	if r.BankName != nil && r.BankLast4 != nil {
		p.BankAccount = &BankAccount{BankName: *r.BankName, AccountNumber: bankaccounts.Mask(*r.BankLast4)}
	}
	return p
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// ListRequest is GET /manage/api/payouts?page=N (the first when absent).
type ListRequest struct {
	Page int `query:"page" json:"-"`
}

// Validate refuses a page out of range.
func (r *ListRequest) Validate() error {
	if r.Page == 0 {
		r.Page = 1
	}
	if r.Page < 1 || r.Page > 100_000 {
		return apierror.Validation(map[string]string{"page": CodePageInvalid})
	}
	return nil
}

// Page is a page of payouts, newest first.
type Page struct {
	Payouts    []Payout `json:"payouts"`
	Page       int      `json:"page"`
	TotalPages int      `json:"total_pages"`
	Total      int      `json:"total"`
}

// List answers a page of the organisation's payouts.
func List(ctx context.Context, scope tenants.Scope, r *ListRequest) (*Page, error) {
	rows, err := scope.Store().ListPayouts(ctx, sharddb.ListPayoutsParams{OrganizationID: scope.OrgID, Lim: PageSize,
		Off: int32((r.Page - 1) * PageSize)})
	if err != nil {
		return nil, err
	}
	out := &Page{Payouts: []Payout{}, Page: r.Page}
	for _, row := range rows {
		out.Payouts = append(out.Payouts, present(row))
		out.Total = int(row.Total)
	}
	out.TotalPages = (out.Total + PageSize - 1) / PageSize
	return out, nil
}

// GetRequest is GET /manage/api/payouts/{uuid}.
type GetRequest struct {
	ID string `path:"id" json:"-"`
}

// Item is a charge a payout paid (kind charge), or one it deducted because an earlier payout paid it
// and it was given back since (kind reversal: negative amounts).
type Item struct {
	TransactionUUID uuid.UUID    `json:"transaction_uuid"`
	DonationUUID    uuid.UUID    `json:"donation_uuid"`
	Kind            string       `json:"kind"`
	Status          string       `json:"status"` // the charge's status now (approved, refunded, charged_back…)
	ChargedAt       time.Time    `json:"charged_at"`
	DonorName       string       `json:"donor_name"`
	CampaignTitle   string       `json:"campaign_title"`
	Amount          money.Amount `json:"amount"`
	Commission      money.Amount `json:"commission"`
	Fee             money.Amount `json:"fee"`
	Net             money.Amount `json:"net"`
}

// Detail is a payout with its charges.
type Detail struct {
	Payout
	Items []Item `json:"items"`
}

// Get answers one of the organisation's payouts with its charges; another organisation's is not found.
func Get(ctx context.Context, scope tenants.Scope, r *GetRequest) (*Detail, error) {
	id, err := uuid.Parse(r.ID)
	if err != nil {
		return nil, apierror.NotFound()
	}
	rows, err := scope.Store().ListPayouts(ctx, sharddb.ListPayoutsParams{OrganizationID: scope.OrgID, ID: &id, Lim: 1})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, apierror.NotFound()
	}
	items, err := scope.Store().PayoutItems(ctx, sharddb.PayoutItemsParams{OrganizationID: scope.OrgID, PayoutID: id})
	if err != nil {
		return nil, err
	}
	out := &Detail{Payout: present(rows[0]), Items: []Item{}}
	for _, it := range items {
		m := func(minor int64) money.Amount { return money.New(minor, it.Currency) }
		out.Items = append(out.Items, Item{TransactionUUID: it.TransactionID, DonationUUID: it.DonationID, Kind: it.Kind,
			Status: it.TransactionStatus, ChargedAt: it.ChargedAt.UTC(), DonorName: it.DonorName, CampaignTitle: it.CampaignTitle,
			Amount: m(it.GrossMinor), Commission: m(it.CommissionMinor), Fee: m(it.FeeMinor), Net: m(it.NetMinor)})
	}
	return out, nil
}
