package processing

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// BankDebit is the off-site bank debit (dLocal's REDIRECT bank transfer, e.g. PSE) offered by the
// processor a rule routes a campaign's donations to.
type BankDebit struct {
	Method    dlocal.BankMethod
	processor *charge.Processor
	account   *dlocal.Account
}

// CampaignBankDebit is the bank debit of the campaign's processor; nil when no processor routes the
// campaign or its country has none (the processor's payment methods say).
func (p *Processors) CampaignBankDebit(ctx context.Context, scope tenants.Scope, campaignID uuid.UUID, currency string) (*BankDebit, error) {
	a, err := p.CampaignAccount(ctx, scope, campaignID, currency)
	if err != nil || a == nil {
		return nil, err
	}
	m, ok, err := a.BankMethod(ctx)
	if err != nil || !ok {
		return nil, err
	}
	return &BankDebit{Method: m, processor: a.processor, account: a.Account}, nil
}

// ProcessorID is the processor the debit is made through.
func (b *BankDebit) ProcessorID() uuid.UUID { return b.processor.ID }

// Transfer is the gateway one donation's debit is charged through: charge.Charge makes it through the
// processor (charge.Routed), so its approval records the processor's fee.
func (b *BankDebit) Transfer(payer dlocal.BankPayer, notifyURL, returnURL string) *Transfer {
	t := &dlocal.BankTransfer{Account: b.account, Method: b.Method, Payer: payer, NotifyURL: notifyURL, ReturnURL: returnURL}
	proc := *b.processor
	proc.Gateway = t
	return &Transfer{BankTransfer: t, processor: &proc}
}

// Transfer is a bank debit as charge.Charge makes it.
type Transfer struct {
	*dlocal.BankTransfer
	processor *charge.Processor
}

// ChargeProcessor is the processor the transfer is made by (charge.Routed).
func (t *Transfer) ChargeProcessor() *charge.Processor { return t.processor }

// Notified is one of an organisation's processors as its notifications reach us: its account verifies
// them and reads their payments back.
type Notified struct {
	Processor *charge.Processor
	Account   *dlocal.Account
}

// ErrNoMerchant is a merchant login none of the organisation's processors has.
var ErrNoMerchant = errors.New("processing: no processor of the organisation has this merchant")

// MerchantOf is the organisation's processor whose merchant account is login, charging in the
// organisation's currency; ErrNoMerchant when it has none (another organisation's, or a deleted one).
func (p *Processors) MerchantOf(ctx context.Context, scope tenants.Scope, login string) (Notified, error) {
	rows, err := scope.Store().ProcessorRoutes(ctx, sharddb.ProcessorRoutesParams{OrganizationID: scope.OrgID, CampaignID: uuid.Nil})
	if err != nil {
		return Notified{}, err
	}
	local, err := scope.Store().Countries(ctx, []string{scope.Country})
	if err != nil {
		return Notified{}, err
	}
	if len(local) != 1 {
		return Notified{}, fmt.Errorf("processing: no country %q", scope.Country)
	}
	for _, r := range rows {
		if login == "" || r.MerchantLogin != login {
			continue
		}
		proc, err := p.processor(ctx, scope, r, local[0].Currency)
		if err != nil {
			return Notified{}, err
		}
		return Notified{Processor: proc, Account: proc.Gateway.(*dlocal.Account)}, nil // processor builds only these
	}
	return Notified{}, ErrNoMerchant
}
