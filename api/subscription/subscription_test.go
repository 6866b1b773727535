package subscription_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	flow "github.com/aporta/aporta/workflows/subscription"
)

// The plan API through HTTP: the administrator reads the subscription but cannot activate a paid plan
// without paying (TestOrganisationCannotActivatePlanWithoutPaying); staff grant one, refusing an unknown
// code or a missing reason, and the workflow applies it.
func TestOrganisationCannotActivatePlanWithoutPaying(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
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

	// The organisation cannot give itself a paid plan: the old self-service endpoint is gone, and
	// the plan stays the trial's.
	res = admin.JSON(http.MethodPost, "/manage/api/subscription/plan", map[string]string{"plan_code": "professional_yearly"})
	require.Equal(t, http.StatusNotFound, res.Status, string(res.Body))
	res = admin.JSON(http.MethodGet, "/manage/api/subscription", nil)
	res.Decode(t, &got)
	require.Equal(t, "trial", got.Subscription.Status)
	require.Equal(t, "essential_monthly", got.Subscription.EffectivePlanCode)

	// Staff grant a plan paid outside the product, with the reason audited.
	grant := func(c *apitest.Client, body map[string]string, lang string) apitest.Response {
		return c.JSON(http.MethodPost, "/staff/api/organizations/"+admin.OrgID.String()+"/plan", body, "Accept-Language", lang)
	}
	res = grant(admin, map[string]string{"plan_code": "professional_yearly", "reason": "me"}, "en")
	require.Equal(t, http.StatusForbidden, res.Status, "an organisation administrator is not staff")
	st := s.NewStaff(t)
	for _, bad := range []string{"bogus", "original", ""} {
		res = grant(st, map[string]string{"plan_code": bad, "reason": "Transfer 123"}, "en")
		require.Equal(t, http.StatusUnprocessableEntity, res.Status, bad)
	}
	res = grant(st, map[string]string{"plan_code": "professional_yearly"}, "pt")
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Contains(t, res.ErrorMessage()+string(res.Body), "Escreva por que")
	res = grant(st, map[string]string{"plan_code": "professional_yearly", "reason": "Bank transfer 123"}, "en")
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var detail struct {
		AuditLog []struct {
			Action   string  `json:"action"`
			PlanCode *string `json:"plan_code"`
			Reason   *string `json:"reason"`
		} `json:"audit_log"`
	}
	res.Decode(t, &detail)
	require.Equal(t, "grant_plan", detail.AuditLog[0].Action)
	require.Equal(t, "professional_yearly", *detail.AuditLog[0].PlanCode)
	require.Equal(t, "Bank transfer 123", *detail.AuditLog[0].Reason)
	// The directory's audit log holds exactly that grant, by that staff member: the refused ones
	// (not staff, bad plan, no reason) wrote nothing.
	var rows int
	var who, email, plan, reason string
	require.NoError(t, s.Tenants.Directory().QueryRow(context.Background(), `SELECT count(*) OVER (), staff_user_id::text, staff_email,
		plan_code, reason FROM staff_audit_log WHERE organization_id = $1 AND action = 'grant_plan'`, admin.OrgID).Scan(&rows, &who, &email, &plan, &reason))
	require.Equal(t, 1, rows)
	require.Equal(t, st.UserID.String(), who)
	require.Equal(t, st.Email, email)
	require.Equal(t, "professional_yearly", plan)
	require.Equal(t, "Bank transfer 123", reason)

	res = admin.JSON(http.MethodGet, "/manage/api/subscription", nil)
	res.Decode(t, &got)
	require.Equal(t, "professional_yearly", got.Subscription.PlanCode)
	require.Equal(t, "active", got.Subscription.Status)
	require.True(t, got.Subscription.AcceptingDonations)
	require.Zero(t, got.Subscription.CommissionBps)
}
