package campaign

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
)

// The public read's card rules are the organisation's gateway account's, read through charge.Gateways;
// with the gateway unreachable the form gets none and uses its own table.
func TestPublicCardMethodsComeFromTheAccount(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	sb, err := sandbox.New(sandbox.Options{Currency: "ARS", PlatformToken: "TEST-platform"})
	require.NoError(t, err)
	srv := httptest.NewServer(sb)
	defer srv.Close()
	org := uuid.New()
	var asked uuid.UUID
	gateways := charge.GatewaysFunc(func(_ context.Context, orgID uuid.UUID, currency string) (charge.Gateway, error) {
		asked = orgID
		token := "TEST-platform" // the organisation's account; another's for any other organisation
		if orgID != org {
			token = "TEST-" + orgID.String()
		}
		return mercadopago.New(mercadopago.Config{BaseURL: srv.URL, AccessToken: token, Currency: currency})
	})
	svc := &Service{CardMethods: GatewayCardMethods(gateways, log)}
	f := Form{Campaign: &Campaign{Currency: "ARS"}, Org: Org{ID: org}}

	methods := svc.publicCardMethods(ctx, f)
	require.Equal(t, org, asked)
	byID := map[string]PublicCardMethod{}
	for _, m := range methods {
		byID[m.ID] = m
	}
	require.Equal(t, "^4", byID["visa"].BINPattern)
	require.Equal(t, "debit_card", byID["debmaster"].PaymentType)
	require.Equal(t, []int{15}, byID["amex"].Lengths)
	require.Equal(t, 4, byID["amex"].SecurityCodeLength)
	require.False(t, byID["naranja"].Luhn)

	srv.Close()
	f.Org.ID = uuid.New() // another account, not cached: the gateway is asked and does not answer
	require.Empty(t, svc.publicCardMethods(ctx, f))
	require.NotNil(t, svc.publicCardMethods(ctx, f), "an empty list, not null")
}
