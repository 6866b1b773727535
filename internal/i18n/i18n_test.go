package i18n

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNegotiate(t *testing.T) {
	t.Parallel()
	require.Equal(t, ES, Negotiate(nil, ""))
	require.Equal(t, PTBR, Negotiate([]string{"pt-BR"}, "en"))
	require.Equal(t, EN, Negotiate([]string{"", "en_US"}, "es"), "the cookie applies when the query has none")
	require.Equal(t, ESAR, Negotiate([]string{"fr"}, "es-AR,es;q=0.9"), "Argentine Spanish")
	require.Equal(t, ES, Negotiate(nil, "es-ES,es;q=0.9"), "a region without a variant reads the base language")
	require.Equal(t, PTBR, Negotiate(nil, "pt-BR,pt;q=0.9,en;q=0.5"))
	require.Equal(t, EN, Negotiate(nil, "en-US"))
	require.Equal(t, ES, Negotiate(nil, "de-DE"), "an unsupported language gets the default")
	require.Equal(t, ES, Negotiate(nil, "!!garbage"))
}

// Register writes the package's catalogue, as init functions do, one at a time: the tests that call it do not run in
// parallel (two at once crashed with concurrent map writes), and they take their codes out again (register).
func register(t *testing.T, c Catalog) {
	t.Helper()
	Register(c)
	t.Cleanup(func() {
		for code := range c {
			delete(Messages, code)
		}
	})
}

func TestT(t *testing.T) {
	register(t, Catalog{"test_greeting": {ES: "Hola %s", EN: "Hello %s", PT: "Olá %s"}})
	require.Equal(t, "Olá Ana", T(PT, "test_greeting", "Ana"))
	require.Equal(t, "[missing: nope]", T(ES, "nope"))
	require.Panics(t, func() { Register(Catalog{"test_greeting": {ES: "x", EN: "x", PT: "x"}}) })
	require.Panics(t, func() { Register(Catalog{"test_partial": {ES: "solo español"}}) })
}

// Regional variants fall back key by key: a variant's own wording, then the variants it reads
// (Uruguay reads Argentina's voseo), then the base language.
func TestRegionalVariants(t *testing.T) {
	register(t, Catalog{
		"test_enter_amount": {ES: "Ingresa el monto", ESAR: "Ingresá el monto", EN: "Enter the amount", PT: "Informe o valor"},
		"test_thanks":       {ES: "Gracias", EN: "Thank you", PT: "Obrigado"},
	})
	for l, want := range map[Lang]string{ES: "Ingresa el monto", ESAR: "Ingresá el monto", ESUY: "Ingresá el monto",
		ESMX: "Ingresa el monto", ESCO: "Ingresa el monto", PTBR: "Informe o valor", EN: "Enter the amount"} {
		require.Equal(t, want, T(l, "test_enter_amount"), l)
	}
	require.Equal(t, "Gracias", T(ESAR, "test_thanks"))
	require.Equal(t, "Obrigado", T(PTBR, "test_thanks"))

	for locale, want := range map[string]Lang{"es-AR": ESAR, "es_uy": ESUY, "es-MX": ESMX, "es-ES": ES, "pt-BR": PTBR, "pt-PT": PT, "en-GB": EN, "es": ES} {
		got, ok := Parse(locale)
		require.True(t, ok, locale)
		require.Equal(t, want, got, locale)
	}
	require.Equal(t, ESAR, ForCountry("AR"))
	require.Equal(t, ESCO, ForCountry("co"))
	require.Equal(t, PTBR, ForCountry("BR"))
	require.Equal(t, ES, ForCountry("ES"))
	require.Equal(t, ES, ESAR.Base())
}
