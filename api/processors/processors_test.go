package processors_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/processors"
	"github.com/aporta/aporta/tenants/tenantstest"
)

const macroCBU = "2850590940090418135201"

func bankAccount(t *testing.T, c *apitest.Client) {
	t.Helper()
	res := c.JSON(http.MethodPost, "/manage/api/bank_accounts", map[string]any{
		"bank_code": "285", "bank_name": "Banco Macro", "account_number": macroCBU,
		"contact_first_name": "Ana", "contact_last_name": "Pérez", "contact_email": "ana@example.org", "contact_phone": "+54 11 5555 1234",
	})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
}

// campaign adds a campaign to the organisation straight in its shard.
func campaign(t *testing.T, s *apitest.Stack, org uuid.UUID, title, kind string) uuid.UUID {
	t.Helper()
	scope, err := s.Tenants.ForOrganization(context.Background(), org)
	require.NoError(t, err)
	id := uuid.New()
	require.NoError(t, scope.Exec(context.Background(),
		`INSERT INTO campaigns (organization_id, id, slug, title, type, currency) VALUES ($1, $2, $3, $4, $5, 'ARS')`,
		org, id, "c-"+id.String()[:8], title, kind))
	return id
}

func setFeatures(t *testing.T, staff *apitest.Client, org uuid.UUID, features ...string) {
	t.Helper()
	res := staff.JSON(http.MethodPost, "/staff/api/organizations/"+org.String()+"/features",
		map[string]any{"features": features, "reason": "contrato firmado"})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
}

func list(t *testing.T, c *apitest.Client) processors.Listing {
	t.Helper()
	return apitest.OK[processors.Listing](t, c, http.MethodGet, "/manage/api/payment_processors", nil)
}

func fieldOf(t *testing.T, res apitest.Response) map[string]string {
	t.Helper()
	var e struct {
		Error struct {
			Fields map[string]string `json:"fields"`
		} `json:"error"`
	}
	res.Decode(t, &e)
	return e.Error.Fields
}

// TestProcessors: limits and flags (§4, §6), descriptors (§9), global rules (§5), another tenant's ids.
func TestProcessors(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	tenantstest.SetStatus(t, s.Tenants, admin.OrgID, "enabled", "original")
	staff := s.NewStaff(t)
	post := func(body map[string]any) apitest.Response {
		return admin.JSON(http.MethodPost, "/manage/api/payment_processors", body, "Accept-Language", "en")
	}
	local := func(descriptor string) map[string]any {
		return map[string]any{"gateway": "local_payments", "soft_descriptor": descriptor}
	}

	l := list(t, admin)
	require.Empty(t, l.Processors)
	require.Len(t, l.Options, 2)
	require.Equal(t, processors.Option{ID: "local_payments", FeePercent: "3.99", Available: true, Descriptor: l.Options[0].Descriptor}, l.Options[0])
	require.Equal(t, 16, l.Options[0].Descriptor.MaxChars)
	require.Equal(t, []string{"MP"}, l.Options[0].Descriptor.Prefixes)
	require.Equal(t, []string{"DONARONLINE", "DLOCAL"}, l.Options[0].Descriptor.Others)
	require.False(t, l.Options[1].Available)
	require.Equal(t, processors.CodeGlobalNotAvailable, l.Options[1].Reason)

	// A processor pays out to the organisation's bank account: none yet, none created.
	res := post(local("Fundación Sol"))
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Equal(t, processors.CodeBankAccountRequired, res.ErrorCode())
	bankAccount(t, admin)

	// Descriptor rules of Argentina: required, at most 16, none of < > \ ' " *.
	for descriptor, want := range map[string]string{"": "Enter the text", strings.Repeat("a", 17): "too long", `Sol "2"`: `cannot contain`} {
		res = post(local(descriptor))
		require.Equal(t, http.StatusUnprocessableEntity, res.Status, descriptor)
		require.Contains(t, fieldOf(t, res)["soft_descriptor"], want)
	}
	res = post(map[string]any{"gateway": "local_payments", "soft_descriptor": "Sol", "rules": map[string]any{"retry": true}})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Contains(t, fieldOf(t, res), "rules.retry", "only the global processor retries")
	res = post(map[string]any{"gateway": "paypal", "soft_descriptor": "Sol"})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Contains(t, fieldOf(t, res), "gateway")

	res = post(local("  Fundación Sol "))
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var created processors.Processor
	res.Decode(t, &created)
	require.Equal(t, "Fundación Sol", created.SoftDescriptor)
	require.Equal(t, "MP*Fundación Sol", created.Statement)
	require.Equal(t, "local_payments", created.Family)
	require.Equal(t, "dlocal", created.GatewayName)

	// One local processor, unless staff allow several (audited).
	res = post(local("Otra"))
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, processors.CodeLimitReached, res.ErrorCode())
	require.False(t, list(t, admin).Options[0].Available)
	setFeatures(t, staff, admin.OrgID, "multiple_payment_gateways")
	res = post(local("Otra"))
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var second processors.Processor
	res.Decode(t, &second)
	require.Greater(t, second.Order, created.Order)

	// Global payments need the flag and a plan that allows them.
	res = post(map[string]any{"gateway": "global_payments", "soft_descriptor": "Sol", "rules": map[string]any{"retry": true}})
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, processors.CodeGlobalNotAvailable, res.ErrorCode())
	setFeatures(t, staff, admin.OrgID, "multiple_payment_gateways", "global_payments")
	res = post(map[string]any{"gateway": "global_payments", "soft_descriptor": "Sol", "rules": map[string]any{"retry": true}})
	require.Equal(t, http.StatusForbidden, res.Status, "the Original plan has no global payments")
	tenantstest.SetStatus(t, s.Tenants, admin.OrgID, "enabled", "essential_monthly")
	require.True(t, list(t, admin).Options[1].Available)

	// Global rules: at least one; the campaigns are the organisation's own and never promoted.
	other := s.NewOrgAdmin(t, "AR")
	zeta := campaign(t, s, admin.OrgID, "Zeta", "fundraise")
	alfa := campaign(t, s, admin.OrgID, "Alfa", "custom")
	promoted := campaign(t, s, admin.OrgID, "Promo", "promoted")
	foreign := campaign(t, s, other.OrgID, "Ajena", "fundraise")
	global := func(rules map[string]any) map[string]any {
		return map[string]any{"gateway": "global_payments", "soft_descriptor": "Fundación Sol", "rules": rules}
	}
	res = post(global(map[string]any{"retry": false}))
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Equal(t, "Choose at least one rule.", fieldOf(t, res)["rules"])
	for _, bad := range []uuid.UUID{promoted, foreign, uuid.New()} {
		res = post(global(map[string]any{"campaign_uuids": []uuid.UUID{zeta, bad}}))
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		require.Contains(t, fieldOf(t, res), "rules.campaign_uuids")
	}
	res = post(global(map[string]any{"retry": true, "campaign_uuids": []uuid.UUID{zeta, alfa, zeta}}))
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var g processors.Processor
	res.Decode(t, &g)
	require.Equal(t, "APORTA*Fundación Sol", g.Statement)
	require.Equal(t, processors.Rules{Retry: true, Campaigns: []processors.Campaign{{UUID: alfa, Title: "Alfa"}, {UUID: zeta, Title: "Zeta"}}}, g.Rules)
	res = post(global(map[string]any{"retry": true}))
	require.Equal(t, http.StatusConflict, res.Status, "one global processor")

	rules := apitest.OK[processors.Rules](t, admin, http.MethodGet, "/manage/api/payment_processors/"+g.UUID.String()+"/rules", nil)
	require.Equal(t, g.Rules, rules)
	patched := apitest.OK[processors.Processor](t, admin, http.MethodPatch, "/manage/api/payment_processors/"+g.UUID.String(),
		map[string]any{"soft_descriptor": "Sol 2026", "rules": map[string]any{"retry": false, "campaign_uuids": []uuid.UUID{zeta}}})
	require.Equal(t, "Sol 2026", patched.SoftDescriptor)
	require.Equal(t, processors.Rules{Campaigns: []processors.Campaign{{UUID: zeta, Title: "Zeta"}}}, patched.Rules)

	// Another organisation neither reads, edits nor discards them.
	path := "/manage/api/payment_processors/" + g.UUID.String()
	require.Equal(t, http.StatusNotFound, other.JSON(http.MethodGet, path+"/rules", nil).Status)
	require.Equal(t, http.StatusNotFound, other.JSON(http.MethodPatch, path, map[string]any{"soft_descriptor": "x", "rules": map[string]any{"retry": true}}).Status)
	require.Equal(t, http.StatusNotFound, other.JSON(http.MethodDelete, path, nil).Status)
	require.Empty(t, list(t, other).Processors)
	require.Len(t, list(t, admin).Processors, 3)

	// Discard.
	require.Equal(t, http.StatusNoContent, admin.JSON(http.MethodDelete, path, nil).Status)
	require.Equal(t, http.StatusNotFound, admin.JSON(http.MethodDelete, path, nil).Status)
	l = list(t, admin)
	require.Len(t, l.Processors, 2)
	require.Equal(t, []string{"global_payments", "multiple_payment_gateways"}, l.Features)

	// The staff changes are in the audit log with their flags.
	detail := staff.JSON(http.MethodGet, "/staff/api/organizations/"+admin.OrgID.String(), nil)
	require.Equal(t, http.StatusOK, detail.Status)
	require.Contains(t, string(detail.Body), `"action":"set_features"`)
	require.Contains(t, string(detail.Body), `"features":["global_payments","multiple_payment_gateways"]`)
}

// TestFixedDescriptor: where the processor fixes the descriptor (Chile), what is asked is ignored.
func TestFixedDescriptor(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "CL")
	res := admin.JSON(http.MethodPost, "/manage/api/bank_accounts", map[string]any{
		"bank_code": "012", "bank_name": "x", "account_number": "12345678", "account_type": "V",
		"contact_first_name": "Ana", "contact_last_name": "Soto", "contact_email": "ana@example.cl", "contact_phone": "+56 9 5555 1234",
	})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	res = admin.JSON(http.MethodPost, "/manage/api/payment_processors", map[string]any{"gateway": "local_payments", "soft_descriptor": "<ignored>"})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var p processors.Processor
	res.Decode(t, &p)
	require.Equal(t, "DLOCAL", p.SoftDescriptor)
	require.Equal(t, "DLOCAL", p.Statement)
}

// TestTrack: the page's two events are recorded; anything else is refused.
func TestTrack(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	ok := map[string]any{"event": "click_disabled_global_payments_message", "trigger": "button",
		"breadcrumbs": map[string]any{"path": "/manage/settings/gateways", "gateway_id": "global_payments"}}
	require.Equal(t, http.StatusNoContent, admin.JSON(http.MethodPost, "/manage/api/track", ok).Status)
	bad := map[string]any{"event": "drop_table", "trigger": "button", "breadcrumbs": map[string]any{"path": "/"}}
	require.Equal(t, http.StatusUnprocessableEntity, admin.JSON(http.MethodPost, "/manage/api/track", bad).Status)
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	var n int
	require.NoError(t, scope.QueryRow(context.Background(),
		`SELECT count(*) FROM track_events WHERE organization_id = $1 AND event = 'click_disabled_global_payments_message' AND gateway = 'global_payments'`, admin.OrgID).Scan(&n))
	require.Equal(t, 1, n)
}
