package newdonation_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/newdonation"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// fixture is an organisation with a campaign, a webhook endpoint and a CRM integration, so that every row a new
// donation queues is written.
type fixture struct{ *tenantstest.Fixture }

func newFixture(t *testing.T) *fixture {
	return &fixture{tenantstest.NewFixture(t, "Fundación Alta", "original", "alta", webhook.Events)}
}

// donation is a one-time card donation of 1,500 ARS by email with key, or a monthly one from period.
func (f *fixture) donation(email, first, key string, fields map[string]string, period *string) newdonation.New {
	n := newdonation.New{OrgID: f.Scope.OrgID,
		Donor:         newdonation.Donor{Email: email, FirstName: first, LastName: "Pérez", UIDType: "DNI", UIDNumber: "30111222", Fields: fields},
		PaymentMethod: &newdonation.Card{Gateway: "mercadopago", CustomerID: "cus-" + email, CardID: "card-1", Brand: "visa", LastFour: "4242", ExpiryMonth: 12, ExpiryYear: 2034, HolderName: first + " Pérez"},
		Donation: sharddb.InsertFormDonationParams{CampaignID: f.Campaign, AmountMinor: 150000, Currency: "ARS", IdempotencyKey: &key,
			Items: json.RawMessage(`[]`), FormValues: json.RawMessage(`[]`)},
		Period: period, CollectDay: collectday.Day(10), FirstStatus: "pending"}
	if period != nil {
		n.Donation.Recurrence, n.FirstStatus = 1, "planned"
	}
	return n
}

func (f *fixture) write(n newdonation.New) newdonation.Written {
	f.T.Helper()
	var w newdonation.Written
	require.NoError(f.T, f.Scope.Tx(f.Ctx, func(tx pgx.Tx) error {
		var err error
		w, err = newdonation.Write(f.Ctx, sharddb.Store(tx), n)
		return err
	}))
	return w
}

// A new donation's donor, queued rows and first transaction: a new donor takes the form's related fields; a known
// e-mail's donor is linked and left as it is; the same idempotency key writes nothing twice and queues no second
// donation.created event.
func TestWriteStoresTheDonationAndWhatItQueues(t *testing.T) {
	f := newFixture(t)
	email := uuid.NewString() + "@donor.test"
	first := f.write(f.donation(email, "Ana", "key-1", map[string]string{"phone": "+54 11 5555 0000"}, nil))
	require.Equal(t, "pending", first.Status)

	var donor string
	f.One(&donor, `SELECT first_name || ' ' || phone FROM donors WHERE organization_id = $1 AND id = $2`, f.Scope.OrgID, first.DonorID)
	require.Equal(t, "Ana +54 11 5555 0000", donor)
	var tx string
	f.One(&tx, `SELECT status || ' ' || amount_minor || ' ' || (period IS NULL) || ' ' || (payment_method_id = $3)
		FROM transactions WHERE organization_id = $1 AND id = $2`, f.Scope.OrgID, charge.FirstTransactionID(first.ID), first.PaymentMethodID)
	require.Equal(t, "pending 150000 true true", tx)

	period := "2031-07"
	second := f.write(f.donation(email, "Otra", "key-2", map[string]string{"phone": "+54 11 0000 0000"}, &period))
	require.Equal(t, first.DonorID, second.DonorID, "a known e-mail links its donor")
	require.NotNil(t, first.PaymentMethodID)
	require.Equal(t, *first.PaymentMethodID, *second.PaymentMethodID, "the same gateway customer and card: one payment method")
	var card string
	f.One(&card, `SELECT concat_ws(' ', gateway, customer_id = 'cus-' || $3, card_id, brand, last_four, expiry_month, expiry_year,
		holder_name, donor_id = $4) FROM payment_methods WHERE organization_id = $1 AND id = $2`,
		f.Scope.OrgID, *first.PaymentMethodID, email, first.DonorID)
	require.Equal(t, "mercadopago t card-1 visa 4242 12 2034 Otra Pérez t", card, "saved again: its holder refreshed")
	f.One(&donor, `SELECT first_name || ' ' || phone FROM donors WHERE organization_id = $1 AND id = $2`, f.Scope.OrgID, first.DonorID)
	require.Equal(t, "Ana +54 11 5555 0000", donor, "a form never writes a known donor")
	f.One(&tx, `SELECT status || ' ' || period FROM transactions WHERE organization_id = $1 AND id = $2`,
		f.Scope.OrgID, charge.FirstTransactionID(second.ID))
	require.Equal(t, "planned 2031-07", tx)

	twin := f.write(f.donation(email, "Ana", "key-1", nil, nil))
	require.Equal(t, first.ID, twin.ID, "the key's donation")

	var changes, events, transactions int
	f.One(&changes, `SELECT count(*) FROM crm_changes WHERE organization_id = $1`, f.Scope.OrgID)
	require.Equal(t, 3, changes, "the donor's change, coalesced, and each donation's")
	f.One(&events, `SELECT count(*) FROM webhook_deliveries WHERE organization_id = $1 AND event_type = $2`, f.Scope.OrgID, webhook.DonationCreated)
	require.Equal(t, 2, events, "one donation.created per donation, none for the twin")
	var body struct {
		Data webhook.Donation `json:"data"`
	}
	var raw []byte
	f.One(&raw, `SELECT body FROM webhook_deliveries WHERE organization_id = $1 AND event_id = $2`,
		f.Scope.OrgID, webhook.EventID(second.ID, webhook.DonationCreated))
	require.NoError(t, json.Unmarshal(raw, &body))
	require.True(t, body.Data.Monthly)
	require.Equal(t, second.ID, body.Data.DonationID)
	f.One(&transactions, `SELECT count(*) FROM transactions WHERE organization_id = $1`, f.Scope.OrgID)
	require.Equal(t, 2, transactions)
}

// On Citus the donor's and card's writes and the queued rows are each one call that the coordinator sends whole to
// the organisation's worker (migrations/shard/0600, 0660): none of the rows they write is a remote command of its own.
func TestWriteSendsTheDonorAndTheQueueWholeToTheWorker(t *testing.T) {
	tenantstest.Citus(t)
	f := newFixture(t)
	conn, remote := tenantstest.RemoteCommands(t, "AR")
	require.NoError(t, pgx.BeginFunc(f.Ctx, conn, func(tx pgx.Tx) error {
		_, err := newdonation.Write(f.Ctx, sharddb.Store(tx), f.donation(uuid.NewString()+"@donor.test", "Ana", "key-1", map[string]string{"city": "Rosario"}, nil))
		return err
	}))
	sent := remote()
	calls := map[string]int{}
	for _, r := range sent {
		for _, name := range []string{"donor_card_link(", "donor_link(", "donation_queue(", "crm_enqueue(", "webhook_enqueue(",
			"INTO public.donors_", "UPDATE public.donors_", "INTO public.payment_methods_", "public.crm_changes_",
			"public.webhook_deliveries_", "INTO public.transactions_"} {
			if strings.Contains(r, name) {
				calls[name]++
			}
		}
	}
	require.Equal(t, map[string]int{"donor_card_link(": 1, "donation_queue(": 1}, calls, "remote commands: %q", sent)
}
