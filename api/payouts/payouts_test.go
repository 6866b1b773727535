package payouts_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/payouts"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/workflows/payouts/payoutstest"
)

// An organisation sees its payouts (amounts, masked account, charges) and each one's charges; another
// organisation sees none of them, and asking for one by id is not found. Bad ids and pages are refused.
func TestPayoutsAreTheOrganisationsOwn(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin, other := s.NewOrgAdmin(t, "AR"), s.NewOrgAdmin(t, "AR")
	w := payoutstest.New(t, sandboxtest.Serve(t, sandbox.Options{}).URL, admin.OrgID)
	w.BankAccount()
	c := w.Donate(150000)
	require.NoError(t, w.Worker().RunCycle(context.Background(), w.Scope.OrgID))

	page := apitest.OK[payouts.Page](t, admin, http.MethodGet, "/manage/api/payouts", nil)
	require.Equal(t, 1, page.Total)
	require.Len(t, page.Payouts, 1)
	p := page.Payouts[0]
	require.Equal(t, "paid", p.Status)
	require.Equal(t, c.Net(), p.Net.Minor)
	require.Equal(t, "ARS", p.Net.Currency)
	require.Equal(t, int64(150000), p.Gross.Minor)
	require.Equal(t, 1, p.Charges)
	require.NotNil(t, p.BankAccount)
	require.Equal(t, "•••• 5201", p.BankAccount.AccountNumber)
	require.NotNil(t, p.PaidAt)

	detail := apitest.OK[payouts.Detail](t, admin, http.MethodGet, "/manage/api/payouts/"+p.UUID.String(), nil)
	require.Equal(t, p.UUID, detail.UUID)
	require.Len(t, detail.Items, 1)
	it := detail.Items[0]
	require.Equal(t, c.TransactionID, it.TransactionUUID)
	require.Equal(t, "charge", it.Kind)
	require.Equal(t, "Ana Paz", it.DonorName)
	require.Equal(t, "Huerta", it.CampaignTitle)
	require.Equal(t, c.Net(), it.Net.Minor)

	// Another organisation: nothing listed, the id not found.
	require.Empty(t, apitest.OK[payouts.Page](t, other, http.MethodGet, "/manage/api/payouts", nil).Payouts)
	r := other.JSON(http.MethodGet, "/manage/api/payouts/"+p.UUID.String(), nil)
	require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))

	r = admin.JSON(http.MethodGet, "/manage/api/payouts/not-a-uuid", nil)
	require.Equal(t, http.StatusNotFound, r.Status)
	r = admin.JSON(http.MethodGet, "/manage/api/payouts?page=-1", nil)
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, string(r.Body))
}
