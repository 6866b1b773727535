package subscription_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/workflows/billing"
)

type changeAnswer struct {
	Change  string `json:"change"`
	Charged *struct {
		Minor    int64  `json:"minor"`
		Currency string `json:"currency"`
	} `json:"charged"`
	Billing struct {
		PlanCode string `json:"plan_code"`
		NextPlan string `json:"next_plan_code"`
	} `json:"billing"`
}

func changePlan(t *testing.T, c *apitest.Client, plan string, want int) changeAnswer {
	t.Helper()
	res := c.JSON(http.MethodPost, "/manage/api/subscription/change", map[string]string{"plan_code": plan})
	require.Equal(t, want, res.Status, string(res.Body))
	var a changeAnswer
	if want == http.StatusOK {
		res.Decode(t, &a)
	}
	return a
}

// Plan changes through the billing workflow (the stack's worker): an upgrade applies at once and
// charges the difference pro rata once on the platform's account; asking again charges nothing; a
// downgrade or another period waits for the next period; the current plan drops a waiting change;
// only an administrator changes, only an active subscription, only to a plan that exists.
func TestChangePlan(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	res := subscribe(admin, "professional_monthly", "card", validateCard(t, admin, "professional_monthly", "APRO"))
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))

	op := s.NewUser(t, "operator")
	s.AddMember(t, op, admin.OrgID, "operator")
	changePlan(t, op, "partner_monthly", http.StatusForbidden)
	require.Equal(t, "validation_failed", admin.JSON(http.MethodPost, "/manage/api/subscription/change", map[string]string{"plan_code": "gold_monthly"}).ErrorCode())
	require.Equal(t, "validation_failed", admin.JSON(http.MethodPost, "/manage/api/subscription/change", map[string]string{"plan_code": " "}).ErrorCode())

	up := changePlan(t, admin, "partner_monthly", http.StatusOK)
	require.Equal(t, billing.ChangeUpgrade, up.Change)
	require.NotNil(t, up.Charged)
	require.Equal(t, "ARS", up.Charged.Currency)
	require.Equal(t, "partner_monthly", up.Billing.PlanCode)
	got := read(t, admin)
	require.Equal(t, "partner_monthly", got.Subscription.PlanCode, "the organisation's plan changed at once")
	require.Len(t, got.Invoices, 2)
	require.Equal(t, up.Charged.Minor, got.Invoices[0].Amount.Minor)
	require.Equal(t, "paid", got.Invoices[0].Status)
	require.Greater(t, got.Invoices[1].Amount.Minor, int64(0))

	// One platform payment under the change's reference (organisation, period, change).
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	rows, err := scope.Store().SubscriptionInvoices(context.Background(), sharddb.SubscriptionInvoicesParams{OrganizationID: admin.OrgID})
	require.NoError(t, err)
	require.Equal(t, "prorata", rows[0].Kind)
	require.NotNil(t, rows[0].ChangeID)
	ref := billing.ProrataReference(rows[0].SubscriptionID, rows[1].PeriodStart, *rows[0].ChangeID)
	ps := platformPayments(t, s.Config.GatewayURL, ref)
	require.Len(t, ps, 1)
	require.Equal(t, "approved", ps[0]["status"])

	// Asking for it again is no second charge.
	again := changePlan(t, admin, "partner_monthly", http.StatusOK)
	require.Equal(t, billing.ChangeKept, again.Change)
	require.Nil(t, again.Charged)
	require.Len(t, read(t, admin).Invoices, 2)

	// A cheaper plan, or another period, waits for the next period; the plan stays.
	down := changePlan(t, admin, "essential_monthly", http.StatusOK)
	require.Equal(t, billing.ChangeScheduled, down.Change)
	require.Equal(t, "partner_monthly", down.Billing.PlanCode)
	require.Equal(t, "essential_monthly", down.Billing.NextPlan)
	yearly := changePlan(t, admin, "partner_yearly", http.StatusOK)
	require.Equal(t, billing.ChangeScheduled, yearly.Change)
	require.Equal(t, "partner_yearly", yearly.Billing.NextPlan)
	// The current plan drops the waiting change.
	kept := changePlan(t, admin, "partner_monthly", http.StatusOK)
	require.Equal(t, billing.ChangeKept, kept.Change)
	require.Empty(t, kept.Billing.NextPlan)
	require.Equal(t, "partner_monthly", read(t, admin).Subscription.PlanCode)

	// A cancelled subscription keeps its plan to the end and changes no more.
	res = admin.JSON(http.MethodPost, "/manage/api/subscription/cancel", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	changePlan(t, admin, "essential_monthly", http.StatusConflict)
	require.Len(t, read(t, admin).Invoices, 2)
}
