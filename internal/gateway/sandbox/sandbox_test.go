package sandbox_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/internal/rest"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
)

func newClient(t *testing.T, header http.Header) *rest.Client {
	t.Helper()
	srv := sandboxtest.Serve(t, sandbox.Options{})
	c, err := rest.New(srv.URL, nil, time.Second, header)
	require.NoError(t, err)
	return c
}

// card is a valid browser tokenisation body that each case spoils once.
func card(change func(map[string]any, map[string]string)) map[string]any {
	id := map[string]string{"type": "DNI", "number": "30111222"}
	c := map[string]any{
		"card_number": "4509953566233704", "security_code": "123",
		"expiration_month": 11, "expiration_year": time.Now().Year() + 2,
		"cardholder": map[string]any{"name": "APRO", "identification": id},
	}
	change(c, id)
	return c
}

func TestCardTokenCausesMapToMessages(t *testing.T) {
	t.Parallel()
	c := newClient(t, nil)
	for _, tc := range []struct {
		name   string
		change func(map[string]any, map[string]string)
		code   string
		key    gateway.MessageKey
	}{
		{"luhn", func(c map[string]any, _ map[string]string) { c["card_number"] = "4509953566233705" }, "E301", gateway.KeyCardNumber},
		{"length", func(c map[string]any, _ map[string]string) { c["card_number"] = "45099535662337" }, "E301", gateway.KeyCardNumber},
		{"brand", func(c map[string]any, _ map[string]string) { c["card_number"] = "9999999999999995" }, "E301", gateway.KeyCardNumber},
		{"code", func(c map[string]any, _ map[string]string) { c["security_code"] = "12a" }, "E302", gateway.KeySecurityCode},
		{"amex code", func(c map[string]any, _ map[string]string) { c["card_number"] = "371180303257522" }, "E302", gateway.KeySecurityCode},
		{"month", func(c map[string]any, _ map[string]string) { c["expiration_month"] = 0 }, "325", gateway.KeyCheckExpiry},
		{"expired", func(c map[string]any, _ map[string]string) { c["expiration_year"] = time.Now().Year() - 1 }, "326", gateway.KeyCheckExpiry},
		{"holder", func(c map[string]any, _ map[string]string) { c["cardholder"].(map[string]any)["name"] = "" }, "316", gateway.KeyInvalidName},
		{"no document", func(_ map[string]any, id map[string]string) { id["type"], id["number"] = "", "" }, "212", gateway.KeyDocumentRequired},
		{"no number", func(_ map[string]any, id map[string]string) { id["number"] = "" }, "214", gateway.KeyDocumentNumberRequired},
		{"document type", func(_ map[string]any, id map[string]string) { id["type"] = "XX" }, "322", gateway.KeyCheckDocument},
		{"document number", func(_ map[string]any, id map[string]string) { id["number"] = "12" }, "324", gateway.KeyCheckDocument},
	} {
		err := c.Do(context.Background(), http.MethodPost, "/v1/card_tokens", nil, card(tc.change), nil)
		var gerr *gateway.Error
		require.ErrorAs(t, err, &gerr, tc.name)
		require.Equal(t, tc.code, gerr.Causes[0].Code, tc.name)
		require.Equal(t, tc.key, gerr.Key, tc.name)
	}

	// Naranja numbers have no Luhn digit; the token keeps only BIN and last four.
	var tok map[string]any
	require.NoError(t, c.Do(context.Background(), http.MethodPost, "/v1/card_tokens", nil,
		card(func(c map[string]any, _ map[string]string) { c["card_number"] = "5895620000000001" }), &tok))
	require.Equal(t, "naranja", tok["payment_method_id"])
	require.Equal(t, "589562", tok["first_six_digits"])
	require.Equal(t, "0001", tok["last_four_digits"])
	require.NotContains(t, tok, "card_number")
	require.NotContains(t, tok, "security_code")
}

func TestPrivateEndpointsNeedBearer(t *testing.T) {
	t.Parallel()
	err := newClient(t, nil).Do(context.Background(), http.MethodGet, "/v1/payments/search", nil, nil, nil)
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusUnauthorized, gerr.Status)

	var page struct{ Results []any }
	c := newClient(t, http.Header{"Authorization": {"Bearer " + sandbox.DefaultPlatformToken}})
	require.NoError(t, c.Do(context.Background(), http.MethodGet, "/v1/payments/search?external_reference=x", nil, nil, &page))
	require.Empty(t, page.Results)
}

func TestFaultModeIsValidated(t *testing.T) {
	t.Parallel()
	c := newClient(t, nil)
	err := c.Do(context.Background(), http.MethodPost, "/__sandbox/faults", nil, sandbox.Fault{Mode: "explode"}, nil)
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusBadRequest, gerr.Status)
	require.NoError(t, c.Do(context.Background(), http.MethodPost, "/__sandbox/faults", nil, sandbox.Fault{Mode: "none"}, nil))
}
