package agency_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/agency"
	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// publishedCampaign makes a published fundraising campaign in the organisation.
func publishedCampaign(t *testing.T, s *apitest.Stack, orgID uuid.UUID, title string) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	tenantstest.SetStatus(t, s.Tenants, orgID, "enabled", "essential_monthly")
	svc := campaign.NewService(s.Tenants)
	c, err := svc.CreateFromInput(ctx, orgID, campaign.Input{Title: title, Type: "fundraise", Channel: "f2f", AllowOneTime: true,
		AllowOtherAmount: true, Amounts: []campaign.Amount{{Amount: "500"}, {Amount: "1000"}}, ImmediateCharge: true})
	require.NoError(t, err)
	_, err = svc.SetPublished(ctx, orgID, c.ID, true)
	require.NoError(t, err)
	return c.ID
}

type one struct {
	Agency    agency.Agency     `json:"agency"`
	Campaigns []agency.Campaign `json:"campaigns"`
	Users     []agency.User     `json:"users"`
}

func settings(name, mode string, delay int) map[string]any {
	return map[string]any{"account": map[string]any{"agency_name": name, "mode": mode, "sync_delay": delay}}
}

// newAgency creates an agency as the administrator.
func newAgency(t *testing.T, admin *apitest.Client, name, mode string, delay int) one {
	t.Helper()
	res := admin.JSON(http.MethodPost, "/manage/api/agencies", settings(name, mode, delay))
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var out one
	res.Decode(t, &out)
	return out
}

// newAgent adds a person to the agency as the administrator, gives them a password as the
// recovery flow would, and signs them in.
func newAgent(t *testing.T, s *apitest.Stack, admin *apitest.Client, agencyID, role string, acquisition, management bool) *apitest.Client {
	t.Helper()
	email := fmt.Sprintf("agent-%s@test.aporta.test", uuid.NewString()[:8])
	res := admin.JSON(http.MethodPost, "/manage/api/agencies/"+agencyID+"/users", map[string]any{
		"email": email, "first_name": "Agente", "last_name": "Calle", "role": role, "acquisition": acquisition, "management": management})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var reply agency.UserReply
	res.Decode(t, &reply)
	id := uuid.MustParse(reply.User.UUID)
	require.NoError(t, s.Kratos.SetPassword(context.Background(), id, apitest.Password))
	c := s.Login(t, email, apitest.Password)
	c.UserID = id
	return c
}

func fieldErrors(t *testing.T, r apitest.Response) map[string]string {
	t.Helper()
	var e struct {
		Error struct {
			Fields map[string]string `json:"fields"`
		} `json:"error"`
	}
	r.Decode(t, &e)
	return e.Error.Fields
}

func requireCode(t *testing.T, r apitest.Response, status int, code string) {
	t.Helper()
	require.Equal(t, status, r.Status, string(r.Body))
	if code != "" {
		require.Equal(t, code, r.ErrorCode(), string(r.Body))
		require.NotEmpty(t, r.ErrorMessage())
		require.NotContains(t, r.ErrorMessage(), "[missing")
	}
}

func TestOrganizationRunsItsAgenciesAndNobodyElseDoes(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	other := s.NewOrgAdmin(t, "AR")
	camp := publishedCampaign(t, s, admin.OrgID, "Calle Norte")
	otherCamp := publishedCampaign(t, s, other.OrgID, "Otra organización")

	// Bad settings are refused in the reader's language and create nothing.
	for _, tc := range []struct {
		body        map[string]any
		field, code string
	}{
		{settings("AB", "live", 60), "agency_name", "agency.name_min_length"},
		{settings("Equipo", "prod", 60), "mode", "agency.mode_invalid"},
		{settings("Equipo", "live", 61), "sync_delay", "agency.sync_delay_invalid"},
		{map[string]any{"account": map[string]any{"agency_name": "Equipo", "mode": "live"}}, "sync_delay", "agency.sync_delay_invalid"},
	} {
		r := admin.JSON(http.MethodPost, "/manage/api/agencies?locale=en", tc.body)
		requireCode(t, r, http.StatusUnprocessableEntity, "validation_failed")
		require.Equal(t, i18n.T(i18n.EN, tc.code), fieldErrors(t, r)[tc.field], tc.code)
	}
	require.Empty(t, apitest.OK[agency.List](t, admin, http.MethodGet, "/manage/api/agencies", nil).Agencies)

	a := newAgency(t, admin, "Calle Norte", "live", 60)
	require.Equal(t, "live", a.Agency.Mode)
	path := "/manage/api/agencies/" + a.Agency.UUID

	// Another organisation's administrator knows nothing of it, whatever the call.
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, path, nil}, {http.MethodPatch, path, settings("Robado", "live", 0)}, {http.MethodDelete, path, nil},
		{http.MethodPost, path + "/campaigns/" + otherCamp.String(), map[string]any{"amounts": []string{"1"}}},
		{http.MethodPost, path + "/users", map[string]any{"email": "x@example.org", "first_name": "Xxx", "last_name": "Yyy", "role": "operator"}},
	} {
		requireCode(t, other.JSON(c.method, c.path, c.body), http.StatusNotFound, "not_found")
	}
	requireCode(t, admin.JSON(http.MethodGet, "/manage/api/agencies/not-a-uuid", nil), http.StatusNotFound, "not_found")

	// Only the organisation's own campaigns can be authorised.
	assoc := map[string]any{"allow_one_time": false, "allow_other_amount": false, "amounts": []string{"500", "1500.50"}}
	requireCode(t, admin.JSON(http.MethodPost, path+"/campaigns/"+otherCamp.String(), assoc), http.StatusNotFound, "not_found")
	requireCode(t, admin.JSON(http.MethodPost, path+"/campaigns/"+camp.String(), map[string]any{"amounts": []string{}}),
		http.StatusUnprocessableEntity, "validation_failed")
	r := admin.JSON(http.MethodPost, path+"/campaigns/"+camp.String()+"?locale=en", map[string]any{"amounts": []string{"-5"}})
	requireCode(t, r, http.StatusUnprocessableEntity, "validation_failed")
	require.Equal(t, i18n.T(i18n.EN, "agency.amount_invalid"), fieldErrors(t, r)["amounts.0"])
	got := apitest.OK[one](t, admin, http.MethodPost, path+"/campaigns/"+camp.String(), assoc)
	require.Len(t, got.Campaigns, 1)
	require.Equal(t, int64(150050), got.Campaigns[0].Amounts[1].Minor)
	require.False(t, got.Campaigns[0].AllowOneTime)

	// The operator has acquisition only; their work area shows the agency's campaign.
	op := newAgent(t, s, admin, a.Agency.UUID, "operator", true, false)
	me := apitest.OK[agency.Me](t, op, http.MethodGet, "/agency/api/me", nil)
	require.Equal(t, []string{agency.PermitAcquire}, me.Permissions)
	require.Len(t, me.Campaigns, 1)
	require.Equal(t, camp.String(), me.Campaigns[0].UUID)
	// An agent is nobody in the organisation's manage area.
	for _, p := range []string{"/manage/api/agencies", "/manage/api/donations", "/manage/api/organization", path} {
		requireCode(t, op.JSON(http.MethodGet, p, nil), http.StatusForbidden, "forbidden")
	}
	// Organisation people outside the organisation's administration are not: agency admins are,
	// and only for external teams.
	operator := s.NewUser(t, "orgop")
	s.AddMember(t, operator, admin.OrgID, "operator")
	requireCode(t, operator.JSON(http.MethodGet, "/manage/api/agencies", nil), http.StatusForbidden, "forbidden")
	agencyAdmin := s.NewUser(t, "agadmin")
	s.AddMember(t, agencyAdmin, admin.OrgID, "agency_admin")
	require.Len(t, apitest.OK[agency.List](t, agencyAdmin, http.MethodGet, "/manage/api/agencies", nil).Agencies, 1)
	apitest.OK[one](t, agencyAdmin, http.MethodGet, path, nil)
	for _, p := range []string{"/manage/api/donations", "/manage/api/users", "/manage/api/campaigns"} {
		requireCode(t, agencyAdmin.JSON(http.MethodGet, p, nil), http.StatusForbidden, "forbidden")
	}

	// A second agency of the same organisation, without the campaign, sees none of the first's.
	b := newAgency(t, admin, "Calle Sur", "sandbox", 0)
	opB := newAgent(t, s, admin, b.Agency.UUID, "manager", true, true)
	meB := apitest.OK[agency.Me](t, opB, http.MethodGet, "/agency/api/me", nil)
	require.Empty(t, meB.Campaigns)
	// Asking for the other agency by header does not switch to it.
	requireCode(t, opB.JSON(http.MethodGet, "/agency/api/me", nil, agency.AgencyHeader, a.Agency.UUID), http.StatusForbidden, "forbidden")

	// Management granted later shows at once; discarding the person takes everything away and
	// signs them out; reactivating gives it back.
	userPath := path + "/users/" + op.UserID.String()
	apitest.OK[agency.UserReply](t, admin, http.MethodPatch, userPath, map[string]any{"role": "operator", "acquisition": true, "management": true})
	me = apitest.OK[agency.Me](t, op, http.MethodGet, "/agency/api/me", nil)
	require.ElementsMatch(t, []string{agency.PermitAcquire, agency.PermitManageDonors}, me.Permissions)
	requireCode(t, admin.JSON(http.MethodPatch, userPath, map[string]any{"role": "boss"}), http.StatusUnprocessableEntity, "validation_failed")
	requireCode(t, other.JSON(http.MethodDelete, userPath, nil), http.StatusNotFound, "not_found")
	discarded := apitest.OK[agency.UserReply](t, admin, http.MethodDelete, userPath, nil)
	require.Equal(t, "discarded", discarded.User.Status)
	requireCode(t, op.JSON(http.MethodGet, "/agency/api/me", nil), http.StatusUnauthorized, "unauthorized")
	op = s.Login(t, op.Email, apitest.Password)
	requireCode(t, op.JSON(http.MethodGet, "/agency/api/me", nil), http.StatusForbidden, "forbidden")
	apitest.OK[agency.UserReply](t, admin, http.MethodPost, userPath+"/reactivate", nil)
	apitest.OK[agency.Me](t, op, http.MethodGet, "/agency/api/me", nil)

	// Discarding the agency signs its people out at once and keeps them out.
	gone := apitest.OK[one](t, admin, http.MethodDelete, path, nil)
	require.NotNil(t, gone.Agency.DiscardedAt)
	requireCode(t, op.JSON(http.MethodGet, "/agency/api/me", nil), http.StatusUnauthorized, "unauthorized")
	op = s.Login(t, op.Email, apitest.Password)
	requireCode(t, op.JSON(http.MethodGet, "/agency/api/me", nil), http.StatusForbidden, "forbidden")
	requireCode(t, admin.JSON(http.MethodPatch, path, settings("Calle Norte", "live", 0)), http.StatusConflict, "agency.discarded")
	require.Len(t, apitest.OK[agency.List](t, admin, http.MethodGet, "/manage/api/agencies", nil).Agencies, 1, "the active list leaves it out")
	require.Len(t, apitest.OK[agency.List](t, admin, http.MethodGet, "/manage/api/agencies?status=discarded", nil).Agencies, 1)
	// The other agency's person was not touched.
	apitest.OK[agency.Me](t, opB, http.MethodGet, "/agency/api/me", nil)
}

func TestNewAgentIsToldWhereToChooseThePassword(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	a := newAgency(t, admin, "Equipo Centro", "sandbox", 0)
	email := fmt.Sprintf("nuevo-%s@test.aporta.test", uuid.NewString()[:8])
	res := admin.JSON(http.MethodPost, "/manage/api/agencies/"+a.Agency.UUID+"/users?locale=es", map[string]any{
		"email": email, "first_name": "Nuevo", "last_name": "Agente", "role": "supervisor"})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	requireCode(t, admin.JSON(http.MethodPost, "/manage/api/agencies/"+a.Agency.UUID+"/users", map[string]any{
		"email": email, "first_name": "Nuevo", "last_name": "Agente", "role": "supervisor"}), http.StatusConflict, "agency.user_exists")

	r := admin.JSON(http.MethodGet, "/dev/api/outbox?to="+url.QueryEscape(email), nil)
	var box struct {
		Messages []struct {
			Subject, Body string
			Template      string `json:"template_type"`
		} `json:"messages"`
	}
	r.Decode(t, &box)
	require.Len(t, box.Messages, 1, string(r.Body))
	require.Equal(t, agency.TemplateWelcome, box.Messages[0].Template)
	require.Contains(t, box.Messages[0].Subject, "Equipo Centro")
	require.Contains(t, box.Messages[0].Body, s.Config.PublicURL+"/account/recovery")

	// The account has no password: nobody signs in until the owner of the address chooses one.
	id, found, err := s.Kratos.FindByEmail(context.Background(), email)
	require.NoError(t, err)
	require.True(t, found)
	i, err := s.Kratos.Get(context.Background(), id)
	require.NoError(t, err)
	require.True(t, i.EmailVerified)

	// An identity someone made for an address without proving it is not handed agency access.
	squat := fmt.Sprintf("squat-%s@test.aporta.test", uuid.NewString()[:8])
	_, err = s.Kratos.CreateUser(context.Background(), identity.NewUser{Email: squat, FirstName: "Ocupa", LastName: "Dor", Password: apitest.Password})
	require.NoError(t, err)
	requireCode(t, admin.JSON(http.MethodPost, "/manage/api/agencies/"+a.Agency.UUID+"/users", map[string]any{
		"email": squat, "first_name": "Nuevo", "last_name": "Agente", "role": "operator"}), http.StatusConflict, "agency.email_unavailable")
}
