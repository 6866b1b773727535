package staff_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/document"
	"github.com/aporta/aporta/api/staff"
	"github.com/aporta/aporta/workflows/onboarding"
)

func upload(t *testing.T, c *apitest.Client, docType string) {
	t.Helper()
	res := c.Multipart(http.MethodPost, "/manage/api/accounts/documents", "file", docType+".pdf", bytes.NewReader(apitest.PDF),
		map[string]string{"document_type": docType})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
}

func review(t *testing.T, c *apitest.Client, docType string) staff.Detail {
	t.Helper()
	return apitest.OK[staff.Detail](t, c, http.MethodPost, "/manage/api/accounts/documents/review", map[string]string{"document_type": docType})
}

func TestNonStaffGetForbidden(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	user := s.NewUser(t, "nobody")
	for _, c := range []*apitest.Client{admin, user} {
		res := c.JSON(http.MethodGet, "/staff/api/organizations", nil)
		require.Equal(t, http.StatusForbidden, res.Status, string(res.Body))
		res = c.JSON(http.MethodGet, "/staff/api/organizations/"+admin.OrgID.String(), nil)
		require.Equal(t, http.StatusForbidden, res.Status)
		res = c.JSON(http.MethodPost, "/staff/api/organizations/"+admin.OrgID.String()+"/enable", nil)
		require.Equal(t, http.StatusForbidden, res.Status)
		res = c.JSON(http.MethodPost, "/staff/api/organizations/"+admin.OrgID.String()+"/documents/bylaws/approve", nil)
		require.Equal(t, http.StatusForbidden, res.Status)
	}
	r, err := s.Server.Client().Get(s.Server.URL + "/staff/api/organizations")
	require.NoError(t, err)
	r.Body.Close()
	require.Equal(t, http.StatusUnauthorized, r.StatusCode)
}

func TestReviewRejectApproveAndEnable(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	ctx := context.Background()
	admin := s.NewOrgAdmin(t, "AR")
	st := s.NewStaff(t)
	org := admin.OrgID.String()
	types := []string{"bylaws", "cuit_certificate", "authorities_designation", "representative_id"}

	for _, ty := range types {
		upload(t, admin, ty)
	}
	var d staff.Detail
	for _, ty := range types {
		d = review(t, admin, ty)
	}
	require.Equal(t, document.AccountVerifying, d.Account.State)
	require.NotNil(t, d.Account.HoursLeft)
	require.InDelta(t, 48, *d.Account.HoursLeft, 1)

	// The staff queue lists it, oldest first, with the clock.
	res := st.JSON(http.MethodGet, "/staff/api/organizations", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var list struct {
		Organizations []staff.Waiting `json:"organizations"`
	}
	res.Decode(t, &list)
	var found *staff.Waiting
	for i, w := range list.Organizations {
		if i > 0 {
			require.False(t, w.RequestedAt.Before(list.Organizations[i-1].RequestedAt), "oldest first")
		}
		if w.ID == admin.OrgID {
			found = &list.Organizations[i]
		}
	}
	require.NotNil(t, found)
	require.Equal(t, "AR", found.Country)
	require.InDelta(t, 48, found.HoursLeft, 1)

	// The staff detail links every file through the staff route.
	res = st.JSON(http.MethodGet, "/staff/api/organizations/"+org, nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &d)
	a := d.Documents["bylaws"].Attachments[0]
	file := st.Do(http.MethodGet, a.URL, nil, "")
	require.Equal(t, http.StatusOK, file.Status)
	require.Equal(t, apitest.PDF, file.Body)

	// Enabling before every document is approved is refused.
	res = st.JSON(http.MethodPost, "/staff/api/organizations/"+org+"/enable", nil)
	require.Equal(t, http.StatusConflict, res.Status)

	// Reject one with a reason: the organisation sees it and can upload again.
	res = st.JSON(http.MethodPost, "/staff/api/organizations/"+org+"/documents/bylaws/reject", map[string]string{"reason": ""})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	res = st.JSON(http.MethodPost, "/staff/api/organizations/"+org+"/documents/bylaws/reject", map[string]string{"reason": "El estatuto no está firmado."})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res = admin.JSON(http.MethodGet, "/manage/api/organization", nil)
	res.Decode(t, &d)
	bylaws := d.Documents["bylaws"]
	require.Equal(t, document.StatusRejected, bylaws.Status)
	require.Equal(t, "El estatuto no está firmado.", bylaws.RejectedReason.Label)
	require.Equal(t, "rejected", bylaws.Banner)
	require.True(t, bylaws.Actions.UploadAgain)
	require.Equal(t, document.AccountDocumentsWithErrors, d.Account.State)

	upload(t, admin, "bylaws")
	d = review(t, admin, "bylaws")
	require.Equal(t, document.AccountVerifying, d.Account.State)

	for _, ty := range types {
		res = st.JSON(http.MethodPost, "/staff/api/organizations/"+org+"/documents/"+ty+"/approve", nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	}
	res = st.JSON(http.MethodPost, "/staff/api/organizations/"+org+"/enable", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &d)

	// Every action is in the audit log, newest first, with who and why.
	actions := map[string]int{}
	for _, e := range d.AuditLog {
		actions[e.Action]++
		require.Equal(t, st.Email, e.StaffEmail)
		if e.Action == staff.ActionReject {
			require.Equal(t, "El estatuto no está firmado.", *e.Reason)
			require.Equal(t, "bylaws", *e.DocumentType)
		}
	}
	require.Equal(t, map[string]int{staff.ActionApprove: 4, staff.ActionReject: 1, staff.ActionEnable: 1, staff.ActionView: 1}, actions)
	require.Equal(t, staff.ActionEnable, d.AuditLog[0].Action)

	// The onboarding workflow enables the account in the shard and the directory.
	scope, err := s.Tenants.ForOrganization(ctx, admin.OrgID)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		var shard, dir string
		_ = scope.QueryRow(ctx, "SELECT status FROM organizations WHERE organization_id = $1", admin.OrgID).Scan(&shard)
		_ = s.Tenants.Directory().QueryRow(ctx, "SELECT status FROM organizations WHERE id = $1", admin.OrgID).Scan(&dir)
		return shard == "enabled" && dir == "enabled"
	}, 30*time.Second, 200*time.Millisecond)
	res = admin.JSON(http.MethodGet, "/manage/api/organization", nil)
	res.Decode(t, &d)
	require.Equal(t, document.AccountEnabled, d.Account.State)

	// The organisation was e-mailed about each decision and the enablement.
	require.Eventually(t, func() bool {
		kinds := map[string]int{}
		rows, err := s.Tenants.Directory().Query(ctx, "SELECT template_type FROM outbox_messages WHERE recipient = $1", admin.Email)
		if err != nil {
			return false
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			_ = rows.Scan(&k)
			kinds[k]++
		}
		return kinds[onboarding.EmailDocumentApproved] == 4 && kinds[onboarding.EmailDocumentRejected] == 1 && kinds[onboarding.EmailAccountEnabled] == 1
	}, 30*time.Second, 200*time.Millisecond)

	// It left the queue.
	res = st.JSON(http.MethodGet, "/staff/api/organizations", nil)
	require.NotContains(t, string(res.Body), org)
	// Unknown organisation: 404.
	require.Equal(t, http.StatusNotFound, st.JSON(http.MethodGet, "/staff/api/organizations/"+uuid.NewString(), nil).Status)
}
