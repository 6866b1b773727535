// Package bankaccounts keeps organisations' payout bank accounts (issue #13; organisation-and-account
// §3 "Bank account", §5 "Bank account form"): it checks a form against the country's bank reference
// data (internal/reference) and number rules (internal/bankcheck), and stores the account number
// sealed (internal/secrets), keeping only its last four digits in clear for the masked display. The
// API (api/bankaccounts) lists, creates and edits; payouts read the number back through Number.
package bankaccounts

import (
	"context"
	"errors"
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/internal/bankcheck"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Form is what the bank account form sends (§3 "Bank account"). Strings are trimmed before checks.
type Form struct {
	BankName         string `json:"bank_name"`
	BankCode         string `json:"bank_code"`
	AccountNumber    string `json:"account_number"`
	AccountType      string `json:"account_type"`
	BankAddress      string `json:"bank_address"`
	BankCity         string `json:"bank_city"`
	BankBranch       string `json:"bank_branch"`
	ContactFirstName string `json:"contact_first_name"`
	ContactLastName  string `json:"contact_last_name"`
	ContactEmail     string `json:"contact_email"`
	ContactPhone     string `json:"contact_phone"`
	Primary          *bool  `json:"primary,omitempty"` // absent: true (a new account becomes the active one)
}

// Account is a stored account without its number: only the last four digits.
type Account struct {
	ID               uuid.UUID
	Country          string
	BankCode         string
	BankName         string
	Last4            string
	AccountType      *string
	Currency         string
	BankAddress      *string
	BankCity         *string
	BankBranch       *string
	ContactFirstName string
	ContactLastName  string
	ContactEmail     string
	ContactPhone     string
	Primary          bool
	CreatedAt        time.Time
	UpdatedAt        time.Time

	sealed secrets.Sealed
	orgID  uuid.UUID
}

// Mask is how a stored number is shown: its last four digits only.
func Mask(last4 string) string { return "•••• " + last4 }

// Invalid is a form that breaks rules: field → error code (keys of the i18n catalogue).
type Invalid struct{ Fields map[string]string }

func (e *Invalid) Error() string { return "bankaccounts: invalid form" }

// Store reads and writes accounts; its Box seals the numbers.
type Store struct{ Box *secrets.Box }

// aad binds a sealed number to its row: a blob copied to another organisation's row does not open.
func aad(orgID, id uuid.UUID) []byte {
	return []byte("bank-account/" + orgID.String() + "/" + id.String())
}

func fromRow(r sharddb.BankAccount) Account {
	return Account{ID: r.ID, Country: r.Country, BankCode: r.BankCode, BankName: r.BankName, Last4: r.AccountLast4,
		AccountType: r.AccountType, Currency: r.Currency, BankAddress: r.BankAddress, BankCity: r.BankCity,
		BankBranch: r.BankBranch, ContactFirstName: r.ContactFirstName, ContactLastName: r.ContactLastName,
		ContactEmail: r.ContactEmail, ContactPhone: r.ContactPhone, Primary: r.IsPrimary,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		sealed: secrets.Sealed{KeyID: r.KeyID, Blob: r.AccountNumber}, orgID: r.OrganizationID}
}

// List is the organisation's accounts, the primary (active) one first.
func (s *Store) List(ctx context.Context, scope tenants.Scope) ([]Account, error) {
	rows, err := scope.Store().BankAccounts(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	out := make([]Account, len(rows))
	for i, r := range rows {
		out[i] = fromRow(r)
	}
	return out, nil
}

// Get is one of the organisation's accounts; dberr.ErrNotFound for another organisation's id.
func (s *Store) Get(ctx context.Context, scope tenants.Scope, id uuid.UUID) (Account, error) {
	r, err := scope.Store().BankAccount(ctx, sharddb.BankAccountParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return Account{}, err
	}
	return fromRow(r), nil
}

// Number opens an account's number (for a payout): never for an answer or a log.
func (s *Store) Number(ctx context.Context, a Account) (string, error) {
	plain, err := s.Box.Open(ctx, a.sealed, aad(a.orgID, a.ID))
	return string(plain), err
}

// Checked is a form that passed Check: trimmed, the number normalised, the bank's label the reference one.
type Checked struct {
	Form
	bank    reference.Bank
	number  string
	primary bool
}

// Check validates f against the country's bank data and rules; an *Invalid names each failing
// field. An edit (keepNumber) may leave the number empty to keep the stored one.
func Check(country string, params reference.BankParams, f Form, keepNumber bool) (Checked, error) {
	c := Checked{Form: trimmed(f), primary: f.Primary == nil || *f.Primary}
	fields := map[string]string{}
	required := func(name, value string, max int) {
		switch {
		case value == "":
			fields[name] = CodeRequired
		case utf8.RuneCountInString(value) > max:
			fields[name] = CodeTooLong
		}
	}
	required("bank_code", c.BankCode, 10)
	required("bank_name", c.BankName, 120)
	required("contact_first_name", c.ContactFirstName, 80)
	required("contact_last_name", c.ContactLastName, 80)
	required("contact_phone", c.ContactPhone, 30)
	required("contact_email", c.ContactEmail, 254)
	if fields["contact_email"] == "" && !validEmail(c.ContactEmail) {
		fields["contact_email"] = CodeEmailInvalid
	}
	if fields["contact_phone"] == "" && !validPhone(c.ContactPhone) {
		fields["contact_phone"] = CodePhoneInvalid
	}
	// The fields the country's form asks for; the others are not kept.
	for name, value := range map[string]*string{"bank_address": &c.BankAddress, "bank_city": &c.BankCity, "bank_branch": &c.BankBranch} {
		if !params.Requires(name) {
			*value = ""
			continue
		}
		required(name, *value, 200)
	}
	if fields["bank_branch"] == "" && c.BankBranch != "" {
		if err := bankcheck.Branch(country, c.BankBranch); err != nil {
			fields["bank_branch"] = errCode(err)
		}
	}

	bank, known := params.Bank(c.BankCode)
	if c.BankCode != "" && !known {
		fields["bank_code"] = CodeBankUnknown
	}
	c.bank = bank
	if known {
		c.BankName = bank.Label
		types := params.TypesOf(bank)
		switch {
		case len(types) == 0 && c.AccountType != "":
			fields["account_type"] = CodeAccountTypeInvalid
		case len(types) > 0 && c.AccountType == "":
			fields["account_type"] = CodeRequired
		case len(types) > 0 && !slices.Contains(types, c.AccountType):
			fields["account_type"] = CodeAccountTypeInvalid
		}
	}

	c.number = bankcheck.Normalize(c.AccountNumber)
	switch {
	case c.number == "" && !keepNumber:
		fields["account_number"] = CodeRequired
	case c.number == "":
	case len(c.number) > 40:
		fields["account_number"] = bankcheck.CodeFormat
	case known:
		if err := bankcheck.Account(country, bank.Code, c.number); err != nil {
			fields["account_number"] = errCode(err)
		}
	}
	if len(fields) > 0 {
		return c, &Invalid{Fields: fields}
	}
	return c, nil
}

// Create stores a new account for the organisation; as the primary one (the default), it takes
// over from the previous primary in the same transaction.
func (s *Store) Create(ctx context.Context, scope tenants.Scope, c Checked, currency string) (Account, error) {
	id := uuid.New()
	sealed, err := s.Box.Seal(ctx, []byte(c.number), aad(scope.OrgID, id))
	if err != nil {
		return Account{}, err
	}
	var out Account
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		if c.primary {
			if err := q.DemoteBankAccounts(ctx, sharddb.DemoteBankAccountsParams{OrganizationID: scope.OrgID, Keep: id}); err != nil {
				return err
			}
		}
		r, err := q.InsertBankAccount(ctx, sharddb.InsertBankAccountParams{
			OrganizationID: scope.OrgID, ID: id, Country: scope.Country, BankCode: c.bank.Code, BankName: c.BankName,
			AccountNumber: sealed.Blob, KeyID: sealed.KeyID, AccountLast4: last4(c.number),
			AccountType: optional(c.AccountType), Currency: currency, BankAddress: optional(c.BankAddress),
			BankCity: optional(c.BankCity), BankBranch: optional(c.BankBranch), ContactFirstName: c.ContactFirstName,
			ContactLastName: c.ContactLastName, ContactEmail: c.ContactEmail, ContactPhone: c.ContactPhone, IsPrimary: c.primary,
		})
		out = fromRow(r)
		return err
	})
	return out, err
}

// Update replaces an account's fields; an empty number keeps the stored one. The primary account
// stays primary (an organisation always keeps an active one); making another primary demotes it.
func (s *Store) Update(ctx context.Context, scope tenants.Scope, current Account, c Checked) (Account, error) {
	sealed, l4 := current.sealed, current.Last4
	if c.number != "" {
		var err error
		if sealed, err = s.Box.Seal(ctx, []byte(c.number), aad(scope.OrgID, current.ID)); err != nil {
			return Account{}, err
		}
		l4 = last4(c.number)
	} else if err := bankcheck.Account(current.Country, c.bank.Code, mustOpen(ctx, s, current)); err != nil {
		// The kept number must still be the chosen bank's (a CBU carries its bank).
		return Account{}, &Invalid{Fields: map[string]string{"account_number": errCode(err)}}
	}
	primary := c.primary || current.Primary
	var out Account
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		if primary {
			if err := q.DemoteBankAccounts(ctx, sharddb.DemoteBankAccountsParams{OrganizationID: scope.OrgID, Keep: current.ID}); err != nil {
				return err
			}
		}
		r, err := q.UpdateBankAccount(ctx, sharddb.UpdateBankAccountParams{
			OrganizationID: scope.OrgID, ID: current.ID, BankCode: c.bank.Code, BankName: c.BankName,
			AccountNumber: sealed.Blob, KeyID: sealed.KeyID, AccountLast4: l4, AccountType: optional(c.AccountType),
			BankAddress: optional(c.BankAddress), BankCity: optional(c.BankCity), BankBranch: optional(c.BankBranch),
			ContactFirstName: c.ContactFirstName, ContactLastName: c.ContactLastName, ContactEmail: c.ContactEmail,
			ContactPhone: c.ContactPhone, IsPrimary: primary,
		})
		out = fromRow(r)
		return err
	})
	return out, err
}

// mustOpen is the stored number, or "" when it does not open (then the check fails as a format error).
func mustOpen(ctx context.Context, s *Store, a Account) string {
	n, err := s.Number(ctx, a)
	if err != nil {
		return ""
	}
	return n
}

// RotateKeys re-wraps every account number of the organisation still under an older key.
func (s *Store) RotateKeys(ctx context.Context, scope tenants.Scope) (int, error) {
	rows, err := scope.Store().BankAccounts(ctx, scope.OrgID)
	if err != nil {
		return 0, err
	}
	return secrets.RewrapEach(ctx, s.Box, rows, func(r sharddb.BankAccount) secrets.Sealed {
		return secrets.Sealed{KeyID: r.KeyID, Blob: r.AccountNumber}
	}, func(r sharddb.BankAccount, sealed secrets.Sealed) (int64, error) {
		return scope.Store().RewrapBankAccountNumber(ctx, sharddb.RewrapBankAccountNumberParams{
			OrganizationID: scope.OrgID, ID: r.ID, Sealed: sealed.Blob, KeyID: sealed.KeyID, OldKeyID: r.KeyID})
	})
}

func trimmed(f Form) Form {
	for _, p := range []*string{&f.BankName, &f.BankCode, &f.AccountNumber, &f.AccountType, &f.BankAddress, &f.BankCity,
		&f.BankBranch, &f.ContactFirstName, &f.ContactLastName, &f.ContactEmail, &f.ContactPhone} {
		*p = strings.TrimSpace(*p)
	}
	f.ContactEmail = strings.ToLower(f.ContactEmail)
	return f
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	at := strings.LastIndexByte(s, '@')
	return err == nil && a.Address == s && at > 0 && strings.Contains(s[at+1:], ".")
}

// validPhone: digits with the usual separators and an optional leading +, at least 6 digits.
func validPhone(s string) bool {
	digits := 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' && i == 0, r == ' ', r == '-', r == '(', r == ')':
		default:
			return false
		}
	}
	return digits >= 6 && digits <= 15
}

func errCode(err error) string {
	var e *bankcheck.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return bankcheck.CodeFormat
}

func last4(n string) string {
	if len(n) <= 4 {
		return n
	}
	return n[len(n)-4:]
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
