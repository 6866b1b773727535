package donation_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/workflows/collection"
)

// monthlyDonation is a monthly gift of 1000 ARS through the public form, once its workflow charged
// (or tried) the first period.
func monthlyDonation(t *testing.T, s *apitest.Stack, admin *apitest.Client, slug, holder string) string {
	t.Helper()
	ctx := context.Background()
	a := post(t, s.Server.URL+"/d/"+slug, payload(token(t, s.Config, holder), 1, 1000, email(), uuid.NewString()))
	require.Contains(t, []int{http.StatusCreated, http.StatusOK}, a.Status, a.Message)
	scope, err := s.Tenants.ForOrganization(ctx, admin.OrgID)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		var n int
		_ = scope.QueryRow(ctx, "SELECT count(*) FROM transactions WHERE organization_id=$1 AND donation_id=$2 AND status <> 'pending'",
			admin.OrgID, a.Donation).Scan(&n)
		return n > 0
	}, 30*time.Second, 300*time.Millisecond, "the workflow charges the first period")
	return a.Donation
}

// TestOperatorAmountOutsideCampaignAndGatewayLimitsRefused: an operator could set any amount up
// to 1e11 minor units. The edit now meets the public form's limits (the gateway's 10–8000 ARS
// here, and the campaign's minimum other amount) and a refused edit changes nothing, in the row
// or in the collection workflow.
func TestOperatorAmountOutsideCampaignAndGatewayLimitsRefused(t *testing.T) {
	s := apitest.Start(t)
	admin, slug, campID := manageFixture(t, s)
	ctx := context.Background()
	svc := campaign.NewService(s.Tenants)
	_, err := svc.Update(ctx, admin.OrgID, uuid.MustParse(campID), func(in *campaign.Input) error {
		min := "700"
		in.MinOtherAmount = &min
		return nil
	})
	require.NoError(t, err)
	id := monthlyDonation(t, s, admin, slug, "APRO")
	path := "/manage/api/donations/" + id

	for _, tc := range []struct{ amount, code string }{
		{"8000.01", "donation.amount_max"},    // the gateway's largest donation
		{"1000000000", "donation.amount_max"}, // 1e11 minor units
		{"600", "donation.amount_min"},        // typed below the campaign's minimum other amount
		{"5", "donation.amount_min"},
	} {
		res := admin.JSON(http.MethodPatch, path, map[string]any{"amount": tc.amount})
		require.Equal(t, http.StatusUnprocessableEntity, res.Status, "%s: %s", tc.amount, res.Body)
		require.Equal(t, tc.code, res.ErrorCode(), tc.amount)
	}
	var d mdetail
	admin.JSON(http.MethodGet, path, nil).Decode(t, &d)
	require.Equal(t, int64(100000), d.Donation.Amount.Minor, "refused edits change nothing")
	v, err := s.Temporal.QueryWorkflow(ctx, collection.WorkflowID(id), "", collection.QueryState)
	require.NoError(t, err)
	var st collection.State
	require.NoError(t, v.Get(&st))
	require.Equal(t, int64(100000), st.Amount)

	// A preset amount below the minimum other amount, and the largest one, are accepted.
	for _, ok := range []struct {
		amount string
		minor  int64
	}{{"500", 50000}, {"8000", 800000}} {
		res := admin.JSON(http.MethodPatch, path, map[string]any{"amount": ok.amount})
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		res.Decode(t, &d)
		require.Equal(t, ok.minor, d.Donation.Amount.Minor)
	}
}

// TestCollectNowChargesADuePeriodOnce: collect-now charged the following periods back to back.
// Now the due period (this month's, declined on its first attempt) is collected at once with the
// new card, once; a second collect-now asks for next month and is refused.
func TestCollectNowChargesADuePeriodOnce(t *testing.T) {
	s := apitest.Start(t)
	admin, slug, campID := manageFixture(t, s)
	ctx := context.Background()
	svc := campaign.NewService(s.Tenants)
	_, err := svc.Update(ctx, admin.OrgID, uuid.MustParse(campID), func(in *campaign.Input) error {
		in.ImmediateCharge = false // planned: the workflow charges the first period
		return nil
	})
	require.NoError(t, err)
	id := monthlyDonation(t, s, admin, slug, "FUND") // insufficient funds: retried in a day
	path := "/manage/api/donations/" + id
	scope, err := s.Tenants.ForOrganization(ctx, admin.OrgID)
	require.NoError(t, err)
	approved := func() int {
		var n int
		require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM transactions WHERE organization_id=$1 AND donation_id=$2 AND status='approved'",
			admin.OrgID, id).Scan(&n))
		return n
	}
	require.Zero(t, approved())

	// Another card (the sandbox keeps one saved card per number, with its first holder's outcome).
	card := map[string]any{"gateway": map[string]any{"name": "mercadopago", "token": tokenFor(t, s.Config, "4111111111111111", "APRO")},
		"method_id": "visa", "bin": "411111", "last_four": "1111", "expiration_month": 11, "expiration_year": time.Now().Year() + 3,
		"cardholder_name": "Ana Pérez", "cardholder_id_type": "DNI", "cardholder_id_number": "12345678"}
	res := admin.JSON(http.MethodPost, path+"/payment_method", card)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))

	var actions struct {
		Donation struct {
			Actions []string `json:"actions"`
		} `json:"donation"`
	}
	res.Decode(t, &actions)
	require.Contains(t, actions.Donation.Actions, "collect_payment", "this month is due and unpaid")

	res = admin.JSON(http.MethodPost, path+"/collect_payment", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var d mdetail
	res.Decode(t, &d)
	require.NotNil(t, d.Collect)
	require.Equal(t, "approved", d.Collect.Status)
	require.Equal(t, 1, approved())

	res = admin.JSON(http.MethodPost, path+"/collect_payment", nil)
	require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
	require.Equal(t, "donation.collect_not_due", res.ErrorCode())
	require.NotEmpty(t, res.ErrorMessage())
	require.Equal(t, 1, approved(), "the period is charged once")
	var versions int
	require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM donation_versions WHERE organization_id=$1 AND donation_id=$2 AND field='collect_now'",
		admin.OrgID, id).Scan(&versions))
	require.Equal(t, 1, versions, "the refused collect-now leaves no version")
	admin.JSON(http.MethodGet, path, nil).Decode(t, &actions)
	require.NotContains(t, actions.Donation.Actions, "collect_payment", "next month is not offered")
}

// TestIdempotencyKeyBoundToTheRequestBody: a key used to be reused with any body, whose change
// was then dropped or applied as another request. Now the same key and body replay the first
// answer (nothing runs twice), and the key with another body is a 409.
func TestIdempotencyKeyBoundToTheRequestBody(t *testing.T) {
	s := apitest.Start(t)
	admin, slug, _ := manageFixture(t, s)
	ctx := context.Background()
	id := monthlyDonation(t, s, admin, slug, "APRO")
	path := "/manage/api/donations/" + id + "/upgrades"
	key := uuid.NewString()

	first := admin.JSON(http.MethodPost, path, map[string]any{"percentage": "10", "period": 3}, "Idempotency-Key", key)
	require.Equal(t, http.StatusCreated, first.Status, string(first.Body))
	same := admin.JSON(http.MethodPost, path, map[string]any{"percentage": "10", "period": 3}, "Idempotency-Key", key)
	require.Equal(t, http.StatusCreated, same.Status, string(same.Body))
	require.JSONEq(t, string(first.Body), string(same.Body), "the original answer, replayed")
	require.Equal(t, "true", same.Header.Get("Idempotent-Replayed"))

	other := admin.JSON(http.MethodPost, path, map[string]any{"percentage": "20", "period": 3}, "Idempotency-Key", key)
	require.Equal(t, http.StatusConflict, other.Status, string(other.Body))
	require.Equal(t, "idempotency.key_reused", other.ErrorCode())
	require.NotEmpty(t, other.ErrorMessage())

	scope, err := s.Tenants.ForOrganization(ctx, admin.OrgID)
	require.NoError(t, err)
	var n int
	var pct string
	require.NoError(t, scope.QueryRow(ctx, "SELECT count(*), min(percentage)::text FROM upgrades WHERE organization_id=$1 AND donation_id=$2",
		admin.OrgID, id).Scan(&n, &pct))
	require.Equal(t, 1, n, "one upgrade created")
	require.Contains(t, []string{"10", "10.00"}, pct)

	// The leads export start binds its key the same way.
	key = uuid.NewString()
	res := admin.JSON(http.MethodPost, "/manage/api/leads/export", map[string]string{"email": "ops@example.org"}, "Idempotency-Key", key)
	require.Equal(t, http.StatusAccepted, res.Status, string(res.Body))
	res = admin.JSON(http.MethodPost, "/manage/api/leads/export", map[string]string{"email": "someone-else@example.org"}, "Idempotency-Key", key)
	require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
	require.Equal(t, "idempotency.key_reused", res.ErrorCode())
}
