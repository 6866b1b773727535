package export_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	flow "github.com/aporta/aporta/workflows/export"
)

func addLeads(t *testing.T, s *apitest.Stack, org uuid.UUID, rows [][4]string, age time.Duration) {
	t.Helper()
	ctx := context.Background()
	scope, err := s.Tenants.ForOrganization(ctx, org)
	require.NoError(t, err)
	camp := uuid.New()
	require.NoError(t, scope.Exec(ctx, `INSERT INTO campaigns (organization_id, id, slug, title, type, currency)
		VALUES ($1, $2, $3, $4, 'custom', 'CLP')`, org, camp, "c-"+camp.String()[:8], "Campaña "+rows[0][3]))
	for _, r := range rows {
		require.NoError(t, scope.Exec(ctx, `INSERT INTO leads (organization_id, id, campaign_id, email, first_name, last_name, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, now() - $7::interval, now() - $7::interval)`,
			org, uuid.New(), camp, r[0], r[1], r[2], strconv.Itoa(int(age.Seconds()))+" seconds"))
	}
}

// An export end to end: leads rows → POST → e-mail in the outbox → the link downloads the CSV (only
// this organisation's leads of the last 90 days) → a past expiry answers 410, a tampered signature 403.
func TestLeadsExportEndToEnd(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "CL")
	other := s.NewOrganization(t, "CL")
	addLeads(t, s, admin.OrgID, [][4]string{
		{"ana@example.test", "Ana", "Pérez", "A"},
		{"=cmd@example.test", "+Luis", "O'Neil, \"Jr\"", "A"},
	}, time.Hour)
	addLeads(t, s, admin.OrgID, [][4]string{{"viejo@example.test", "Old", "Lead", "B"}}, 100*24*time.Hour)
	addLeads(t, s, other, [][4]string{{"ajeno@example.test", "Otra", "Org", "C"}}, time.Hour)

	to := "exports-" + uuid.NewString()[:8] + "@test.aporta.test"
	res := admin.JSON(http.MethodPost, "/manage/api/leads/export", map[string]string{"email": "not-an-email"})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	res = admin.JSON(http.MethodPost, "/manage/api/leads/export", map[string]string{"email": to}, "Accept-Language", "pt")
	require.Equal(t, http.StatusAccepted, res.Status, string(res.Body))

	// A retried start (same Idempotency-Key) finds the export the first one started.
	key := uuid.NewString()
	var first, again struct {
		ExportID string `json:"export_id"`
	}
	body := map[string]string{"email": "again-" + to}
	res = admin.JSON(http.MethodPost, "/manage/api/leads/export", body, "Idempotency-Key", key)
	require.Equal(t, http.StatusAccepted, res.Status, string(res.Body))
	res.Decode(t, &first)
	res = admin.JSON(http.MethodPost, "/manage/api/leads/export", body, "Idempotency-Key", key)
	require.Equal(t, http.StatusAccepted, res.Status, string(res.Body))
	res.Decode(t, &again)
	require.NotEmpty(t, first.ExportID)
	require.Equal(t, first.ExportID, again.ExportID)

	var link string
	require.Eventually(t, func() bool {
		res := admin.JSON(http.MethodGet, "/dev/api/outbox?to="+url.QueryEscape(to), nil)
		var out struct {
			Messages []struct{ Subject, Body string } `json:"messages"`
		}
		res.Decode(t, &out)
		if len(out.Messages) == 0 {
			return false
		}
		require.Contains(t, out.Messages[0].Subject, "download")
		link = regexp.MustCompile(`/api/exports/\S+`).FindString(out.Messages[0].Body)
		return link != ""
	}, 30*time.Second, 200*time.Millisecond)

	res = admin.Do(http.MethodGet, link, nil, "")
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	require.Contains(t, res.Header.Get("Content-Type"), "text/csv")
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(res.Body), "\ufeff"))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, flow.Header, recs[0])
	require.Len(t, recs, 3, "two recent leads of this organisation: no old one, none of another organisation")
	require.Equal(t, []string{"ana@example.test", "Ana", "Pérez", "Campaña A"}, recs[1][:4])
	require.Equal(t, []string{"'=cmd@example.test", "'+Luis", "O'Neil, \"Jr\"", "Campaña A"}, recs[2][:4])
	require.NotContains(t, string(res.Body), "ajeno@example.test")

	u, err := url.Parse(link)
	require.NoError(t, err)
	token := strings.TrimPrefix(u.Path, "/api/exports/")
	past := time.Now().Add(-time.Minute).Unix()
	expired := "/api/exports/" + token + "?expires=" + strconv.FormatInt(past, 10) + "&sig=" + flow.Sign(s.Config.Secret, token, past)
	res = admin.Do(http.MethodGet, expired, nil, "", "Accept-Language", "en")
	require.Equal(t, http.StatusGone, res.Status)
	require.Equal(t, "export.link_expired", res.ErrorCode())
	require.Contains(t, res.ErrorMessage(), "expired")

	q := u.Query()
	q.Set("sig", strings.Repeat("A", len(q.Get("sig"))))
	res = admin.Do(http.MethodGet, "/api/exports/"+token+"?"+q.Encode(), nil, "")
	require.Equal(t, http.StatusForbidden, res.Status)
	q = u.Query()
	q.Set("expires", strconv.FormatInt(time.Now().Add(48*time.Hour).Unix(), 10))
	res = admin.Do(http.MethodGet, "/api/exports/"+token+"?"+q.Encode(), nil, "")
	require.Equal(t, http.StatusForbidden, res.Status, "a moved expiry breaks the signature")

	// The cleanup deletes leads outside the window.
	a, err := flow.NewActivities(context.Background(), s.Config, s.Tenants)
	require.NoError(t, err)
	n, err := a.DeleteOldLeads(context.Background(), time.Now().Add(-flow.LeadsWindow))
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, int64(1))
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	var left int
	require.NoError(t, scope.QueryRow(context.Background(), `SELECT count(*) FROM leads WHERE organization_id = $1`, admin.OrgID).Scan(&left))
	require.Equal(t, 2, left)
}
