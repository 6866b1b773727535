package integration_test

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/integration"
	"github.com/aporta/aporta/internal/crm/sandbox"
	"github.com/aporta/aporta/internal/sharddb"
)

// sandboxCRM is the stack's sandbox CRM and an org of this test's own there.
func sandboxCRM(t *testing.T, limit int) (sandbox.Admin, sandbox.Org) {
	t.Helper()
	a := sandbox.Admin{BaseURL: os.Getenv("APORTA_SANDBOX_CRM_URL")}
	if a.BaseURL == "" {
		t.Fatal("APORTA_SANDBOX_CRM_URL is not set: run on the stack (deploy/stack.sh test)")
	}
	o, err := a.NewOrg(context.Background(), limit)
	require.NoError(t, err)
	return a, o
}

func connect(t *testing.T, c *apitest.Client, a sandbox.Admin, o sandbox.Org) integration.Setup {
	t.Helper()
	res := c.JSON(http.MethodPost, "/manage/api/integrations", map[string]any{"name": "Salesforce", "login_url": a.BaseURL,
		"client_id": o.ClientID, "client_secret": o.ClientSecret})
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	assert.NotContains(t, string(res.Body), o.ClientSecret, "the secret is never answered")
	var s integration.Setup
	res.Decode(t, &s)
	return s
}

func TestSetupChecksCredentialsAndSealsTheSecret(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	a, o := sandboxCRM(t, 0)

	res := admin.JSON(http.MethodPost, "/manage/api/integrations", map[string]any{"name": "CRM", "login_url": a.BaseURL,
		"client_id": o.ClientID, "client_secret": "wrong"})
	assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
	assert.Equal(t, "crm.credentials_refused", res.ErrorCode())
	res = admin.JSON(http.MethodPost, "/manage/api/integrations?locale=en", map[string]any{"name": "CRM", "login_url": "ftp://x",
		"client_id": o.ClientID})
	assert.Equal(t, "validation_failed", res.ErrorCode())
	var invalid struct {
		Error struct {
			Fields map[string]string `json:"fields"`
		} `json:"error"`
	}
	res.Decode(t, &invalid)
	assert.Contains(t, invalid.Error.Fields["login_url"], "login address")
	assert.Equal(t, "Enter the client secret.", invalid.Error.Fields["client_secret"])
	res = admin.JSON(http.MethodPost, "/manage/api/integrations", map[string]any{"name": "CRM", "login_url": a.BaseURL,
		"client_id": o.ClientID, "client_secret": o.ClientSecret, "external_id_field": "Nope__c"})
	assert.Equal(t, "crm.external_id_missing", res.ErrorCode())
	list := apitest.OK[integration.List](t, admin, http.MethodGet, "/manage/api/integrations", nil)
	assert.Empty(t, list.Integrations, "a refused setup saves nothing")

	setup := connect(t, admin, a, o)
	assert.True(t, setup.Auth.HasSecret)
	assert.Equal(t, "AR", setup.Country)
	assert.Contains(t, setup.Objects, "recurring_donation")
	assert.NotEmpty(t, setup.Objects["contact"].Fields)

	// At rest the secret is sealed: the row holds no clear text of it.
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	row, err := scope.Store().CRMIntegration(context.Background(), sharddb.CRMIntegrationParams{OrganizationID: admin.OrgID, ID: setup.UUID})
	require.NoError(t, err)
	assert.NotContains(t, string(row.ClientSecret), o.ClientSecret)

	// The setup's own calls are in the request log, with the pagination headers.
	page := admin.JSON(http.MethodGet, "/manage/settings/integrations/"+setup.UUID.String()+"/requests/page/1", nil)
	require.Equal(t, http.StatusOK, page.Status)
	var log integration.Requests
	page.Decode(t, &log)
	assert.NotEmpty(t, log.Requests)
	assert.Equal(t, "1", page.Header.Get("current-page"))
	assert.Equal(t, "25", page.Header.Get("page-items"))
	assert.NotEqual(t, "0", page.Header.Get("total-count"))
	assert.Equal(t, "1", page.Header.Get("total-pages"))

	// An operator of the organisation sees none of it: an integration holds the CRM's credentials.
	op := s.NewUser(t, "operator")
	s.AddMember(t, op, admin.OrgID, "operator")
	assert.Equal(t, http.StatusForbidden, op.JSON(http.MethodGet, "/manage/api/integrations", nil).Status)
	assert.Equal(t, http.StatusForbidden, op.JSON(http.MethodGet, "/manage/settings/integrations/"+setup.UUID.String()+"/setup", nil).Status)
	assert.Equal(t, http.StatusForbidden, op.JSON(http.MethodPatch, "/manage/settings/integrations/"+setup.UUID.String()+"/setup", map[string]any{"status": "paused"}).Status)

	// A new wrong secret is refused and the old one stays.
	res = admin.JSON(http.MethodPatch, "/manage/settings/integrations/"+setup.UUID.String()+"/setup", map[string]any{"client_secret": "wrong"})
	assert.Equal(t, "crm.credentials_refused", res.ErrorCode())
	res = admin.JSON(http.MethodPatch, "/manage/settings/integrations/"+setup.UUID.String()+"/setup", map[string]any{"name": "Salesforce NPSP", "daily_call_limit": 500, "status": "paused"})
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	res.Decode(t, &setup)
	assert.Equal(t, "paused", setup.Status)
	assert.Equal(t, int32(500), *setup.DailyCallLimit)
}

func TestRulesAreCheckedAgainstTheDescribe(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	a, o := sandboxCRM(t, 0)
	setup := connect(t, admin, a, o)
	rules := "/manage/settings/integrations/" + setup.UUID.String() + "/rules"
	rule := func(class, attr, object, field, syncRule string, vm map[string]string) apitest.Response {
		return admin.JSON(http.MethodPost, rules, map[string]any{"class_name": class, "attribute": attr, "crm_object": object,
			"field": field, "sync_rule": syncRule, "value_map": vm})
	}
	cases := []struct {
		res  apitest.Response
		code string
	}{
		{rule("donor", "email", "contact", "Emial", "always_override", nil), "crm.unknown_field"},
		{rule("donation", "amount", "recurring_donation", "npsp__Status__c", "always_override", nil), "crm.field_type_mismatch"},
		{rule("donation", "status", "recurring_donation", "npsp__Status__c", "always_override", nil), "crm.value_not_in_picklist"},
		{rule("donation", "status", "recurring_donation", "npsp__Status__c", "always_override", map[string]string{"frozen": "Paused"}), "crm.value_map_invalid"},
		{rule("donor", "email", "opportunity", "Name", "always_override", nil), "crm.object_not_allowed"},
		{rule("donor", "password", "contact", "Email", "always_override", nil), "crm.unknown_attribute"},
		{rule("donor", "email", "contact", "Aporta_Id__c", "always_override", nil), "crm.field_not_writable"},
		{rule("donor", "email", "contact", "Email", "sometimes", nil), "crm.sync_rule_invalid"},
	}
	for _, c := range cases {
		assert.Equal(t, http.StatusUnprocessableEntity, c.res.Status, "%s", c.res.Body)
		assert.Equal(t, c.code, c.res.ErrorCode(), "%s", c.res.Body)
		assert.NotContains(t, string(c.res.Body), "%", "every message is rendered with its values")
	}

	status := rule("donation", "status", "recurring_donation", "npsp__status__c", "always_override",
		map[string]string{"pending": "Active", "active": "Active", "paused": "Paused", "discarded": "Closed", "rejected": "Closed"})
	require.Equal(t, http.StatusCreated, status.Status, "%s", status.Body)
	var created integration.Rule
	status.Decode(t, &created)
	assert.Equal(t, "npsp__Status__c", created.Field, "the field as the CRM spells it")
	res := rule("donation", "recurrence", "recurring_donation", "npsp__Status__c", "always_override", map[string]string{"monthly": "Active", "one_time": "Closed"})
	assert.Equal(t, http.StatusConflict, res.Status)
	assert.Equal(t, "crm.field_taken", res.ErrorCode())

	patched := apitest.OK[integration.Rule](t, admin, http.MethodPatch, rules+"/"+created.ID.String(), map[string]any{
		"attribute": "status", "crm_object": "recurring_donation", "field": "npsp__Status__c", "sync_rule": "override_if_empty",
		"value_map": map[string]string{"pending": "Active", "active": "Active", "paused": "Paused", "discarded": "Closed", "rejected": "Lapsed"}})
	assert.Equal(t, "override_if_empty", patched.SyncRule)
	assert.Equal(t, "Lapsed", patched.ValueMap["rejected"])

	// Another organisation's administrator finds none of it.
	other := s.NewOrgAdmin(t, "AR")
	base := "/manage/settings/integrations/" + setup.UUID.String()
	ruleBody := map[string]any{"attribute": "email", "crm_object": "contact", "field": "Email", "sync_rule": "always_override", "class_name": "donor"}
	for _, r := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, base + "/setup", nil}, {http.MethodPatch, base + "/setup", map[string]any{"name": "x"}},
		{http.MethodPost, base + "/setup/sync", nil}, {http.MethodPost, base + "/rules", ruleBody},
		{http.MethodPatch, base + "/rules/" + created.ID.String(), ruleBody},
		{http.MethodDelete, base + "/rules/" + created.ID.String(), nil}, {http.MethodGet, base + "/requests/page/1", nil},
		{http.MethodPost, base + "/requests/" + uuid.NewString() + "/retry", nil},
	} {
		res := other.JSON(r.method, r.path, r.body)
		assert.Equal(t, http.StatusNotFound, res.Status, "%s %s: %s", r.method, r.path, res.Body)
	}
	// Nor can it use its own integration's path with the first one's rule id.
	otherA, otherO := sandboxCRM(t, 0)
	mine := connect(t, other, otherA, otherO)
	res = other.JSON(http.MethodDelete, "/manage/settings/integrations/"+mine.UUID.String()+"/rules/"+created.ID.String(), nil)
	assert.Equal(t, http.StatusNotFound, res.Status)

	assert.Equal(t, http.StatusNoContent, admin.JSON(http.MethodDelete, rules+"/"+created.ID.String(), nil).Status)
	setup = apitest.OK[integration.Setup](t, admin, http.MethodGet, base+"/setup", nil)
	assert.Empty(t, setup.Rules)
	assert.True(t, strings.HasPrefix(setup.Auth.LoginURL, "http"))
}
