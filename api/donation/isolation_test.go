package donation_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/connections"
)

// ledger is the payment ids the sandbox recorded as taken by the organisation's own account.
func ledger(t *testing.T, f fixture) (accountID string, ids map[string]bool) {
	t.Helper()
	ctx := context.Background()
	scope, err := f.tt.ForOrganization(ctx, f.org)
	require.NoError(t, err)
	store, err := connections.Open(ctx, f.cfg)
	require.NoError(t, err)
	conn, err := store.ActiveConnection(ctx, scope, connections.MercadoPago)
	require.NoError(t, err)
	res, err := http.Get(f.cfg.GatewayURL + "/__sandbox/payments?user_id=" + conn.AccountID)
	require.NoError(t, err)
	defer res.Body.Close()
	var ps []struct {
		ID          json.Number `json:"id"`
		CollectorID json.Number `json:"collector_id"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&ps))
	ids = map[string]bool{}
	for _, p := range ps {
		require.Equal(t, conn.AccountID, p.CollectorID.String())
		ids[p.ID.String()] = true
	}
	return conn.AccountID, ids
}

// paid is the gateway payment ids of the organisation's approved transactions.
func paid(t *testing.T, f fixture) []string {
	t.Helper()
	scope, err := f.tt.ForOrganization(context.Background(), f.org)
	require.NoError(t, err)
	rows, err := scope.Query(context.Background(),
		"SELECT gateway_payment_id FROM transactions WHERE organization_id = $1 AND status = 'approved'", f.org)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		out = append(out, id)
	}
	return out
}

// TestTwoOrganisationsNeverShareAnAccount: two organisations of the same country, each connected
// to its own sandbox account, take one-time donations (charged by the API) and monthly ones whose
// first period the collection workflow charges on the stack's worker. Every payment lands in the
// account of the organisation whose donation it is, and none in the other's.
func TestTwoOrganisationsNeverShareAnAccount(t *testing.T) {
	t.Parallel()
	planned := func(in *campaign.Input) { in.ImmediateCharge = false }
	a, b := setup(t, planned), setup(t, planned)
	for _, f := range []fixture{a, b} {
		for _, recurrency := range []int{0, 1} {
			r := post(t, f.srv.URL+"/d/"+f.slug, payload(token(t, f.cfg, "APRO"), recurrency, "1500", email(), uuid.NewString()))
			require.Equal(t, http.StatusCreated, r.Status, r.Body)
		}
	}
	for _, f := range []fixture{a, b} {
		require.Eventually(t, func() bool { return len(paid(t, f)) == 2 }, 20*time.Second, 200*time.Millisecond,
			"the one-time charge and the worker's first monthly charge")
	}
	accountA, ledgerA := ledger(t, a)
	accountB, ledgerB := ledger(t, b)
	require.NotEqual(t, accountA, accountB)
	for _, id := range paid(t, a) {
		require.True(t, ledgerA[id], fmt.Sprintf("payment %s of A is in A's account", id))
		require.False(t, ledgerB[id], fmt.Sprintf("payment %s of A is not in B's account", id))
	}
	for _, id := range paid(t, b) {
		require.True(t, ledgerB[id], fmt.Sprintf("payment %s of B is in B's account", id))
		require.False(t, ledgerA[id], fmt.Sprintf("payment %s of B is not in A's account", id))
	}
	require.Len(t, ledgerA, 2)
	require.Len(t, ledgerB, 2)
}
