package centralpos_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/centralpos"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
)

// newCode asks the sandbox for an authorization code, as a merchant copies one from CentralPos.
func newCode(t *testing.T, base, legalName, country string) string {
	t.Helper()
	res, err := http.Post(base+"/__sandbox/centralpos/codes", "application/json",
		strings.NewReader(`{"legal_name":"`+legalName+`","country":"`+country+`"}`))
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)
	var out struct{ Code string }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	require.True(t, strings.HasPrefix(out.Code, "CP-"), out.Code)
	return out.Code
}

func TestConnectAndRevoke(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := sandboxtest.NewClock()
	srv := sandboxtest.Serve(t, sandbox.Options{Now: clk.Now})
	cp, err := centralpos.New(centralpos.Config{BaseURL: srv.URL + "/centralpos/v1", PartnerKey: sandbox.DefaultPartnerKey})
	require.NoError(t, err)

	code := newCode(t, srv.URL, "Fundación Andes", "PE")
	c, err := cp.Connect(ctx, code)
	require.NoError(t, err)
	require.Equal(t, "Fundación Andes", c.AccountName)
	require.Equal(t, "PE", c.Country)
	require.True(t, strings.HasPrefix(c.AccountID, "mer_"), c.AccountID)
	require.NotEmpty(t, c.AccessToken)
	require.NotEmpty(t, c.PublicKey)
	require.Empty(t, c.RefreshToken)
	require.False(t, c.LiveMode)
	require.True(t, c.ExpiresAt.IsZero())

	_, err = cp.Connect(ctx, code)
	require.ErrorIs(t, err, gateway.ErrInvalidGrant, "a used code")
	_, err = cp.Connect(ctx, "CP-NEVER")
	require.ErrorIs(t, err, gateway.ErrInvalidGrant, "an unknown code")
	old := newCode(t, srv.URL, "Fundación Andes", "PE")
	clk.Advance(10*time.Minute + time.Second)
	_, err = cp.Connect(ctx, old)
	require.ErrorIs(t, err, gateway.ErrInvalidGrant, "a code older than 10 minutes")

	// A wrong partner key is the platform's misconfiguration, not a refused code.
	wrong, err := centralpos.New(centralpos.Config{BaseURL: srv.URL + "/centralpos/v1", PartnerKey: "guess"})
	require.NoError(t, err)
	_, err = wrong.Connect(ctx, newCode(t, srv.URL, "Otra", "PE"))
	require.Error(t, err)
	require.NotErrorIs(t, err, gateway.ErrInvalidGrant)

	// Only the merchant's own API key unlinks it; unlinking twice is done.
	other, err := cp.Connect(ctx, newCode(t, srv.URL, "Otra", "PE"))
	require.NoError(t, err)
	stolen := c
	stolen.AccessToken = other.AccessToken
	var gerr *gateway.Error
	require.ErrorAs(t, cp.Revoke(ctx, stolen), &gerr)
	require.Equal(t, http.StatusUnauthorized, gerr.Status)
	require.NoError(t, cp.Revoke(ctx, c))
	require.NoError(t, cp.Revoke(ctx, c))

	_, err = centralpos.New(centralpos.Config{BaseURL: srv.URL})
	require.Error(t, err, "no partner key")
}
