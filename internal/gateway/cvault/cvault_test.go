package cvault_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/cvault"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
)

func TestTokenize(t *testing.T) {
	t.Parallel()
	srv := sandboxtest.Serve(t, sandbox.Options{})
	vault, err := cvault.New(cvault.Config{BaseURL: srv.URL, Key: "pk_test"})
	require.NoError(t, err)
	ctx := context.Background()
	card := cvault.Card{CountryCode: "AR", HolderName: "APRO", PAN: "5031755734530604", ExpirationMonth: 11, ExpirationYear: time.Now().Year() + 2}

	tok, err := vault.Tokenize(ctx, card)
	require.NoError(t, err, "the security code is optional")
	require.NotEmpty(t, tok.Token)
	require.True(t, tok.ExpiresAt.After(time.Now()))

	// The sandbox keeps vault tokens with MercadoPago's, so one can be saved.
	mp, err := mercadopago.New(mercadopago.Config{BaseURL: srv.URL, AccessToken: sandbox.DefaultPlatformToken, Currency: "ARS"})
	require.NoError(t, err)
	cust, err := mp.EnsureCustomer(ctx, gateway.Customer{Email: "vault@example.org"})
	require.NoError(t, err)
	saved, err := mp.SaveCard(ctx, cust.ID, tok.Token)
	require.NoError(t, err)
	require.Equal(t, "mastercard", saved.PaymentMethodID, "the adapter speaks Aporta's brand names")

	card.PAN, card.CVV = "5031755734530605", "12"
	_, err = vault.Tokenize(ctx, card)
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, "invalid card_number", gerr.Message, "the vault's message is shown as is")
	require.Equal(t, gateway.KeyCardNumber, gerr.Key)
	require.Len(t, gerr.Causes, 2)
}
