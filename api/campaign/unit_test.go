package campaign

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/money"
)

func TestSlugify(t *testing.T) {
	require.Equal(t, "dona-a-fundacion-nino-feliz", Slugify("¡Doná a Fundación Niño Feliz!"))
	require.True(t, strings.HasPrefix(Slugify("!!"), "campana-"))
}

func TestValidateColourAndPercentage(t *testing.T) {
	base := Input{Title: "T", Type: "fundraise", Channel: "public"}
	in := base
	in.FormColor = "#12345g"
	_, err := validate(in, "ARS")
	require.ErrorContains(t, err, "campaign.color_invalid")
	in = base
	in.FormColor = "#abc"
	_, err = validate(in, "ARS")
	require.NoError(t, err)
	p, m := 50.0, 12
	in.PeriodicIncrease = PeriodicIncrease{Enabled: true, Percentage: &p, PeriodMonths: &m}
	_, err = validate(in, "ARS")
	require.NoError(t, err, "default bounds are 1% to 100%")
	in.Amounts = []Amount{{Amount: "10.555"}}
	_, err = validate(in, "ARS")
	require.Error(t, err, "ARS has two decimals")
	ch, err := validate(Input{Title: "T", Type: "crowdfund", Channel: "public", Amounts: []Amount{{Amount: "5000"}}}, "CLP")
	require.NoError(t, err)
	require.Equal(t, int64(5000), ch.amounts[0].Minor)
}

func TestFormFieldRelatedToADonorColumn(t *testing.T) {
	in := Input{Title: "T", Type: "fundraise", Channel: "public",
		FormFields: []FormField{{Type: "cellphone", Title: "Celular", ValueRelatedTo: "donor.cellphone"}}}
	_, err := validate(in, "ARS")
	require.NoError(t, err)
	in.FormFields[0].ValueRelatedTo = "donor.password"
	_, err = validate(in, "ARS")
	var e *apierror.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, map[string]string{"form_fields.0.value_related_to": "campaign.invalid_option"}, e.Fields)
}

func TestMakeQR(t *testing.T) {
	q, err := MakeQR("https://aporta.test/d/dona", "dona")
	require.NoError(t, err)
	svg, _ := base64.StdEncoding.DecodeString(q.Base64SVG)
	require.Contains(t, string(svg), `<path fill="#000" d="M`)
	require.Equal(t, "qr-dona", q.Filename)
}

func TestDefaultLimits(t *testing.T) {
	require.Equal(t, Limits{Min: 1000, Max: 800000}, DefaultLimits("ARS"))
	require.Equal(t, Limits{Min: 10, Max: 8000}, DefaultLimits("CLP"))
}

type limitsSource struct {
	gateway.CardMethods
	l   gateway.AmountLimits
	err error
}

func (s limitsSource) AmountLimits(context.Context) (gateway.AmountLimits, error) { return s.l, s.err }

func TestGatewayLimitsFallBackToTheDefaults(t *testing.T) {
	ctx := context.Background()
	f := Form{Campaign: &Campaign{Input: Input{}, Currency: "CLP"}}
	svc := &Service{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	require.Equal(t, Limits{Min: 10, Max: 8000}, svc.LimitsFor(ctx, f), "no account")

	src := limitsSource{l: gateway.AmountLimits{Min: money.Amount{Minor: 500, Currency: "CLP"}, Max: money.Amount{Minor: 900000, Currency: "CLP"}}}
	svc.Accounts = func(context.Context, Form) (Account, error) { return Account{Client: src}, nil }
	require.Equal(t, Limits{Min: 500, Max: 900000}, svc.LimitsFor(ctx, f))

	src.err = errors.New("gateway down")
	require.Equal(t, Limits{Min: 10, Max: 8000}, svc.LimitsFor(ctx, f))
	svc.Accounts = func(context.Context, Form) (Account, error) { return Account{}, errors.New("no account") }
	require.Equal(t, Limits{Min: 10, Max: 8000}, svc.LimitsFor(ctx, f))
}
