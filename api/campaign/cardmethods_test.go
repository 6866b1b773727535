package campaign

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
)

// The checkout's card rules and public key are the organisation's gateway account's, resolved once;
// with the gateway unreachable the browser gets no rules and uses its own table.
func TestCheckoutComesFromTheAccount(t *testing.T) {
	ctx := context.Background()
	srv := sandboxtest.Serve(t, sandbox.Options{Currency: "ARS", PlatformToken: "TEST-platform"})
	org := uuid.New()
	resolved := 0
	svc := &Service{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Tokenizers: map[string]string{"mercadopago": "https://tok.example"},
		Accounts: func(_ context.Context, f Form) (Account, error) {
			resolved++
			token := "TEST-platform" // the organisation's account; another's for any other organisation
			if f.Org.ID != org {
				token = "TEST-" + f.Org.ID.String()
			}
			c, err := mercadopago.New(mercadopago.Config{BaseURL: srv.URL, AccessToken: token, Currency: f.Campaign.Currency})
			return Account{Gateway: "mercadopago", PublicKey: "PK-" + token, Client: c}, err
		}}
	f := Form{Campaign: &Campaign{Currency: "ARS"}, Org: Org{ID: org}}

	co, err := svc.Checkout(ctx, f)
	require.NoError(t, err)
	require.Equal(t, 1, resolved)
	require.Equal(t, Checkout{Gateway: "mercadopago", TokenizerURL: "https://tok.example", PublicKey: "PK-TEST-platform",
		PaymentMethods: co.PaymentMethods}, co)
	byID := map[string]PublicCardMethod{}
	for _, m := range co.PaymentMethods {
		byID[m.ID] = m
	}
	require.Equal(t, "^4", byID["visa"].BINPattern)
	require.Equal(t, "debit_card", byID["debmaster"].PaymentType)
	require.Equal(t, []int{15}, byID["amex"].Lengths)
	require.Equal(t, 4, byID["amex"].SecurityCodeLength)
	require.False(t, byID["naranja"].Luhn)

	srv.Close()
	f.Org.ID = uuid.New() // another account, not cached: the gateway is asked and does not answer
	co, err = svc.Checkout(ctx, f)
	require.NoError(t, err)
	require.NotNil(t, co.PaymentMethods, "an empty list, not null")
	require.Empty(t, co.PaymentMethods)
}
