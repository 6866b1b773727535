// Package bankaccounts serves organisations' payout bank accounts (organisation-and-account §7
// "Gateways"): GET/POST /manage/api/bank_accounts and PATCH …/{uuid}. Account numbers are checked by
// the country's rules, stored sealed and answered masked (internal/bankaccounts); no answer or log carries one in full.
package bankaccounts

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/bankaccounts"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/tenants"
)

// Handler serves the routes.
type Handler struct{ store *bankaccounts.Store }

// NewHandler builds the handler; box seals the account numbers (the gateway tokens' box).
func NewHandler(box *secrets.Box) Handler { return Handler{store: &bankaccounts.Store{Box: box}} }

// Mount mounts the routes; only administrators see or change payout accounts.
func (h Handler) Mount(g endpoint.Groups) {
	admin := g.Authz.Require(authz.ManageOrganization)
	g.Manage.GET("/bank_accounts", admin, endpoint.HandleScoped(h.List))
	g.Manage.POST("/bank_accounts", admin, endpoint.HandleScoped(h.Create))
	g.Manage.PATCH("/bank_accounts/:id", admin, endpoint.HandleScoped(h.Patch))
}

// Account is an account as the API shows it: the number masked to its last four digits.
type Account struct {
	UUID             uuid.UUID `json:"uuid"`
	BankName         string    `json:"bank_name"`
	BankCode         string    `json:"bank_code"`
	AccountNumber    string    `json:"account_number"` // masked: •••• and the last four digits
	AccountType      *string   `json:"account_type"`
	Currency         string    `json:"currency"`
	BankAddress      *string   `json:"bank_address"`
	BankCity         *string   `json:"bank_city"`
	BankBranch       *string   `json:"bank_branch"`
	ContactFirstName string    `json:"contact_first_name"`
	ContactLastName  string    `json:"contact_last_name"`
	ContactEmail     string    `json:"contact_email"`
	ContactPhone     string    `json:"contact_phone"`
	Primary          bool      `json:"primary"`
	CreatedAt        time.Time `json:"created_at"`
}

func present(a bankaccounts.Account) Account {
	return Account{UUID: a.ID, BankName: a.BankName, BankCode: a.BankCode, AccountNumber: bankaccounts.Mask(a.Last4),
		AccountType: a.AccountType, Currency: a.Currency, BankAddress: a.BankAddress, BankCity: a.BankCity,
		BankBranch: a.BankBranch, ContactFirstName: a.ContactFirstName, ContactLastName: a.ContactLastName,
		ContactEmail: a.ContactEmail, ContactPhone: a.ContactPhone, Primary: a.Primary, CreatedAt: a.CreatedAt.UTC()}
}

// List is GET /manage/api/bank_accounts.
type List struct {
	BankAccounts []Account `json:"bank_accounts"` // the first is the active one
}

// List answers the organisation's accounts, the active one first.
func (h Handler) List(ctx context.Context, scope tenants.Scope, _ *struct{}) (*List, error) {
	accounts, err := h.store.List(ctx, scope)
	if err != nil {
		return nil, err
	}
	out := &List{BankAccounts: make([]Account, len(accounts))}
	for i, a := range accounts {
		out.BankAccounts[i] = present(a)
	}
	return out, nil
}

// Created answers a new account with 201.
type Created struct{ Account }

// StatusCode is 201.
func (Created) StatusCode() int { return http.StatusCreated }

// Create is POST /manage/api/bank_accounts with the form's fields.
func (h Handler) Create(ctx context.Context, scope tenants.Scope, f *bankaccounts.Form) (*Created, error) {
	c, currency, err := check(ctx, scope, *f, false)
	if err != nil {
		return nil, err
	}
	a, err := h.store.Create(ctx, scope, c, currency)
	if err != nil {
		return nil, err
	}
	return &Created{present(a)}, nil
}

// PatchRequest is PATCH /manage/api/bank_accounts/{uuid}: the whole form again; an empty
// account_number keeps the stored one (the form only ever sees it masked).
type PatchRequest struct {
	ID string `path:"id" json:"-"`
	bankaccounts.Form
}

// Patch edits one of the organisation's accounts; another organisation's id is not found.
func (h Handler) Patch(ctx context.Context, scope tenants.Scope, r *PatchRequest) (*Account, error) {
	id, err := uuid.Parse(r.ID)
	if err != nil {
		return nil, apierror.NotFound()
	}
	current, err := h.store.Get(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	c, _, err := check(ctx, scope, r.Form, true)
	if err != nil {
		return nil, err
	}
	a, err := h.store.Update(ctx, scope, current, c)
	if err != nil {
		return nil, invalid(err)
	}
	out := present(a)
	return &out, nil
}

// check validates a form against the organisation's country; it returns the country's currency,
// the one a payout account must hold (global payments pay out in local currency).
func check(ctx context.Context, scope tenants.Scope, f bankaccounts.Form, keepNumber bool) (bankaccounts.Checked, string, error) {
	params, err := reference.Banks(ctx, scope.Store(), scope.Country)
	if err != nil {
		return bankaccounts.Checked{}, "", err
	}
	countries, err := scope.Store().Countries(ctx, []string{scope.Country})
	if err != nil {
		return bankaccounts.Checked{}, "", err
	}
	if len(countries) != 1 || len(params.Banks) == 0 {
		return bankaccounts.Checked{}, "", apierror.New(http.StatusUnprocessableEntity, "bank_account.country_unsupported")
	}
	c, err := bankaccounts.Check(scope.Country, params, f, keepNumber)
	return c, countries[0].Currency, invalid(err)
}

// invalid is a form's *bankaccounts.Invalid as the API's 422 with field errors.
func invalid(err error) error {
	var inv *bankaccounts.Invalid
	if errors.As(err, &inv) {
		return apierror.Validation(inv.Fields)
	}
	return err
}

func init() {
	i18n.Register(i18n.Catalog{
		"bank_account.country_unsupported": {
			i18n.ES: "Todavía no recibimos cuentas bancarias de tu país.",
			i18n.EN: "We do not take bank accounts from your country yet.",
			i18n.PT: "Ainda não recebemos contas bancárias do seu país.",
		},
	})
}
