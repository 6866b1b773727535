// Package payoutstest sets up, for tests, an organisation on the test stack whose donations are
// charged through a local processor at a dLocal sandbox, with real charges, refunds and payout
// cycles, and reads the sandbox's ledger of the merchant's payouts.
package payoutstest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/bankaccounts"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/processing"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/payouts"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// FeeBps is the local processor's fee in the tests; CommissionBps the organisation's commission.
const (
	FeeBps        = 399
	CommissionBps = 350
)

// World is an Argentine organisation (restricted: it owes the commission on each charge, and has a
// tax id) with one local processor routing its campaign, whose merchant is at the sandbox Sandbox.
type World struct {
	t          testing.TB
	Sandbox    string // the sandbox's base URL (its dLocal API is under /dlocal)
	Scope      tenants.Scope
	Processors *processing.Processors
	Accounts   *bankaccounts.Store
	Tenants    *tenants.Tenants
	Campaign   uuid.UUID
	Processor  uuid.UUID
	Login      string // the processor's merchant login at the sandbox
}

// New sets up the organisation orgID (a new one when uuid.Nil) against the sandbox at base.
func New(t testing.TB, base string, orgID uuid.UUID) *World {
	t.Helper()
	ctx := context.Background()
	a := Activities(t, base)
	tt := tenantstest.Open(t)
	w := &World{t: t, Sandbox: base, Processors: a.Merchants.(*processing.Processors), Accounts: a.Accounts, Tenants: tt}
	var err error
	if orgID == uuid.Nil {
		w.Scope = tenantstest.ArgentineOrganization(t, tt, "Pagos", "enabled", "essential_monthly")
	} else {
		w.Scope, err = tt.ForOrganization(ctx, orgID)
		require.NoError(t, err)
	}
	w.exec(`UPDATE organizations SET uid = '30-71234567-8', commission_bps = $2, trial_ends_at = now() - interval '1 day'
		WHERE organization_id = $1`, w.Scope.OrgID, CommissionBps)
	w.Campaign = uuid.New()
	w.exec(`INSERT INTO campaigns (organization_id, id, slug, title, type, currency) VALUES ($1, $2, $3, 'Huerta', 'fundraise', 'ARS')`,
		w.Scope.OrgID, w.Campaign, "c-"+w.Campaign.String()[:8])
	w.Processor = uuid.New()
	m, err := w.Processors.Onboard(ctx, w.Scope, w.Processor, "Fundación Pagos", FeeBps)
	require.NoError(t, err)
	w.Login = m.Login
	q := w.Scope.Store()
	_, err = q.InsertPaymentProcessor(ctx, sharddb.InsertPaymentProcessorParams{OrganizationID: w.Scope.OrgID, ID: w.Processor,
		Family: processing.Local, GatewayName: "dlocal", SoftDescriptor: "PAGOS", Position: 1, GatewayAccountName: "Fundación Pagos",
		MerchantLogin: &m.Login, PublicKey: &m.PublicKey, Secret: m.Sealed.Blob, KeyID: &m.Sealed.KeyID})
	require.NoError(t, err)
	require.NoError(t, q.AddProcessorCampaigns(ctx, sharddb.AddProcessorCampaignsParams{OrganizationID: w.Scope.OrgID,
		ProcessorID: w.Processor, CampaignIds: []uuid.UUID{w.Campaign}}))
	return w
}

func (w *World) exec(sql string, args ...any) {
	w.t.Helper()
	require.NoError(w.t, w.Scope.Exec(context.Background(), sql, args...))
}

// Activities are payout activities on the test stack paying through the dLocal sandbox at base.
func Activities(t testing.TB, base string) *payouts.Activities {
	t.Helper()
	cfg := *tenantstest.Config(t)
	cfg.DLocalURL = base + "/dlocal"
	box, err := secrets.Open(context.Background(), cfg.Secret, "")
	require.NoError(t, err)
	return &payouts.Activities{Tenants: tenantstest.Open(t), Merchants: processing.New(&cfg, box), Accounts: &bankaccounts.Store{Box: box}}
}

// Activities are the payout activities of this world.
func (w *World) Activities() *payouts.Activities {
	return &payouts.Activities{Tenants: w.Tenants, Merchants: w.Processors, Accounts: w.Accounts}
}

// Worker runs the payout workflows on a queue of their own on the stack's Temporal, and answers a
// client that runs cycles there.
func (w *World) Worker() payouts.Client {
	w.t.Helper()
	c := workflowtest.Client(w.t)
	queue := workflowtest.Worker(w.t, c, "payouts-test-", func(r worker.Registry) { payouts.Register(r, w.Activities()) })
	return payouts.Client{Temporal: c, Queue: queue}
}

// BankAccount adds the organisation's active bank account (Banco Galicia, a valid CBU ending 5201).
func (w *World) BankAccount() bankaccounts.Account {
	w.t.Helper()
	ctx := context.Background()
	params, err := reference.Banks(ctx, w.Scope.Store(), "AR")
	require.NoError(w.t, err)
	c, err := bankaccounts.Check("AR", params, bankaccounts.Form{BankCode: "285", BankName: "x", AccountNumber: "2850590940090418135201",
		ContactFirstName: "Ana", ContactLastName: "Pérez", ContactEmail: "ana@example.org", ContactPhone: "+5411 5555 1234"}, false)
	require.NoError(w.t, err)
	a, err := w.Accounts.Create(ctx, w.Scope, c, "ARS")
	require.NoError(w.t, err)
	return a
}

// Charge is a donation's approved charge through the processor.
type Charge struct {
	TransactionID uuid.UUID
	PaymentID     string
	Amount        int64
}

// Net is what a payout pays for the charge: less the commission and the processor's fee.
func (c Charge) Net() int64 {
	return c.Amount - charge.Fee(c.Amount, CommissionBps) - charge.Fee(c.Amount, FeeBps)
}

// Donate makes a one-time donation of minor ARS, charged through the processor as the form charges it.
func (w *World) Donate(minor int64) Charge {
	w.t.Helper()
	ctx := context.Background()
	donor, donation := uuid.New(), uuid.New()
	email := donor.String()[:8] + "@donor.test"
	w.exec(`INSERT INTO donors (organization_id, id, email, first_name, last_name) VALUES ($1, $2, $3, 'Ana', 'Paz')`, w.Scope.OrgID, donor, email)
	w.exec(`INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency, recurrence) VALUES ($1, $2, $3, $4, $5, 'ARS', 0)`,
		w.Scope.OrgID, donation, w.Campaign, donor, minor)
	acct, err := w.Processors.CampaignAccount(ctx, w.Scope, w.Campaign, "ARS")
	require.NoError(w.t, err)
	require.NotNil(w.t, acct)
	tx := charge.Transaction{OrgID: w.Scope.OrgID, ID: charge.FirstTransactionID(donation), DonationID: donation, Attempt: 1, Amount: minor, Currency: "ARS"}
	o, err := charge.Charge(ctx, w.Scope, acct, tx, gateway.Charge{Token: w.token(acct.PublicKey), Amount: money.New(minor, "ARS"),
		Email: email, Document: "20123456786", Description: "Donación"})
	require.NoError(w.t, err)
	require.True(w.t, o.Approved(), "%+v", o)
	return Charge{TransactionID: tx.ID, PaymentID: o.PaymentID, Amount: minor}
}

// token tokenises a test card with the merchant's public key, as the donor's browser does.
func (w *World) token(publicKey string) string {
	w.t.Helper()
	return sandboxtest.DLocalToken(w.t, w.Sandbox+"/dlocal", publicKey, "4509953566233704", "Ana Paz")
}

// Refund gives a charge back at the processor and brings its transaction up to date, as a
// notification of the refund does (charge.Sync).
func (w *World) Refund(c Charge) {
	w.t.Helper()
	ctx := context.Background()
	acct, err := w.Processors.CampaignAccount(ctx, w.Scope, w.Campaign, "ARS")
	require.NoError(w.t, err)
	_, err = acct.Refund(ctx, gateway.RefundRequest{PaymentID: c.PaymentID})
	require.NoError(w.t, err)
	changed, err := charge.Sync(ctx, w.Scope, acct, c.PaymentID)
	require.NoError(w.t, err)
	require.True(w.t, changed)
}

// LedgerPayout is a payout in the sandbox's ledger.
type LedgerPayout struct {
	ID          string            `json:"id"`
	ExternalID  string            `json:"external_id"`
	Amount      string            `json:"amount"`
	Currency    string            `json:"currency"`
	Status      string            `json:"status"`
	Beneficiary map[string]string `json:"beneficiary"`
}

// Ledger is the merchant's payouts at the sandbox, oldest first.
func (w *World) Ledger() []LedgerPayout {
	w.t.Helper()
	ps, err := w.ledger()
	require.NoError(w.t, err)
	return ps
}

// Made says whether the sandbox made a payout under the external id (from any goroutine).
func (w *World) Made(externalID string) (bool, error) {
	ps, err := w.ledger()
	for _, p := range ps {
		if p.ExternalID == externalID {
			return true, err
		}
	}
	return false, err
}

func (w *World) ledger() ([]LedgerPayout, error) {
	res, err := http.Get(w.Sandbox + "/__sandbox/dlocal/ledger?" + url.Values{"x_login": {w.Login}}.Encode())
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("ledger: %s", res.Status)
	}
	var out struct {
		Payouts []LedgerPayout `json:"payouts"`
	}
	err = json.NewDecoder(res.Body).Decode(&out)
	return out.Payouts, err
}

// Payouts are the organisation's payout rows, newest first.
func (w *World) Payouts() []sharddb.ListPayoutsRow {
	w.t.Helper()
	rows, err := w.Scope.Store().ListPayouts(context.Background(), sharddb.ListPayoutsParams{OrganizationID: w.Scope.OrgID, Lim: 100})
	require.NoError(w.t, err)
	return rows
}

// Decimal writes minor ARS as the sandbox's ledger does.
func Decimal(minor int64) string { return money.New(minor, "ARS").Decimal() }

// SetFault arms the sandbox's fault injection (POST /__sandbox/faults) with f's JSON.
func (w *World) SetFault(f any) {
	w.t.Helper()
	body, _ := json.Marshal(f)
	res, err := http.Post(w.Sandbox+"/__sandbox/faults", "application/json", bytes.NewReader(body))
	require.NoError(w.t, err)
	res.Body.Close()
	require.Less(w.t, res.StatusCode, 300, fmt.Sprint(res.StatusCode))
}
