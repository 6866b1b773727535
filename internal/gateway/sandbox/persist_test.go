package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/money"
)

// serve starts a sandbox keeping its state at path, behind the real MercadoPago adapter.
func serve(t *testing.T, path string) (*mercadopago.Client, string, func()) {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{StatePath: path})
	require.NoError(t, err)
	srv := httptest.NewServer(sb)
	gw, err := mercadopago.New(mercadopago.Config{BaseURL: srv.URL, AccessToken: sandbox.DefaultPlatformToken, Currency: "ARS"})
	require.NoError(t, err)
	return gw, srv.URL, srv.Close
}

// TestStateSurvivesRestarts: customers, cards, payments, refunds and idempotency answers come back
// after a restart, from the journal and from the snapshot it is compacted into; a journal line torn
// by a crash is dropped.
func TestStateSurvivesRestarts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sandboxgw.json")
	gw, url, stop := serve(t, path)

	cust, err := gw.EnsureCustomer(ctx, gateway.Customer{Email: "ana@example.org", FirstName: "Ana", LastName: "Paz", IDType: "DNI", IDNumber: "30111222"})
	require.NoError(t, err)
	body, _ := json.Marshal(card(func(map[string]any, map[string]string) {}))
	res, err := http.Post(url+"/v1/card_tokens", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	var tok struct{ ID string }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&tok))
	res.Body.Close()
	crd, err := gw.SaveCard(ctx, cust.ID, tok.ID)
	require.NoError(t, err)
	charge := gateway.Charge{IdempotencyKey: "k-1", ExternalReference: "ref-1", Amount: money.Amount{Minor: 150000, Currency: "ARS"},
		CustomerID: cust.ID, CardID: crd.ID, PaymentMethodID: crd.PaymentMethodID, Email: "ana@example.org"}
	paid, err := gw.Charge(ctx, charge)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, paid.Status)
	_, err = gw.Refund(ctx, gateway.RefundRequest{PaymentID: paid.ID, IdempotencyKey: "r-1"})
	require.NoError(t, err)
	stop()

	snapshot, err := os.ReadFile(path)
	require.NoError(t, err)
	journal, err := os.ReadFile(path + ".journal")
	require.NoError(t, err)
	entries := strings.Split(strings.TrimSpace(string(journal)), "\n")
	require.Len(t, entries, 6, "one entry per change: customer, card token, saved card, the saved card's token, payment, refund")
	require.NotContains(t, string(snapshot), paid.ID, "the snapshot is only rewritten when the journal outgrows it")
	f, err := os.OpenFile(path+".journal", os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"payments":{"1":{"id":`) // a crash mid-append
	require.NoError(t, err)
	require.NoError(t, f.Close())

	for restart := range 2 { // from the journal, then from the snapshot it was folded into
		gw, _, stop := serve(t, path)
		got, err := gw.Payment(ctx, paid.ID)
		require.NoError(t, err, "restart %d", restart)
		require.Equal(t, gateway.StatusRefunded, got.Status)
		again, err := gw.Charge(ctx, charge) // the same idempotency key answers the first payment
		require.NoError(t, err)
		require.Equal(t, paid.ID, again.ID)
		found, err := gw.FindPayments(ctx, "ref-1")
		require.NoError(t, err)
		require.Len(t, found, 1)
		_, err = gw.SaveCard(ctx, cust.ID, tok.ID) // the customer and the token are known
		require.NoError(t, err)
		stop()
	}
	snapshot, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(snapshot), paid.ID)
}
