package subscription_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/api/apitest"
	flow "github.com/aporta/aporta/workflows/subscription"
)

// The plan API through HTTP with a signed-in administrator: the subscription, a refused plan code,
// then a bought plan answered after the workflow stored it.
func TestPlanAPI(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	// The router sends updates to the production queue; this worker serves it beside the stack's.
	w := worker.New(s.Temporal, flow.TaskQueue, worker.Options{})
	flow.Register(w, flow.NewActivities(s.Config, s.Tenants))
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)

	admin := s.NewOrgAdmin(t, "CL")
	res := admin.JSON(http.MethodGet, "/manage/api/subscription", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var got struct {
		Subscription struct {
			PlanCode           string  `json:"plan_code"`
			EffectivePlanCode  string  `json:"effective_plan_code"`
			Status             string  `json:"status"`
			TrialEndsAt        *string `json:"trial_ends_at"`
			CommissionBps      int     `json:"commission_bps"`
			AcceptingDonations bool    `json:"accepting_donations"`
		} `json:"subscription"`
	}
	res.Decode(t, &got)
	require.Equal(t, "original", got.Subscription.PlanCode)

	// Registration would start the workflow; here the helper does (idempotent).
	_, err := flow.Start(context.Background(), s.Temporal, flow.TaskQueue, admin.OrgID)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		res := admin.JSON(http.MethodGet, "/manage/api/subscription", nil)
		res.Decode(t, &got)
		return got.Subscription.Status == "trial"
	}, 20*1e9, 2e8)
	require.Equal(t, "essential_monthly", got.Subscription.EffectivePlanCode)
	require.NotNil(t, got.Subscription.TrialEndsAt)

	for _, bad := range []string{"bogus", "original", ""} {
		res = admin.JSON(http.MethodPost, "/manage/api/subscription/plan", map[string]string{"plan_code": bad})
		require.Equal(t, http.StatusUnprocessableEntity, res.Status, bad)
	}
	res = admin.JSON(http.MethodPost, "/manage/api/subscription/plan", map[string]string{"plan_code": "professional_yearly"},
		"Accept-Language", "en")
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &got)
	require.Equal(t, "professional_yearly", got.Subscription.PlanCode)
	require.Equal(t, "active", got.Subscription.Status)
	require.True(t, got.Subscription.AcceptingDonations)
	require.Zero(t, got.Subscription.CommissionBps)

	// Without a session: 401; an unknown field: 400.
	res = admin.JSON(http.MethodPost, "/manage/api/subscription/plan", map[string]any{"plan_code": "partner_monthly", "x": 1})
	require.Equal(t, http.StatusBadRequest, res.Status)
	anon := s.NewUser(t, "nobody")
	res = anon.JSON(http.MethodPost, "/manage/api/subscription/plan", map[string]string{"plan_code": "partner_monthly"})
	require.NotEqual(t, http.StatusOK, res.Status)
}
