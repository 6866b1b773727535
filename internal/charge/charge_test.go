package charge

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/tenants"
)

// The keys of payments already at the gateway: they must never change.
func TestKeyDerivesFromTheTransaction(t *testing.T) {
	t.Parallel()
	donation := uuid.MustParse("6f1f3c8e-0000-4000-8000-000000000001")
	first := FirstTransactionID(donation)
	require.Equal(t, uuid.NewSHA1(donation, []byte("first-transaction")), first)
	require.Equal(t, Key{Idempotency: "aporta-tx-" + first.String(), Reference: first.String()},
		Transaction{ID: first, DonationID: donation, Attempt: 1}.Key(), "one-time")
	require.Equal(t, Key{Idempotency: donation.String() + "/2027-03", Reference: donation.String() + "/2027-03"},
		Transaction{ID: first, DonationID: donation, Period: "2027-03", Attempt: 1}.Key(), "a period's first attempt, whoever charges it")
	require.Equal(t, donation.String()+"/2027-03/3", Transaction{DonationID: donation, Period: "2027-03", Attempt: 3}.Key().Idempotency)
	require.Equal(t, uuid.NewSHA1(donation, []byte("transaction/2027-03/3")), AttemptID(donation, "2027-03", 3))
}

type fakeGateway struct {
	charged  []gateway.Charge
	err      error
	payments []gateway.Payment
}

func (g *fakeGateway) Charge(_ context.Context, c gateway.Charge) (gateway.Payment, error) {
	g.charged = append(g.charged, c)
	return gateway.Payment{}, g.err
}

func (g *fakeGateway) FindPayments(context.Context, string) ([]gateway.Payment, error) {
	return g.payments, nil
}

// Neither a refusal nor an outcome the gateway has no record of yet is recorded: nothing to write,
// and the caller decides (the form answers, collection retries with the same key).
func TestChargeLeavesUnrecordedWhatTheGatewayHasNot(t *testing.T) {
	t.Parallel()
	tx := Transaction{ID: uuid.New(), DonationID: uuid.New()}
	g := &fakeGateway{err: &gateway.UnknownOutcomeError{Err: errors.New("timeout")}}
	_, err := Charge(context.Background(), tenants.Scope{}, g, tx, gateway.Charge{})
	var unknown *gateway.UnknownOutcomeError
	require.ErrorAs(t, err, &unknown)
	require.Equal(t, tx.Key().Idempotency, g.charged[0].IdempotencyKey)
	require.Equal(t, tx.Key().Reference, g.charged[0].ExternalReference)

	g = &fakeGateway{err: &gateway.Error{Status: 400}}
	_, err = Charge(context.Background(), tenants.Scope{}, g, tx, gateway.Charge{})
	var refused *gateway.Error
	require.ErrorAs(t, err, &refused)
}

func TestFindPrefersTheApprovedPayment(t *testing.T) {
	t.Parallel()
	g := &fakeGateway{payments: []gateway.Payment{{ID: "2", Status: gateway.StatusRejected}, {ID: "1", Status: gateway.StatusApproved}}}
	p, ok, err := Find(context.Background(), g, "ref")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "1", p.ID)
	_, ok, err = Find(context.Background(), &fakeGateway{}, "ref")
	require.NoError(t, err)
	require.False(t, ok)
}

func TestOutcomeOfAnUnmodelledStatusIsPending(t *testing.T) {
	t.Parallel()
	o := OutcomeOf(gateway.Payment{Status: "authorized"})
	require.Equal(t, gateway.StatusPending, o.Status)
	require.True(t, o.Pending())
	require.False(t, o.At.IsZero())
}
