package charge

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// recordFixture is an organisation past its trial (it owes a commission) with a campaign, a webhook endpoint that
// takes charge events and a CRM integration, on the test stack.
type recordFixture struct{ *tenantstest.Fixture }

func newRecordFixture(t *testing.T) *recordFixture {
	f := &recordFixture{tenantstest.NewFixture(t, "Fundación Registro", "original", "registro", webhook.Events)}
	f.Exec(`UPDATE organizations SET trial_started_at = now() - interval '91 days', trial_ends_at = now() - interval '1 day',
		commission_bps = 350 WHERE organization_id = $1`, f.Scope.OrgID)
	return f
}

// day is when the tests' donations are made and charged: one day of the dashboard.
var day = time.Date(2031, 6, 5, 15, 0, 0, 0, time.UTC)

// pending writes a pending donation (monthly or not), made on day, and its first transaction as the donation form
// does, in period ("" for none), and answers the transaction.
func (f *recordFixture) pending(monthly bool, period string) Transaction {
	f.T.Helper()
	d, donor := uuid.New(), uuid.New()
	f.Exec(`INSERT INTO donors (organization_id, id, email, first_name, last_name) VALUES ($1, $2, $3, 'Ana', 'Pérez')`,
		f.Scope.OrgID, donor, donor.String()+"@donor.test")
	recurrence := 0
	if monthly {
		recurrence = 1
	}
	f.Exec(`INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency, recurrence, status, created_at)
		VALUES ($1, $2, $3, $4, 150000, 'ARS', $5, 'pending', $6)`, f.Scope.OrgID, d, f.Campaign, donor, recurrence, day)
	t := Transaction{OrgID: f.Scope.OrgID, ID: FirstTransactionID(d), DonationID: d, Period: period, Attempt: 1, Amount: 150000,
		Currency: "ARS"}
	var p *string
	if period != "" {
		p = &period
	}
	f.Exec(`INSERT INTO transactions (organization_id, id, donation_id, period, attempt, amount_minor, currency, status)
		VALUES ($1, $2, $3, $4, 1, 150000, 'ARS', 'pending')`, f.Scope.OrgID, t.ID, d, p)
	return t
}

// rollup is the organisation's non-empty dashboard rows, one line each.
func (f *recordFixture) rollup() []string {
	f.T.Helper()
	rows, err := f.Scope.Query(f.Ctx, `SELECT concat_ws(' ', day, campaign_id, recurrence, currency, raised_minor, raised_count,
		new_donations) FROM dashboard_daily
		WHERE organization_id = $1 AND (raised_minor <> 0 OR raised_count <> 0 OR new_donations <> 0) ORDER BY 1`, f.Scope.OrgID)
	require.NoError(f.T, err)
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(f.T, err)
	return lines
}

// agrees checks that the rollup equals its rebuild from the rows, and answers it.
func (f *recordFixture) agrees() []string {
	f.T.Helper()
	kept := f.rollup()
	f.Exec(`SELECT dashboard_rollup_rebuild($1)`, f.Scope.OrgID)
	require.Equal(f.T, f.rollup(), kept, "the rollup the record kept equals a rebuild from the rows")
	return kept
}

func activeFrom(next time.Time) Settle {
	return func(o Outcome) (string, *time.Time) {
		if o.Approved() {
			return "active", &next
		}
		return "", nil
	}
}

// On Citus an approved first charge, with everything it writes (the transaction, the donation it activates, the
// queues, the commission, the processor's fee, the rollup and the receipt), is one statement that the coordinator
// sends to the organisation's worker: one remote command, the function's call, with no BEGIN or COMMIT around it.
// Recorded again (a retried activity), it writes nothing twice.
func TestRecordIsOneStatementOnTheWorker(t *testing.T) {
	tenantstest.Citus(t)
	f := newRecordFixture(t)
	tx := f.pending(false, "")
	next := time.Date(2031, 7, 10, 0, 0, 0, 0, time.UTC)
	processor := &Processor{ID: uuid.New(), Family: "local_payments", Descriptor: "APORTA*REGISTRO", FeeBps: 420}
	o := Outcome{Status: gateway.StatusApproved, PaymentID: "pay-1", At: day, Processor: processor}

	conn, remote := tenantstest.RemoteCommands(t, "AR")
	p, err := recordParams(f.Scope.OrgID, tx, o, activeFrom(next))
	require.NoError(t, err)
	raw, err := sharddb.Store(conn).RecordCharge(f.Ctx, p)
	require.NoError(t, err)
	var recorded struct {
		ID      uuid.UUID      `json:"id"`
		Receipt map[string]any `json:"receipt"`
	}
	require.NoError(t, json.Unmarshal(raw, &recorded))
	require.Equal(t, tx.ID, recorded.ID)
	require.Equal(t, float64(1), recorded.Receipt["number"], "the receipt it issued: %s", raw)
	sent := remote()
	require.Len(t, sent, 1, "one remote command: %q", sent)
	require.True(t, strings.HasPrefix(sent[0], "issuing SELECT public.charge_record("), sent[0])

	// A retry records the same outcome again, and issues no receipt.
	issued, err := RecordAnd(f.Ctx, f.Scope, tx, o, activeFrom(next))
	require.NoError(t, err)
	require.Nil(t, issued, "no second receipt")

	var status, donation string
	f.One(&status, `SELECT status || ' ' || gateway_payment_id FROM transactions WHERE organization_id = $1 AND id = $2`, f.Scope.OrgID, tx.ID)
	require.Equal(t, "approved pay-1", status)
	f.One(&donation, `SELECT status || ' ' || next_charge_date FROM donations WHERE organization_id = $1 AND id = $2`, f.Scope.OrgID, tx.DonationID)
	require.Equal(t, "active 2031-07-10", donation)
	var receipts, commission, fee, events, changes int64
	f.One(&receipts, `SELECT count(*) FROM receipts WHERE organization_id = $1 AND transaction_id = $2 AND number = 1`, f.Scope.OrgID, tx.ID)
	require.EqualValues(t, 1, receipts, "one receipt, the organisation's first")
	f.One(&commission, `SELECT amount_minor FROM transaction_commissions WHERE organization_id = $1 AND transaction_id = $2`, f.Scope.OrgID, tx.ID)
	require.EqualValues(t, 5250, commission, "3.5%")
	f.One(&fee, `SELECT amount_minor FROM transaction_processor_fees WHERE organization_id = $1 AND transaction_id = $2
		AND processor_id = $3 AND statement_descriptor = 'APORTA*REGISTRO'`, f.Scope.OrgID, tx.ID, processor.ID)
	require.Equal(t, Fee(150000, 420), fee)
	f.One(&events, `SELECT count(*) FROM webhook_deliveries WHERE organization_id = $1 AND event_id = $2 AND event_type = 'charge.approved'`,
		f.Scope.OrgID, webhook.EventID(tx.ID, webhook.ChargeApproved))
	require.EqualValues(t, 1, events, "the event queued once")
	f.One(&changes, `SELECT count(*) FROM crm_changes WHERE organization_id = $1 AND kind = 'donation' AND record_id = $2 AND status = 'pending'`,
		f.Scope.OrgID, tx.DonationID)
	require.EqualValues(t, 1, changes)
	require.Len(t, f.agrees(), 1, "one day of the campaign: raised once, one new donation")
	require.Contains(t, f.rollup()[0], " 150000 1 1")
}

// The first period's first attempt of a monthly donation is the form's first transaction: collection, recording that
// attempt under its own id (a read-back after a crash), records it on the form's row, whose id the webhook event
// names; no second row. A refund annuls the receipt and takes the charge out of the rollup.
func TestRecordFindsThePeriodsAttemptUnderItsID(t *testing.T) {
	f := newRecordFixture(t)
	first := f.pending(true, "2031-06")
	attempt := first
	attempt.ID = AttemptID(first.DonationID, "2031-06", 1)
	require.NoError(t, Record(f.Ctx, f.Scope, attempt, Outcome{Status: gateway.StatusApproved, PaymentID: "pay-2", At: day}))

	var rows int64
	f.One(&rows, `SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2`, f.Scope.OrgID, first.DonationID)
	require.EqualValues(t, 1, rows)
	var status string
	f.One(&status, `SELECT status FROM transactions WHERE organization_id = $1 AND id = $2`, f.Scope.OrgID, first.ID)
	require.Equal(t, "approved", status)
	var body json.RawMessage
	f.One(&body, `SELECT body FROM webhook_deliveries WHERE organization_id = $1 AND event_id = $2`, f.Scope.OrgID,
		webhook.EventID(first.ID, webhook.ChargeApproved))
	var event struct {
		Data webhook.Charge `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &event))
	require.Equal(t, first.ID, event.Data.TransactionID)
	require.Equal(t, "2031-06", event.Data.Period)
	var receipt int64
	f.One(&receipt, `SELECT number FROM receipts WHERE organization_id = $1 AND transaction_id = $2`, f.Scope.OrgID, first.ID)
	require.Contains(t, f.agrees()[0], " 150000 1 0", "raised; the donation, pending, is no new donation yet")

	require.NoError(t, Record(f.Ctx, f.Scope, attempt, Outcome{Status: gateway.StatusRefunded, PaymentID: "pay-2", At: day}))
	var annulled bool
	f.One(&annulled, `SELECT annulled_at IS NOT NULL FROM receipts WHERE organization_id = $1 AND number = $2`, f.Scope.OrgID, receipt)
	require.True(t, annulled)
	f.One(&rows, `SELECT count(*) FROM webhook_deliveries WHERE organization_id = $1 AND event_id = $2`, f.Scope.OrgID,
		webhook.EventID(first.ID, webhook.ChargeRefunded))
	require.EqualValues(t, 1, rows)
	require.Empty(t, f.agrees(), "refunded: nothing raised")
}

// The receipt e-mail's data of an approved monthly period: as its record answers it (charge_record, 0650), and as
// sharddb.ChargeReceiptMail reads it later, by its transaction, or by the period when the charger names another
// transaction of it (the form's first one settled it); nothing for a period without a receipt or for another
// donation's transaction.
func TestReceiptMailFindsTheChargesReceipt(t *testing.T) {
	f := newRecordFixture(t)
	tx := f.pending(true, "2031-06")
	issued, err := RecordAnd(f.Ctx, f.Scope, tx, Outcome{Status: gateway.StatusApproved, PaymentID: "pay-m", At: day},
		activeFrom(time.Date(2031, 7, 5, 0, 0, 0, 0, time.UTC)))
	require.NoError(t, err)
	var answered map[string]any
	require.NoError(t, json.Unmarshal(issued, &answered))
	other := f.pending(false, "")
	var slug string
	f.One(&slug, `SELECT slug FROM campaigns WHERE organization_id = $1 AND id = $2`, f.Scope.OrgID, f.Campaign)

	mail := func(donation, txID uuid.UUID, period string) map[string]any {
		t.Helper()
		var p *string
		if period != "" {
			p = &period
		}
		raw, err := f.Scope.Store().ChargeReceiptMail(f.Ctx, sharddb.ChargeReceiptMailParams{OrganizationID: f.Scope.OrgID,
			DonationID: donation, TransactionID: txID, Period: p})
		require.NoError(t, err)
		var m map[string]any
		if raw != nil {
			require.NoError(t, json.Unmarshal(raw, &m))
		}
		return m
	}
	want := map[string]any{"number": float64(1), "transaction_id": tx.ID.String(), "amount_minor": float64(150000),
		"currency": "ARS", "first_name": "Ana", "slug": slug}
	for name, got := range map[string]map[string]any{
		"the record's answer":        answered,
		"its transaction":            mail(tx.DonationID, tx.ID, ""),
		"its transaction and period": mail(tx.DonationID, tx.ID, "2031-06"),
		"another attempt's id":       mail(tx.DonationID, uuid.New(), "2031-06"),
	} {
		require.NotNil(t, got, name)
		for k, v := range want {
			require.Equal(t, v, got[k], "%s: %s", name, k)
		}
		require.Contains(t, got["donor_email"], "@donor.test", name)
		require.Contains(t, got["org_legal_name"], "Fundación Registro", name)
		require.NotEmpty(t, got["org_locale"], name)
	}
	require.Nil(t, mail(tx.DonationID, uuid.New(), "2031-07"), "a period without a receipt")
	require.Nil(t, mail(tx.DonationID, uuid.New(), ""), "another transaction, no period")
	require.Nil(t, mail(other.DonationID, tx.ID, "2031-06"), "another donation's receipt")
}
