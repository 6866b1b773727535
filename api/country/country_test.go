package country_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/taxid"
)

// TestPublicCountries: signup's countries come from the reference tables, and the tax-id types
// they offer are ones internal/taxid validates, each example shaped like its mask.
func TestPublicCountries(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	res := s.Visitor(t).JSON(http.MethodGet, "/api/public/countries", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var out struct{ Countries []reference.Country }
	res.Decode(t, &out)

	codes := make([]string, len(out.Countries))
	for i, c := range out.Countries {
		codes[i] = c.Code
		require.NotEmpty(t, c.UIDOptions, c.Code)
		for _, o := range c.UIDOptions {
			var te *taxid.Error
			if err := taxid.Validate(c.Code, o.Type, o.Placeholder); err != nil {
				require.True(t, errors.As(err, &te) && te.Code == taxid.CodeInvalidCheckDigit, "%s %s %q: %v", c.Code, o.Type, o.Placeholder, err)
			}
		}
	}
	require.Equal(t, []string{"AR", "BR", "CL", "CO", "MX", "PE", "UY"}, codes)
	ar := out.Countries[0]
	require.Equal(t, "ARS", ar.Currency)
	require.Equal(t, "+54", ar.PhoneCode)
	require.Equal(t, []reference.UIDOption{{Type: "CUIT", Placeholder: "30-12345678-9"}, {Type: "CUIL", Placeholder: "20-12345678-9"}}, ar.UIDOptions)

	require.Equal(t, []string{"card", "cbu", "bank_transfer"}, ar.PaymentModes)
	require.Equal(t, []string{"card"}, out.Countries[1].PaymentModes, "Brazil is card-only")

	// Every country sells every tier monthly and yearly, in its own currency beside the USD list price.
	for _, c := range out.Countries {
		require.Len(t, c.Plans, 7, c.Code)
		require.Equal(t, "original", c.Plans[0].Code)
		for _, p := range c.Plans {
			require.Equal(t, c.Currency, p.LocalizePrice.Currency, c.Code+" "+p.Code)
			require.Equal(t, "USD", p.USDPrice.Currency)
		}
	}
	py, ok := ar.Plan("professional_yearly")
	require.True(t, ok)
	require.Equal(t, reference.Plan{Code: "professional_yearly", TierName: "Professional", Period: "yearly",
		LocalizePrice: money.New(1788000_00, "ARS"), USDPrice: money.New(1490_00, "USD")}, py)
	cl, _ := out.Countries[2].Plan("essential_monthly")
	require.Equal(t, money.New(47000, "CLP"), cl.LocalizePrice)
}
