package money_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/money"
)

func TestFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   money.Amount
		want string
	}{
		{"ARS", money.Amount{Minor: 123456, Currency: "ARS"}, "$ 1.234,56"},
		{"ARS zero", money.Amount{Minor: 0, Currency: "ARS"}, "$ 0,00"},
		{"ARS cents", money.Amount{Minor: 5, Currency: "ARS"}, "$ 0,05"},
		{"ARS negative", money.Amount{Minor: -123456, Currency: "ARS"}, "-$ 1.234,56"},
		{"ARS millions", money.Amount{Minor: 300000000, Currency: "ARS"}, "$ 3.000.000,00"},
		{"UYU", money.Amount{Minor: 123456, Currency: "UYU"}, "$U 1.234,56"},
		{"UYU zero", money.Amount{Minor: 0, Currency: "UYU"}, "$U 0,00"},
		{"UYU negative", money.Amount{Minor: -99, Currency: "UYU"}, "-$U 0,99"},
		{"UYU large", money.Amount{Minor: 11000000, Currency: "UYU"}, "$U 110.000,00"},
		{"BRL", money.Amount{Minor: 1500000, Currency: "BRL"}, "R$ 15.000,00"},
		{"BRL zero", money.Amount{Minor: 0, Currency: "BRL"}, "R$ 0,00"},
		{"BRL negative", money.Amount{Minor: -1000, Currency: "BRL"}, "-R$ 10,00"},
		{"BRL lowercase code", money.Amount{Minor: 123456, Currency: "brl"}, "R$ 1.234,56"},
		{"PEN", money.Amount{Minor: 1100000, Currency: "PEN"}, "S/ 11.000,00"},
		{"PEN zero", money.Amount{Minor: 0, Currency: "PEN"}, "S/ 0,00"},
		{"PEN negative", money.Amount{Minor: -250, Currency: "PEN"}, "-S/ 2,50"},
		{"USD", money.Amount{Minor: 123456, Currency: "USD"}, "US$ 1,234.56"},
		{"USD zero", money.Amount{Minor: 0, Currency: "USD"}, "US$ 0.00"},
		{"USD negative", money.Amount{Minor: -800000, Currency: "USD"}, "-US$ 8,000.00"},
		{"USD large", money.Amount{Minor: 123456789012, Currency: "USD"}, "US$ 1,234,567,890.12"},
		{"MXN", money.Amount{Minor: 5000000, Currency: "MXN"}, "$ 50,000.00"},
		{"MXN zero", money.Amount{Minor: 0, Currency: "MXN"}, "$ 0.00"},
		{"MXN negative", money.Amount{Minor: -1, Currency: "MXN"}, "-$ 0.01"},
		{"CLP", money.Amount{Minor: 1234, Currency: "CLP"}, "$ 1.234"},
		{"CLP zero", money.Amount{Minor: 0, Currency: "CLP"}, "$ 0"},
		{"CLP small", money.Amount{Minor: 999, Currency: "CLP"}, "$ 999"},
		{"CLP negative", money.Amount{Minor: -1000, Currency: "CLP"}, "-$ 1.000"},
		{"COP", money.Amount{Minor: 14000000, Currency: "COP"}, "$ 14.000.000"},
		{"COP zero", money.Amount{Minor: 0, Currency: "COP"}, "$ 0"},
		{"COP negative", money.Amount{Minor: -5000, Currency: "COP"}, "-$ 5.000"},
		{"other currency", money.Amount{Minor: 123456, Currency: "EUR"}, "EUR 1.234,56"},
		{"other currency negative", money.Amount{Minor: -1, Currency: "EUR"}, "-EUR 0,01"},
		{"no currency", money.Amount{Minor: 123456}, "1.234,56"},
		{"max int64", money.Amount{Minor: math.MaxInt64, Currency: "ARS"}, "$ 92.233.720.368.547.758,07"},
		{"min int64", money.Amount{Minor: math.MinInt64, Currency: "ARS"}, "-$ 92.233.720.368.547.758,08"},
		{"min int64 CLP", money.Amount{Minor: math.MinInt64, Currency: "CLP"}, "-$ 9.223.372.036.854.775.808"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tc.want, tc.in.Format())
		})
	}
}

func TestDecimals(t *testing.T) {
	t.Parallel()
	tests := map[string]int{
		"ARS": 2, "UYU": 2, "BRL": 2, "PEN": 2, "USD": 2, "MXN": 2,
		"CLP": 0, "COP": 0, "clp": 0, "EUR": 2,
	}
	for currency, want := range tests {
		t.Run(currency, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, want, money.Decimals(currency))
		})
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, currency string
		want         money.Amount
	}{
		{"1234.56", "ARS", money.Amount{Minor: 123456, Currency: "ARS"}},
		{"1234.5", "ARS", money.Amount{Minor: 123450, Currency: "ARS"}},
		{"1234", "ARS", money.Amount{Minor: 123400, Currency: "ARS"}},
		{"0", "ARS", money.Amount{Minor: 0, Currency: "ARS"}},
		{"0.01", "usd", money.Amount{Minor: 1, Currency: "USD"}},
		{"007.10", "BRL", money.Amount{Minor: 710, Currency: "BRL"}},
		{"8000", "PEN", money.Amount{Minor: 800000, Currency: "PEN"}},
		{"50000.00", "MXN", money.Amount{Minor: 5000000, Currency: "MXN"}},
		{"110000", "UYU", money.Amount{Minor: 11000000, Currency: "UYU"}},
		{"1234", "CLP", money.Amount{Minor: 1234, Currency: "CLP"}},
		{"14000000", "COP", money.Amount{Minor: 14000000, Currency: "COP"}},
		{"92233720368547758.07", "ARS", money.Amount{Minor: math.MaxInt64, Currency: "ARS"}},
		{"10.5", "EUR", money.Amount{Minor: 1050, Currency: "EUR"}},
	}
	for _, tc := range tests {
		t.Run(tc.currency+"/"+tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := money.Parse(tc.in, tc.currency)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, currency string
		want         error
	}{
		{"-1", "ARS", money.ErrNegative},
		{"-0.01", "USD", money.ErrNegative},
		{"1.234", "ARS", money.ErrPrecision},
		{"10.5", "CLP", money.ErrPrecision},
		// Zero decimals still count: "10.0" is not a COP amount the form sends.
		{"10.0", "COP", money.ErrPrecision},
		{"", "ARS", money.ErrSyntax},
		{"NaN", "ARS", money.ErrSyntax},
		{"Inf", "ARS", money.ErrSyntax},
		{"+Inf", "ARS", money.ErrSyntax},
		{"+5", "ARS", money.ErrSyntax},
		{"1e3", "ARS", money.ErrSyntax},
		{"1,234.56", "USD", money.ErrSyntax},
		{"1234,56", "ARS", money.ErrSyntax},
		{".5", "ARS", money.ErrSyntax},
		{"5.", "ARS", money.ErrSyntax},
		{"1.2.3", "ARS", money.ErrSyntax},
		{" 5", "ARS", money.ErrSyntax},
		{"0x10", "ARS", money.ErrSyntax},
		{"٣", "ARS", money.ErrSyntax}, // Arabic-Indic three: a Unicode digit, not ASCII
		{"92233720368547758.08", "ARS", money.ErrRange},
		{"99999999999999999999", "CLP", money.ErrRange},
		{"10", "", money.ErrCurrency},
		{"10", "PESOS", money.ErrCurrency},
		{"10", "U$S", money.ErrCurrency},
	}
	for _, tc := range tests {
		t.Run(tc.currency+"/"+tc.in, func(t *testing.T) {
			t.Parallel()
			_, err := money.Parse(tc.in, tc.currency)
			require.ErrorIs(t, err, tc.want)
		})
	}
}

// Parse and Format must agree on the meaning of Minor for every currency.
func TestParseFormatRoundTrip(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"ARS": "$ 1.234,50", "UYU": "$U 1.234,50", "BRL": "R$ 1.234,50", "PEN": "S/ 1.234,50",
		"USD": "US$ 1,234.50", "MXN": "$ 1,234.50", "CLP": "$ 1.234", "COP": "$ 1.234",
	}
	for currency, want := range tests {
		t.Run(currency, func(t *testing.T) {
			t.Parallel()
			in := "1234.5"
			if money.Decimals(currency) == 0 {
				in = "1234"
			}
			a, err := money.Parse(in, currency)
			require.NoError(t, err)
			require.Equal(t, want, a.Format())
		})
	}
}

// TestWire: provider amounts read back to minor units and render as providers expect them.
func TestWire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		decimal  string
		currency string
		minor    int64
		render   string
	}{
		{"1500.5", "ARS", 150050, "1500.50"},
		{"1500.50", "ARS", 150050, "1500.50"},
		{"10", "ARS", 1000, "10.00"},
		{"0.07", "BRL", 7, "0.07"},
		{"-0.07", "BRL", -7, "-0.07"},
		{"25000", "CLP", 25000, "25000"},
		{"25000.00", "COP", 25000, "25000"},
	} {
		m, err := money.ParseWire(tc.decimal, tc.currency)
		require.NoError(t, err, tc.decimal)
		require.Equal(t, money.New(tc.minor, tc.currency), m)
		require.Equal(t, tc.render, m.Decimal())
	}
	for _, bad := range []struct{ decimal, currency string }{
		{"10.505", "ARS"}, {"100.5", "CLP"}, {"1e3", "ARS"}, {"", "ARS"}, {".5", "ARS"}, {"1.2.3", "ARS"}, {"+1", "ARS"},
	} {
		_, err := money.ParseWire(bad.decimal, bad.currency)
		require.Error(t, err, bad.decimal)
	}
}

// TestJSON: the one API shape, and minor and currency survive a round trip.
func TestJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(money.New(150050, "ARS"))
	require.NoError(t, err)
	require.JSONEq(t, `{"minor":150050,"currency":"ARS","decimal":"1500.50","formatted":"$ 1.500,50"}`, string(b))
	b, err = json.Marshal(money.New(25000, "CLP"))
	require.NoError(t, err)
	require.JSONEq(t, `{"minor":25000,"currency":"CLP","decimal":"25000","formatted":"$ 25.000"}`, string(b))
	var back money.Amount
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, money.New(25000, "CLP"), back)
}
