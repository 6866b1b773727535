package campaign_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
)

// TestCardErrorReport: the public form reports a tokenisation failure with the card's BIN, last four
// and length (§8); the report reaches the log tied to its organisation, and anything more of the
// card (a number in the message, an extra field) is refused and logs nothing.
func TestCardErrorReport(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	slug := "tarjetas-" + uuid.NewString()[:8]
	require.NoError(t, campaign.NewService(s.Tenants).Create(context.Background(), admin.OrgID,
		campaign.New{ID: uuid.New(), Slug: slug, Title: "Tarjetas", Type: "fundraise", Published: true}))
	donor := s.Visitor(t)
	path := "/api/public/campaigns/" + slug + "/card_errors"

	r := donor.JSON(http.MethodPost, path, map[string]any{"bin": "450995", "last_four": "3704", "length": 16,
		"code": "E301", "message": "Revisa el número de tarjeta."})
	require.Equal(t, http.StatusNoContent, r.Status, string(r.Body))
	logs := s.Logs()
	require.Contains(t, logs, "card tokenisation failed")
	require.Contains(t, logs, "bin=450995")
	require.Contains(t, logs, "last_four=3704")
	require.Contains(t, logs, "organization_id="+admin.OrgID.String())

	for name, body := range map[string]map[string]any{
		"message":   {"bin": "450995", "last_four": "3704", "length": 16, "message": "card 4509 9535 6623 3704 refused"},
		"code":      {"bin": "450995", "last_four": "3704", "length": 16, "code": "<script>"},
		"message ":  {"bin": "450995", "last_four": "3704", "length": 16, "message": "ref 1234 5678 9012 3456"}, // not Luhn-valid: ours
		"bin":       {"bin": "4509", "last_four": "3704", "length": 16},
		"length":    {"bin": "450995", "last_four": "3704", "length": 8},
		"last_four": {"bin": "450995", "last_four": "37a4", "length": 16},
	} {
		r := donor.JSON(http.MethodPost, path, body, "Accept-Language", "en")
		field := strings.TrimSpace(name)
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, field)
		var e struct {
			Error struct{ Fields map[string]string } `json:"error"`
		}
		r.Decode(t, &e)
		if name == "message" { // the card guard (a Luhn-valid number anywhere in a body) may answer first
			require.NotEmpty(t, e.Error.Fields[field])
			continue
		}
		require.Equal(t, "The report only takes the BIN, the last four digits, the card's length and the processor's message.",
			e.Error.Fields[field], field)
	}
	r = donor.JSON(http.MethodPost, path, map[string]any{"bin": "450995", "last_four": "3704", "length": 16,
		"card_number": "4509953566233704", "security_code": "123"})
	require.GreaterOrEqual(t, r.Status, 400)
	require.NotContains(t, s.Logs(), "4509953566233704")
	require.Equal(t, 1, strings.Count(s.Logs(), "card tokenisation failed"))

	require.Equal(t, http.StatusNotFound, donor.JSON(http.MethodPost, "/api/public/campaigns/no-such-form/card_errors",
		map[string]any{"bin": "450995", "last_four": "3704", "length": 16}).Status)
}
