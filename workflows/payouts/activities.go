package payouts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/internal/bankaccounts"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// Tenants are the organisations and the country shards the sweep lists them from (*tenants.Tenants).
type Tenants interface {
	orgscope.Organizations
	Countries() []string
	Shard(country string) (*pgxpool.Pool, error)
}

// Merchants opens the merchant account of an organisation's processor, which its charges were paid
// into (*processing.Processors); dberr.ErrNotFound when the processor is gone.
type Merchants interface {
	Merchant(ctx context.Context, scope tenants.Scope, processorID uuid.UUID, currency string) (*dlocal.Account, error)
}

// Activities gather and pay payouts.
type Activities struct {
	Tenants   Tenants
	Merchants Merchants
	Accounts  *bankaccounts.Store // the payout bank accounts, whose sealed numbers a payout opens
}

// Statuses of a payout (migrations/shard/0520_payouts.sql).
const (
	StatusWaiting = "waiting"
	StatusSending = "sending"
	StatusPaid    = "paid"
	StatusFailed  = "failed"
)

// Organizations lists every organisation that has a processor with a merchant account, shard by shard.
func (a *Activities) Organizations(ctx context.Context) ([]string, error) {
	var ids []string
	for _, country := range a.Tenants.Countries() {
		pool, err := a.Tenants.Shard(country)
		if err != nil {
			return nil, err
		}
		orgs, err := sharddb.Store(pool).PayoutOrganizations(ctx)
		if err != nil {
			return nil, fmt.Errorf("shard %s: %w", country, err)
		}
		for _, id := range orgs {
			ids = append(ids, id.String())
		}
	}
	return ids, nil
}

// Prepare gathers, for each of the organisation's processors, the approved charges no payout has
// paid yet and the reversals of charges given back after an earlier payout, into the processor's
// open payout (opening one when needed), and decides it: a net that is not positive opens no payout
// (the charges wait for a later cycle); without an active bank account in the payout's currency, or
// without the tax id the transfer names, the payout waits and says why; otherwise it is frozen for
// sending. It answers every payout of the organisation now being sent, oldest first, including ones
// an earlier cycle left unsent.
func (a *Activities) Prepare(ctx context.Context, in Input) ([]string, error) {
	scope, err := orgscope.For(ctx, a.Tenants, in.OrganizationID)
	if err != nil {
		return nil, err
	}
	procs, err := scope.Store().PayoutProcessors(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	accounts, err := a.Accounts.List(ctx, scope)
	if err != nil {
		return nil, err
	}
	var active *bankaccounts.Account
	if len(accounts) > 0 && accounts[0].Primary {
		active = &accounts[0]
	}
	for _, p := range procs {
		if err := scope.Tx(ctx, func(tx pgx.Tx) error { return gather(ctx, sharddb.Store(tx), scope.OrgID, p, active) }); err != nil {
			return nil, fmt.Errorf("processor %s: %w", p.ID, err)
		}
	}
	ids, err := scope.Store().SendingPayouts(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out, nil
}

// gather is Prepare for one processor, in one transaction.
func gather(ctx context.Context, q *sharddb.Queries, orgID uuid.UUID, p sharddb.PayoutProcessorsRow, active *bankaccounts.Account) error {
	open, err := q.OpenPayout(ctx, sharddb.OpenPayoutParams{OrganizationID: orgID, ProcessorID: p.ID})
	var id uuid.UUID
	switch {
	case errors.Is(err, dberr.ErrNotFound):
		id = uuid.New()
		err = q.InsertPayout(ctx, sharddb.InsertPayoutParams{OrganizationID: orgID, ID: id, ProcessorID: p.ID, Currency: p.Currency})
	case err != nil:
		return err
	case open.Status == StatusSending: // frozen: it is paid as it is, the new charges wait for the next
		return nil
	default: // waiting: gathered again, a charge may have been given back meanwhile
		id = open.ID
		err = q.ClearPayoutItems(ctx, sharddb.ClearPayoutItemsParams{OrganizationID: orgID, PayoutID: id})
	}
	if err != nil {
		return err
	}
	if _, err := q.AddPayoutCharges(ctx, sharddb.AddPayoutChargesParams{OrganizationID: orgID, PayoutID: id, ProcessorID: p.ID,
		Currency: p.Currency}); err != nil {
		return err
	}
	if _, err := q.AddPayoutReversals(ctx, sharddb.AddPayoutReversalsParams{OrganizationID: orgID, PayoutID: id, ProcessorID: p.ID}); err != nil {
		return err
	}
	t, err := q.PayoutItemTotals(ctx, sharddb.PayoutItemTotalsParams{OrganizationID: orgID, PayoutID: id})
	if err != nil {
		return err
	}
	if t.Net <= 0 { // nothing to pay, or less than was given back: carried forward
		return q.DeletePayout(ctx, sharddb.DeletePayoutParams{OrganizationID: orgID, ID: id})
	}
	set := sharddb.SetPayoutTotalsParams{OrganizationID: orgID, ID: id, Status: StatusWaiting, Gross: t.Gross, Commission: t.Commission,
		Fee: t.Fee, Deducted: t.Deducted, Net: t.Net, Charges: t.Charges}
	if reason := waitReason(p, active); reason != "" {
		set.WaitReason = &reason
	} else {
		now := time.Now()
		set.Status, set.BankAccountID, set.BankName, set.BankLast4, set.SentAt = StatusSending, &active.ID, &active.BankName, &active.Last4, &now
	}
	return q.SetPayoutTotals(ctx, set)
}

// waitReason is why a payout of the processor cannot be sent to the active account, "" when it can.
func waitReason(p sharddb.PayoutProcessorsRow, active *bankaccounts.Account) string {
	switch {
	case active == nil:
		return CodeNoBankAccount
	case active.Currency != p.Currency:
		return CodeBankAccountCurrency
	case p.BeneficiaryDocument == "":
		return CodeNoTaxID
	}
	return ""
}

// PayInput names a payout being sent.
type PayInput struct {
	OrganizationID string `json:"organization_id"`
	PayoutID       string `json:"payout_id"`
}

// Pay asks the processor's merchant account to pay a payout being sent to its bank account, under
// the payout's id as external_id, and records the answer; it answers the payout's status. dLocal
// answers a repeated external id with its first payout, so asking again never pays twice; an
// unknown outcome (a timeout, a 5xx) is read back, and when dLocal has no such payout the activity
// fails and its retry asks again. A refusal fails the payout and releases its charges to the next.
func (a *Activities) Pay(ctx context.Context, in PayInput) (string, error) {
	scope, id, err := orgscope.Row(ctx, a.Tenants, in.OrganizationID, "payout id", in.PayoutID)
	if err != nil {
		return "", err
	}
	po, err := scope.Store().PayoutToSend(ctx, sharddb.PayoutToSendParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return "", err
	}
	if po.Status != StatusSending || po.BankAccountID == nil {
		return po.Status, nil // paid or failed already (a retry after the record)
	}
	merchant, err := a.Merchants.Merchant(ctx, scope, po.ProcessorID, po.Currency)
	if errors.Is(err, dberr.ErrNotFound) {
		return a.fail(ctx, scope, id, CodeProcessorRemoved)
	}
	if err != nil {
		return "", err
	}
	req, err := a.request(ctx, scope, po)
	if err != nil {
		return "", err
	}
	p, err := merchant.Payout(ctx, req)
	var unknown *gateway.UnknownOutcomeError
	var refused *gateway.Error
	switch {
	case errors.As(err, &unknown):
		p, err = merchant.PayoutByExternalID(ctx, req.ExternalID)
		if errors.Is(err, gateway.ErrNotFound) {
			return "", fmt.Errorf("payout %s: none at the processor after an unknown outcome (%v): asking again", id, unknown)
		}
		if err != nil {
			return "", fmt.Errorf("payout %s: read back: %w", id, err)
		}
	case errors.As(err, &refused) && (refused.Status == http.StatusBadRequest || refused.Status == http.StatusUnprocessableEntity):
		// The payout itself is refused (its amount, its beneficiary): asking again fails the same way.
		return a.fail(ctx, scope, id, CodeRefused)
	case err != nil: // our keys refused, say: fixed elsewhere, then asked again under the same id
		return "", err
	}
	switch p.Status {
	case "PAID":
		if _, err := scope.Store().MarkPayoutPaid(ctx, sharddb.MarkPayoutPaidParams{OrganizationID: scope.OrgID, ID: id,
			ExternalPayoutID: &p.ID}); err != nil {
			return "", err
		}
		return StatusPaid, nil
	case "REJECTED", "CANCELLED":
		return a.fail(ctx, scope, id, CodeRefused)
	}
	return "", fmt.Errorf("payout %s is %s at the processor: read again later", id, p.Status)
}

// request is the payout's request: its net to the bank account it was frozen with, named after the
// organisation (the processor row carries its legal name and tax id).
func (a *Activities) request(ctx context.Context, scope tenants.Scope, po sharddb.PayoutToSendRow) (dlocal.PayoutRequest, error) {
	account, err := a.Accounts.Get(ctx, scope, *po.BankAccountID)
	if err != nil {
		return dlocal.PayoutRequest{}, err
	}
	number, err := a.Accounts.Number(ctx, account)
	if err != nil {
		return dlocal.PayoutRequest{}, err
	}
	procs, err := scope.Store().PayoutProcessors(ctx, scope.OrgID)
	if err != nil {
		return dlocal.PayoutRequest{}, err
	}
	var name, document string
	for _, p := range procs {
		if p.ID == po.ProcessorID {
			name, document = p.BeneficiaryName, p.BeneficiaryDocument
		}
	}
	return dlocal.PayoutRequest{ExternalID: po.ID.String(), Amount: money.New(po.NetMinor, po.Currency),
		Beneficiary: dlocal.Beneficiary{Name: name, Document: document, BankCode: account.BankCode, Account: number}}, nil
}

// fail marks a payout being sent as failed with why, releasing its charges to the next payout.
func (a *Activities) fail(ctx context.Context, scope tenants.Scope, id uuid.UUID, code string) (string, error) {
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		n, err := q.MarkPayoutFailed(ctx, sharddb.MarkPayoutFailedParams{OrganizationID: scope.OrgID, ID: id, Failure: &code})
		if err != nil || n == 0 {
			return err
		}
		return q.ClearPayoutItems(ctx, sharddb.ClearPayoutItemsParams{OrganizationID: scope.OrgID, PayoutID: id})
	})
	if err != nil {
		return "", err
	}
	return StatusFailed, nil
}
