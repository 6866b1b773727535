package subscription_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/pdfdoc/pdftest"
	"github.com/aporta/aporta/internal/sharddb"
)

// checkInvoicePDF downloads a paid Professional yearly invoice of an Argentine organisation: its
// text names the organisation's legal name, tax id and address, the period, plan, amount and the MEP
// note (with the rate the invoice was charged at); another organisation, an unknown id or a malformed one find nothing.
func checkInvoicePDF(t *testing.T, s *apitest.Stack, admin, other *apitest.Client, invoiceID string, periodStart time.Time, mepNote string) {
	t.Helper()
	res := admin.JSON(http.MethodPatch, "/manage/organization", map[string]any{
		"legal_name": "Asociación Civil Niñez Ñandú",
		"address":    map[string]string{"street": "Av. Córdoba", "number": "1234", "city": "Ciudad Autónoma de Buenos Aires", "postal_code": "C1055"},
	})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	require.NoError(t, scope.Store().SetOrganizationUID(context.Background(), sharddb.SetOrganizationUIDParams{
		OrganizationID: admin.OrgID, UidType: "CUIT", Uid: "30-71234567-1"}))

	path := "/manage/api/subscription/invoices/" + invoiceID + "/pdf"
	res = admin.Do(http.MethodGet, path, nil, "")
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	require.Equal(t, "application/pdf", res.Header.Get("Content-Type"))
	require.Contains(t, res.Header.Get("Content-Disposition"), "attachment;")
	text := pdftest.Text(t, res.Body)
	norm := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{"Factura de suscripción a Aporta", invoiceID, "Asociación Civil Niñez Ñandú", "CUIT 30-71234567-1",
		"Av. Córdoba 1234, C1055, Ciudad Autónoma de Buenos Aires", "Professional (anual)",
		periodStart.In(time.FixedZone("ART", -3*3600)).Format("02/01/2006") + " – " +
			periodStart.AddDate(1, 0, 0).In(time.FixedZone("ART", -3*3600)).Format("02/01/2006"),
		"ARS", "Tarjeta", mepNote} {
		require.Contains(t, norm, want, text)
	}

	// Another organisation's administrator, and ids that are no invoice, get 404 and no PDF.
	for _, c := range []struct {
		who  *apitest.Client
		path string
	}{{other, path}, {admin, "/manage/api/subscription/invoices/00000000-0000-4000-8000-000000000001/pdf"},
		{admin, "/manage/api/subscription/invoices/not-a-uuid/pdf"}} {
		res := c.who.Do(http.MethodGet, c.path, nil, "")
		require.Equal(t, http.StatusNotFound, res.Status, c.path)
		require.NotEqual(t, "application/pdf", res.Header.Get("Content-Type"))
	}
}
