package pdfdoc_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/pdfdoc"
	"github.com/aporta/aporta/internal/pdfdoc/pdftest"
)

// Accents, ñ, ç and currency signs survive into the text a reader extracts.
func TestDocumentTextIsUTF8(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	build := func() []byte {
		d, err := pdfdoc.New("Factura de suscripción", at)
		require.NoError(t, err)
		d.Section("Organización")
		d.Row("Razón social", "Fundación Niñez Solidária")
		d.Row("Vacío", "")
		d.Row("Monto", "$ 1.788.000,00 · R$ 90,00 · €")
		d.Note("Precio de lista en dólares, pagado en pesos al tipo de cambio MEP.")
		b, err := d.Bytes()
		require.NoError(t, err)
		return b
	}
	pdf := build()
	require.True(t, bytes.HasPrefix(pdf, []byte("%PDF-")))
	text := pdftest.Text(t, pdf)
	for _, want := range []string{"Factura de suscripción", "Organización", "Razón social", "Fundación Niñez Solidária",
		"$ 1.788.000,00 · R$ 90,00 · €", "pagado en pesos al tipo de cambio MEP."} {
		require.Contains(t, text, want)
	}
	require.NotContains(t, text, "Vacío", "an empty value writes no row")
}
