package outbox_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/i18n"
)

// The donor portal's e-mails exist in the three languages, and the thank-you carries the portal's
// page when it is given one; the receipt e-mail says its number.
func TestPortalEmailsRenderInEachLanguage(t *testing.T) {
	t.Parallel()
	data := map[string]any{"Org": "Org", "Name": "Ana", "URL": "https://aporta.test/d/x/portal?token=t", "Minutes": 30,
		"Campaign": "Campaña", "Change": "monto $ 2.000,00", "Amount": "$ 1", "Reason": "fondos insuficientes", "Paused": false,
		"Final": true, "Subject": "s", "Message": "m", "Frequency": "mensual", "Portal": "https://aporta.test/d/x/portal", "Number": "00000042"}
	for _, kind := range []string{"donor_portal_link", "donor_portal_change", "donation_card_declined", "donation_thanks", "donation_receipt"} {
		for _, l := range []i18n.Lang{i18n.ES, i18n.EN, i18n.PT} {
			m := composeWhole(t, kind, l, data)
			require.Contains(t, m.Body, "https://aporta.test/d/x/portal", kind)
			if kind == "donation_receipt" {
				require.Contains(t, m.Body, "00000042")
			}
		}
	}
}
