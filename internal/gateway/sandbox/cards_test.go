package sandbox_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
)

// Cards are checked and branded by the payment methods of their site: the card vault names the
// country, so a Brazilian Elo is an Elo there and no card at all in Argentina.
func TestVaultTokensAreBrandedByTheirCountrysSite(t *testing.T) {
	t.Parallel()
	c := newClient(t, nil)
	vault := func(country, pan string) (map[string]any, error) {
		var tok map[string]any
		err := c.Do(context.Background(), http.MethodPost, "/cvault/credit-card/temporal", nil, map[string]any{
			"country_code": country, "holder_name": "APRO", "key": "k", "pan": pan,
			"expiration_month": 11, "expiration_year": time.Now().Year() + 2,
		}, &tok)
		return tok, err
	}
	tok, err := vault("BR", "5067766783888311")
	require.NoError(t, err)
	require.Equal(t, "debelo", tok["payment_method_id"])
	tok, err = vault("ar", "5031755734530604")
	require.NoError(t, err)
	require.Equal(t, "master", tok["payment_method_id"])

	_, err = vault("AR", "6362970000457013") // an Elo BIN
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	require.Equal(t, http.StatusBadRequest, gerr.Status)
}
