package i18n

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNegotiate(t *testing.T) {
	t.Parallel()
	require.Equal(t, ES, Negotiate(nil, ""))
	require.Equal(t, PT, Negotiate([]string{"pt-BR"}, "en"))
	require.Equal(t, EN, Negotiate([]string{"", "en_US"}, "es"), "the cookie applies when the query has none")
	require.Equal(t, ES, Negotiate([]string{"fr"}, "es-AR,es;q=0.9"), "es-AR falls back to es")
	require.Equal(t, PT, Negotiate(nil, "pt-BR,pt;q=0.9,en;q=0.5"))
	require.Equal(t, ES, Negotiate(nil, "de-DE"), "an unsupported language gets the default")
	require.Equal(t, ES, Negotiate(nil, "!!garbage"))
}

func TestT(t *testing.T) {
	t.Parallel()
	Register(Catalog{"test_greeting": {ES: "Hola %s", EN: "Hello %s", PT: "Olá %s"}})
	require.Equal(t, "Olá Ana", T(PT, "test_greeting", "Ana"))
	require.Equal(t, "[missing: nope]", T(ES, "nope"))
	require.Panics(t, func() { Register(Catalog{"test_greeting": {ES: "x", EN: "x", PT: "x"}}) })
	require.Panics(t, func() { Register(Catalog{"test_partial": {ES: "solo español"}}) })
}
