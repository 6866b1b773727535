package gateways_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// unconnected is an administrator (signed in) of a new organisation with no gateway.
func unconnected(t *testing.T, s *apitest.Stack, country string) *apitest.Client {
	t.Helper()
	c := s.NewUser(t, "admin")
	org := s.NewOrganizationWithoutGateway(t, country)
	tenantstest.SetStatus(t, s.Tenants, org, "enabled", "essential_monthly")
	s.AddMember(t, c, org, "administrator")
	return c
}

// begin posts the gateways page's form, as the browser does.
func begin(c *apitest.Client, token, returnTo string) apitest.Response {
	return beginFor(c, token, returnTo, "")
}

// beginFor is begin with the form's organization_id (the list's), "" for none.
func beginFor(c *apitest.Client, token, returnTo, orgID string) apitest.Response {
	form := url.Values{"return_to": {returnTo}}
	if orgID != "" {
		form.Set("organization_id", orgID)
	}
	if token != "" {
		form.Set("authenticity_token", token)
	}
	return c.Do(http.MethodPost, "/auth/mercadopago", strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
}

// authorize starts a connection and plays the account holder at the sandbox's page; it answers the
// callback's path and query, as the browser would follow it.
func authorize(t *testing.T, c *apitest.Client, returnTo, nickname, country string, approve bool) string {
	t.Helper()
	r := begin(c, c.CSRFToken(), returnTo)
	require.Equal(t, http.StatusSeeOther, r.Status, string(r.Body))
	to := r.Header.Get("Location")
	u, err := url.Parse(to)
	require.NoError(t, err)
	q := u.Query()
	require.Equal(t, "code", q.Get("response_type"))
	require.Equal(t, "mp", q.Get("platform_id"))
	require.Equal(t, "S256", q.Get("code_challenge_method"))
	require.Len(t, q.Get("code_challenge"), 43)
	require.NotEmpty(t, q.Get("state"))
	require.True(t, strings.HasSuffix(q.Get("redirect_uri"), "/auth/mercadopago/callback"), q.Get("redirect_uri"))
	back, err := sandbox.Decide(context.Background(), to, nickname, sandboxauth.Sites[country], approve)
	require.NoError(t, err)
	require.Equal(t, q.Get("state"), back.Query().Get("state"))
	return back.Path + "?" + back.RawQuery
}

// landing follows the callback and answers where it sends the browser.
func landing(t *testing.T, c *apitest.Client, callback string) *url.URL {
	t.Helper()
	r := c.Do(http.MethodGet, callback, nil, "")
	require.Equal(t, http.StatusSeeOther, r.Status, string(r.Body))
	u, err := url.Parse(r.Header.Get("Location"))
	require.NoError(t, err)
	return u
}

type list struct {
	Gateways []struct {
		ID         string `json:"id"`
		Enabled    bool   `json:"enabled"`
		Connection *struct {
			ID          string `json:"id"`
			Status      string `json:"status"`
			ActivatedAt string `json:"activated_at"`
			AccountName string `json:"account_name"`
			LiveMode    bool   `json:"live_mode"`
			Receives    bool   `json:"receives_new_donations"`
		} `json:"connection"`
	} `json:"gateways"`
}

func gatewaysOf(t *testing.T, c *apitest.Client) (list, string) {
	t.Helper()
	r := c.JSON(http.MethodGet, "/manage/api/payment_gateways", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var l list
	r.Decode(t, &l)
	return l, string(r.Body)
}

// publicForm publishes a campaign of the organisation and reads its public form.
func publicForm(t *testing.T, s *apitest.Stack, c *apitest.Client) map[string]any {
	t.Helper()
	cp := apitest.PublishedCampaign(t, s.Tenants, c.OrgID, campaign.Input{Title: "Campaña", Type: "fundraise", Channel: "public",
		AllowOneTime: true, Amounts: []campaign.Amount{{Amount: "1500"}}})
	r := c.Do(http.MethodGet, "/api/public/campaigns/"+cp.Slug, nil, "")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var out map[string]any
	r.Decode(t, &out)
	out["slug"] = cp.Slug
	return out
}

// secretsOf are the organisation's connection tokens, read through the store as the charging code does.
func secretsOf(t *testing.T, s *apitest.Stack, orgID uuid.UUID) []string {
	t.Helper()
	scope, err := s.Tenants.ForOrganization(context.Background(), orgID)
	require.NoError(t, err)
	_, creds, err := s.Gateways.Store.Active(context.Background(), scope, connections.MercadoPago)
	require.NoError(t, err)
	require.NotEmpty(t, creds.AccessToken)
	require.NotEmpty(t, creds.RefreshToken)
	return []string{creds.AccessToken, creds.RefreshToken}
}

func TestConnectMercadoPago(t *testing.T) {
	s := apitest.Start(t)
	admin := unconnected(t, s, "AR")

	closed := publicForm(t, s, admin)
	require.Equal(t, false, closed["accepting_donations"])
	require.Equal(t, "gateway_missing", closed["closed_reason"])

	nickname := "CONNECT" + strings.ToUpper(uuid.NewString()[:8])
	to := landing(t, admin, authorize(t, admin, "onboarding", nickname, "AR", true))
	require.Equal(t, "/account/onboarding/payment_gateways", to.Path)
	require.Equal(t, "mercadopago", to.Query().Get("connected"))

	l, body := gatewaysOf(t, admin)
	require.Len(t, l.Gateways, 2)
	require.Equal(t, "mercadopago", l.Gateways[0].ID)
	require.True(t, l.Gateways[0].Enabled)
	require.Equal(t, "active", l.Gateways[0].Connection.Status)
	require.Equal(t, nickname, l.Gateways[0].Connection.AccountName)
	require.NotEmpty(t, l.Gateways[0].Connection.ActivatedAt)
	require.Equal(t, "centralpos", l.Gateways[1].ID)
	require.False(t, l.Gateways[1].Enabled)
	require.Nil(t, l.Gateways[1].Connection)

	// The tokens are nowhere but sealed in the shard: not in the list, not in any column, not in the log.
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	var dump strings.Builder
	for _, table := range []string{"gateway_connections", "gateway_oauth_states"} {
		rows, err := scope.Query(context.Background(), "SELECT t::text FROM "+table+" t WHERE organization_id = $1", admin.OrgID)
		require.NoError(t, err)
		for rows.Next() {
			var row string
			require.NoError(t, rows.Scan(&row))
			dump.WriteString(row)
		}
		rows.Close()
	}
	require.Contains(t, dump.String(), nickname)
	for _, secret := range secretsOf(t, s, admin.OrgID) {
		require.NotContains(t, body, secret)
		require.NotContains(t, dump.String(), secret)
		require.NotContains(t, s.Logs(), secret)
	}

	open := publicForm(t, s, admin)
	require.Equal(t, true, open["accepting_donations"])
	require.Nil(t, open["closed_reason"])
	key := open["gateway"].(map[string]any)["public_key"]
	require.NotEmpty(t, key)
	require.NotEqual(t, s.Config.GatewayPublicKey, key, "the form tokenises with the organisation's key, not the platform's")

	// Reconnecting (the same account) keeps the connection's id.
	first := l.Gateways[0].Connection.ID
	landing(t, admin, authorize(t, admin, "settings", nickname, "AR", true))
	l, _ = gatewaysOf(t, admin)
	require.Equal(t, first, l.Gateways[0].Connection.ID)

	// Delete: irreversible, and the form closes again; a donation is refused without charging.
	r := admin.JSON(http.MethodDelete, "/manage/api/payment_gateways/"+first, nil)
	require.Equal(t, http.StatusNoContent, r.Status, string(r.Body))
	l, _ = gatewaysOf(t, admin)
	require.Nil(t, l.Gateways[0].Connection)
	require.Equal(t, http.StatusNotFound, admin.JSON(http.MethodDelete, "/manage/api/payment_gateways/"+first, nil).Status)
	closed = publicForm(t, s, admin)
	require.Equal(t, "gateway_missing", closed["closed_reason"])
	donate := s.Visitor(t).JSON(http.MethodPost, "/d/"+closed["slug"].(string), apitest.FormPayload("tok", 0, 1500, "ana@example.org", uuid.NewString()), "Accept-Language", "en")
	require.Equal(t, http.StatusConflict, donate.Status, string(donate.Body))
	require.Equal(t, "donation.not_accepting", donate.ErrorCode())
}

func TestConnectionFailuresStoreNothing(t *testing.T) {
	s := apitest.Start(t)
	admin := unconnected(t, s, "AR")
	nickname := "FAIL" + strings.ToUpper(uuid.NewString()[:8])
	fails := func(callback, code string) {
		t.Helper()
		to := landing(t, admin, callback)
		require.Equal(t, "/manage/settings/gateways", to.Path)
		require.Equal(t, code, to.Query().Get("error"))
		l, _ := gatewaysOf(t, admin)
		require.Nil(t, l.Gateways[0].Connection, code)
	}

	// The account holder says no.
	fails(authorize(t, admin, "settings", nickname, "AR", false), "gateway.oauth_denied")
	// An account of another country than the organisation's.
	fails(authorize(t, admin, "settings", nickname, "BR", true), "gateway.account_country_mismatch")

	// A callback replayed: the state is single use (and the code too).
	approved := authorize(t, admin, "settings", nickname, "AR", true)
	landing(t, admin, approved)
	r := admin.JSON(http.MethodDelete, "/manage/api/payment_gateways/"+mustConnection(t, admin), nil)
	require.Equal(t, http.StatusNoContent, r.Status)
	fails(approved, "gateway.oauth_state_invalid")

	// A code the gateway does not know, with a valid state.
	cb, err := url.Parse(authorize(t, admin, "settings", nickname, "AR", true))
	require.NoError(t, err)
	q := cb.Query()
	q.Set("code", "TG-forged")
	fails(cb.Path+"?"+q.Encode(), "gateway.oauth_invalid_grant")

	// No state at all.
	fails("/auth/mercadopago/callback?code=TG-x", "gateway.oauth_state_invalid")

	// Another administrator's session cannot finish this one's connection, nor can another
	// organisation's: the state is bound to both.
	other := unconnected(t, s, "AR")
	stolen := authorize(t, admin, "settings", nickname, "AR", true)
	r = other.Do(http.MethodGet, stolen, nil, "")
	require.Equal(t, http.StatusNotFound, r.Status, "the state names an organisation the session is not in")
	// … and with the state's organisation swapped for the intruder's own, the state is not theirs.
	forged := strings.Replace(stolen, "state="+admin.OrgID.String(), "state="+other.OrgID.String(), 1)
	require.NotEqual(t, stolen, forged)
	to := landing(t, other, forged)
	require.Equal(t, "gateway.oauth_state_invalid", to.Query().Get("error"))
	l, _ := gatewaysOf(t, other)
	require.Nil(t, l.Gateways[0].Connection)
	// … while the one who started it still can.
	require.Equal(t, "mercadopago", landing(t, admin, stolen).Query().Get("connected"))
}

func mustConnection(t *testing.T, c *apitest.Client) string {
	t.Helper()
	l, _ := gatewaysOf(t, c)
	require.NotNil(t, l.Gateways[0].Connection)
	return l.Gateways[0].Connection.ID
}

func TestOnlyAdministratorsWithThePagesTokenConnect(t *testing.T) {
	s := apitest.Start(t)
	admin := unconnected(t, s, "AR")
	// A form post without the page's token (a forged cross-site form) is refused.
	r := begin(admin, "", "settings")
	require.Equal(t, http.StatusForbidden, r.Status)
	require.Equal(t, "csrf_invalid", r.ErrorCode())
	r = begin(admin, "not-the-token", "settings")
	require.Equal(t, http.StatusForbidden, r.Status)

	operator := s.NewUser(t, "operator")
	s.AddMember(t, operator, admin.OrgID, "operator")
	require.Equal(t, http.StatusForbidden, begin(operator, operator.CSRFToken(), "settings").Status)
	require.Equal(t, http.StatusForbidden, operator.JSON(http.MethodGet, "/manage/api/payment_gateways", nil).Status)
	require.Equal(t, http.StatusForbidden, operator.JSON(http.MethodPost, "/manage/api/payment_gateways/centralpos", map[string]string{"token": "CP-x"}).Status)

	// Signed out: nothing.
	visitor := s.Visitor(t)
	require.Equal(t, http.StatusUnauthorized, begin(visitor, visitor.CSRFToken(), "settings").Status)
}

// A person administering two organisations connects the one the gateways page shows (the form
// posts the list's organization_id), and cannot name an organisation they are not in.
func TestConnectsTheOrganisationThePageShows(t *testing.T) {
	s := apitest.Start(t)
	admin := unconnected(t, s, "AR")
	second := s.NewOrganizationWithoutGateway(t, "AR")
	tenantstest.SetStatus(t, s.Tenants, second, "enabled", "essential_monthly")
	s.AddMember(t, admin, second, "administrator")

	r := admin.JSON(http.MethodGet, "/manage/api/payment_gateways", nil, "X-Organization-Id", second.String())
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var l struct {
		OrganizationID string `json:"organization_id"`
	}
	r.Decode(t, &l)
	require.Equal(t, second.String(), l.OrganizationID)

	r = beginFor(admin, admin.CSRFToken(), "settings", l.OrganizationID)
	require.Equal(t, http.StatusSeeOther, r.Status, string(r.Body))
	back, err := sandbox.Decide(context.Background(), r.Header.Get("Location"), "TWO"+strings.ToUpper(uuid.NewString()[:8]), "MLA", true)
	require.NoError(t, err)
	require.Equal(t, "mercadopago", landing(t, admin, back.Path+"?"+back.RawQuery).Query().Get("connected"))
	for org, connected := range map[uuid.UUID]bool{admin.OrgID: false, second: true} {
		scope, err := s.Tenants.ForOrganization(context.Background(), org)
		require.NoError(t, err)
		_, err = s.Gateways.Store.ActiveConnection(context.Background(), scope, connections.MercadoPago)
		require.Equal(t, connected, err == nil, "organisation %s connected: %v", org, err)
	}

	stranger := s.NewOrganizationWithoutGateway(t, "AR")
	r = beginFor(admin, admin.CSRFToken(), "settings", stranger.String())
	require.Equal(t, http.StatusNotFound, r.Status, "another organisation's id is unknown")
	r = beginFor(admin, admin.CSRFToken(), "settings", "not-an-id")
	require.Equal(t, http.StatusNotFound, r.Status)
}

func TestCentralPos(t *testing.T) {
	s := apitest.Start(t)
	admin := unconnected(t, s, "AR")
	code := func(country string) string {
		res, err := http.Post(s.Config.GatewayURL+"/__sandbox/centralpos/codes", "application/json",
			strings.NewReader(`{"legal_name":"Fundación CP","country":"`+country+`"}`))
		require.NoError(t, err)
		defer res.Body.Close()
		var out struct{ Code string }
		require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
		require.NotEmpty(t, out.Code)
		return out.Code
	}
	post := func(token string) apitest.Response {
		return admin.JSON(http.MethodPost, "/manage/api/payment_gateways/centralpos", map[string]string{"token": token}, "Accept-Language", "en")
	}
	r := post("")
	require.Equal(t, http.StatusUnprocessableEntity, r.Status)
	require.Contains(t, string(r.Body), `"token":"Enter the authorisation code."`)
	r = post("CP-unknown")
	require.Equal(t, http.StatusUnprocessableEntity, r.Status)
	require.Equal(t, "gateway.centralpos_invalid_code", r.ErrorCode())
	require.Contains(t, r.ErrorMessage(), "CentralPos does not recognise")
	r = post(code("BR"))
	require.Equal(t, http.StatusUnprocessableEntity, r.Status)
	require.Equal(t, "gateway.account_country_mismatch", r.ErrorCode())

	valid := code("AR")
	r = post(valid)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	var created struct {
		ID          string `json:"id"`
		Status      string `json:"status"`
		AccountName string `json:"account_name"`
	}
	r.Decode(t, &created)
	require.Equal(t, "active", created.Status)
	require.Equal(t, "Fundación CP", created.AccountName)
	require.NotContains(t, string(r.Body), "api_key")
	// The code is single use.
	require.Equal(t, "gateway.centralpos_invalid_code", post(valid).ErrorCode())

	l, _ := gatewaysOf(t, admin)
	require.True(t, l.Gateways[1].Enabled)
	require.Equal(t, created.ID, l.Gateways[1].Connection.ID)
	require.True(t, l.Gateways[1].Connection.Receives, "the only active connection takes new donations")
	require.Equal(t, http.StatusNoContent, admin.JSON(http.MethodDelete, "/manage/api/payment_gateways/"+created.ID, nil).Status)
	l, _ = gatewaysOf(t, admin)
	require.Nil(t, l.Gateways[1].Connection)

	// Another organisation's connection id is unknown here.
	other := s.NewOrgAdmin(t, "AR")
	require.Equal(t, http.StatusNotFound, admin.JSON(http.MethodDelete, "/manage/api/payment_gateways/"+mustConnection(t, other), nil).Status)
	mustConnection(t, other)

	// With both gateways connected, the list says which one new donations charge through: the one
	// activated last.
	l, _ = gatewaysOf(t, other)
	require.True(t, l.Gateways[0].Connection.Receives)
	r = other.JSON(http.MethodPost, "/manage/api/payment_gateways/centralpos", map[string]string{"token": code("AR")})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	l, _ = gatewaysOf(t, other)
	require.False(t, l.Gateways[0].Connection.Receives)
	require.True(t, l.Gateways[1].Connection.Receives)
}
