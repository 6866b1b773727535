package user_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/identity"
)

type userJSON struct {
	UUID        string     `json:"uuid"`
	Email       string     `json:"email"`
	FullName    string     `json:"full_name"`
	Role        string     `json:"role"`
	Status      string     `json:"status"`
	LastLoginAt *time.Time `json:"last_login_at"`
	DiscardedAt *time.Time `json:"discarded_at"`
	Self        bool       `json:"self"`
}

func one(t *testing.T, r apitest.Response, want int) userJSON {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
	var out struct {
		User userJSON `json:"user"`
	}
	r.Decode(t, &out)
	return out.User
}

func list(t *testing.T, c *apitest.Client, query string) map[string]userJSON {
	t.Helper()
	r := c.JSON(http.MethodGet, "/manage/api/users"+query, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	var out struct {
		Users []userJSON `json:"users"`
	}
	r.Decode(t, &out)
	m := map[string]userJSON{}
	for _, u := range out.Users {
		m[u.UUID] = u
	}
	return m
}

func wantError(t *testing.T, r apitest.Response, status int, code string) {
	t.Helper()
	if r.Status != status || (code != "" && r.ErrorCode() != code) {
		t.Fatalf("got %d %s, want %d %s", r.Status, r.Body, status, code)
	}
	if r.ErrorMessage() == "" || strings.HasPrefix(r.ErrorMessage(), "[missing") {
		t.Fatalf("no message for %s: %s", code, r.Body)
	}
}

// browser is a bare cookie-carrying client of Kratos's public API through the API's proxy.
type browser struct {
	t       *testing.T
	base    string
	cookies map[string]string
}

func (b *browser) do(method, path string, body any) (int, map[string]any) {
	b.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, b.base+path, rd)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	var parts []string
	for k, v := range b.cookies {
		parts = append(parts, k+"="+v)
	}
	req.Header.Set("Cookie", strings.Join(parts, "; "))
	hc := &http.Client{Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := hc.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	for _, ck := range res.Cookies() {
		if ck.MaxAge < 0 || ck.Value == "" {
			delete(b.cookies, ck.Name)
		} else {
			b.cookies[ck.Name] = ck.Value
		}
	}
	var out map[string]any
	raw, _ := io.ReadAll(res.Body)
	_ = json.Unmarshal(raw, &out)
	return res.StatusCode, out
}

func csrfOf(flow map[string]any) string {
	ui, _ := flow["ui"].(map[string]any)
	nodes, _ := ui["nodes"].([]any)
	for _, n := range nodes {
		attrs, _ := n.(map[string]any)["attributes"].(map[string]any)
		if attrs["name"] == "csrf_token" {
			s, _ := attrs["value"].(string)
			return s
		}
	}
	return ""
}

// acceptInvitation does what the invited person does: opens the e-mailed recovery flow, enters the
// code (Kratos signs them in) and sets a password in a settings flow.
func acceptInvitation(t *testing.T, s *apitest.Stack, recoveryLink, code, password string) {
	t.Helper()
	u, err := url.Parse(recoveryLink)
	if err != nil || u.Query().Get("flow") == "" {
		t.Fatalf("recovery link %q has no flow", recoveryLink)
	}
	b := &browser{t: t, base: s.Server.URL + "/.ory/kratos/public", cookies: map[string]string{}}
	status, res := b.do(http.MethodPost, "/self-service/recovery?flow="+u.Query().Get("flow"), map[string]any{"method": "code", "code": code})
	if b.cookies[identity.SessionCookie] == "" {
		t.Fatalf("recovery code did not sign in: %d %v", status, res)
	}
	status, flow := b.do(http.MethodGet, "/self-service/settings/browser", nil)
	if status != http.StatusOK {
		t.Fatalf("settings flow: %d %v", status, flow)
	}
	status, res = b.do(http.MethodPost, "/self-service/settings?flow="+fmt.Sprint(flow["id"]), map[string]any{
		"method": "password", "password": password, "csrf_token": csrfOf(flow),
	})
	if status != http.StatusOK {
		t.Fatalf("set password: %d %v", status, res)
	}
}

func TestInviteDiscardReactivate(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	ctx := context.Background()
	admin := s.NewOrgAdmin(t, "AR")
	org := admin.OrgID.String()

	// Validation, in the caller's language.
	r := admin.JSON(http.MethodPost, "/manage/api/users", map[string]any{"email": "nope", "first_name": "Al", "last_name": "", "role": "boss"}, "Accept-Language", "pt")
	wantError(t, r, http.StatusUnprocessableEntity, "validation_failed")
	for _, f := range []string{"email", "first_name", "last_name", "role"} {
		if !strings.Contains(string(r.Body), `"`+f+`"`) {
			t.Errorf("no field error for %s: %s", f, r.Body)
		}
	}

	// Invite an operator.
	email := fmt.Sprintf("op-%s@test.aporta.test", uuid.NewString()[:8])
	invite := map[string]any{"email": strings.ToUpper(email), "first_name": "Olga", "last_name": "Operadora", "role": "operator"}
	op := one(t, admin.JSON(http.MethodPost, "/manage/api/users", invite), http.StatusCreated)
	if op.Email != email || op.Role != "operator" || op.Status != "active" || op.FullName != "Olga Operadora" || op.LastLoginAt != nil {
		t.Fatalf("invited user: %+v", op)
	}
	opID := uuid.MustParse(op.UUID)

	// Inviting again is a conflict with a clear message.
	r = admin.JSON(http.MethodPost, "/manage/api/users", invite, "Accept-Language", "en")
	wantError(t, r, http.StatusConflict, "user_already_member")
	if !strings.Contains(r.ErrorMessage(), "already") {
		t.Errorf("message: %s", r.ErrorMessage())
	}

	// The invitation is in the outbox with a recovery code that works.
	r = admin.JSON(http.MethodGet, "/dev/api/outbox?to="+url.QueryEscape(email), nil)
	var box struct {
		Messages []struct {
			Subject      string          `json:"subject"`
			Body         string          `json:"body"`
			TemplateType string          `json:"template_type"`
			TemplateData json.RawMessage `json:"template_data"`
			Code         string          `json:"code"`
		} `json:"messages"`
	}
	r.Decode(t, &box)
	if len(box.Messages) != 1 || box.Messages[0].TemplateType != "user_invitation" || box.Messages[0].Code == "" {
		t.Fatalf("outbox: %s", r.Body)
	}
	var data struct {
		RecoveryLink string `json:"recovery_link"`
		PageURL      string `json:"recovery_page_url"`
	}
	_ = json.Unmarshal(box.Messages[0].TemplateData, &data)
	if !strings.Contains(box.Messages[0].Body, box.Messages[0].Code) || !strings.Contains(box.Messages[0].Body, data.PageURL) {
		t.Fatalf("e-mail body lacks code or link: %s", box.Messages[0].Body)
	}
	password := "Invited-Pass-2026!"
	acceptInvitation(t, s, data.RecoveryLink, box.Messages[0].Code, password)

	// The operator signs in with the new password: may view, may not manage users.
	opc := s.Login(t, email, password)
	if got := list(t, opc, "")[op.UUID]; !got.Self || got.Role != "operator" {
		t.Fatalf("operator sees self as %+v", got)
	}
	wantError(t, opc.JSON(http.MethodPost, "/manage/api/users", map[string]any{"email": "x-" + email, "first_name": "Xavier", "last_name": "Xamp", "role": "operator"}), http.StatusForbidden, "forbidden")
	wantError(t, opc.JSON(http.MethodDelete, "/manage/api/users/"+admin.UserID.String(), nil), http.StatusForbidden, "forbidden")
	wantError(t, opc.JSON(http.MethodPatch, "/manage/api/users/"+op.UUID, map[string]any{"role": "administrator"}), http.StatusForbidden, "forbidden")

	// The admin's list shows both, with the operator's last login.
	users := list(t, admin, "")
	if users[op.UUID].LastLoginAt == nil || users[admin.UserID.String()].Role != "administrator" || !users[admin.UserID.String()].Self {
		t.Fatalf("list: %+v", users)
	}

	// Role change moves the Keto relation.
	if u := one(t, admin.JSON(http.MethodPatch, "/manage/api/users/"+op.UUID, map[string]any{"role": "supervisor"}), http.StatusOK); u.Role != "supervisor" {
		t.Fatalf("patched: %+v", u)
	}
	checkKeto(t, s, org, "export_data", opID, true)
	checkKeto(t, s, org, "edit_campaigns", opID, false)
	one(t, admin.JSON(http.MethodPatch, "/manage/api/users/"+op.UUID, map[string]any{"role": "operator"}), http.StatusOK)
	checkKeto(t, s, org, "edit_campaigns", opID, true)
	wantError(t, admin.JSON(http.MethodPatch, "/manage/api/users/"+op.UUID, map[string]any{"role": "owner"}), http.StatusUnprocessableEntity, "validation_failed")

	// Another organisation's administrator cannot see or touch them.
	other := s.NewOrgAdmin(t, "CL")
	if _, ok := list(t, other, "")[op.UUID]; ok {
		t.Fatal("other organisation lists the operator")
	}
	for _, call := range []struct{ method, path string }{
		{http.MethodPatch, "/manage/api/users/" + op.UUID},
		{http.MethodDelete, "/manage/api/users/" + op.UUID},
		{http.MethodPost, "/manage/api/users/" + op.UUID + "/reactivate"},
		{http.MethodPost, "/manage/api/users/" + op.UUID + "/invitation"},
		{http.MethodDelete, "/manage/api/users/" + admin.UserID.String()},
	} {
		var body any
		if call.method == http.MethodPatch {
			body = map[string]any{"role": "administrator"}
		}
		wantError(t, other.JSON(call.method, call.path, body), http.StatusNotFound, "not_found")
	}

	// Discard: the session ends and Keto denies.
	if u := one(t, admin.JSON(http.MethodDelete, "/manage/api/users/"+op.UUID, nil), http.StatusOK); u.Status != "discarded" || u.DiscardedAt == nil {
		t.Fatalf("discarded: %+v", u)
	}
	wantError(t, opc.JSON(http.MethodGet, "/manage/api/users", nil), http.StatusUnauthorized, "unauthorized")
	checkKeto(t, s, org, "view", opID, false)
	if u, ok := list(t, admin, "?status=discarded")[op.UUID]; !ok || u.Status != "discarded" {
		t.Fatalf("discarded list: %+v", u)
	}
	if _, ok := list(t, admin, "?status=active")[op.UUID]; ok {
		t.Fatal("discarded user in the active list")
	}
	wantError(t, admin.JSON(http.MethodPost, "/manage/api/users", invite), http.StatusConflict, "user_discarded_reactivate")
	wantError(t, admin.JSON(http.MethodPatch, "/manage/api/users/"+op.UUID, map[string]any{"role": "supervisor"}), http.StatusConflict, "user_discarded")
	if ms, _ := s.Tenants.MembershipsOf(ctx, opID); len(ms) != 0 {
		t.Fatalf("discarded user still has memberships: %+v", ms)
	}

	// Reactivate restores the role.
	if u := one(t, admin.JSON(http.MethodPost, "/manage/api/users/"+op.UUID+"/reactivate", nil), http.StatusOK); u.Status != "active" || u.DiscardedAt != nil || u.Role != "operator" {
		t.Fatalf("reactivated: %+v", u)
	}
	checkKeto(t, s, org, "view", opID, true)
	opc = s.Login(t, email, password)
	if _, ok := list(t, opc, "")[op.UUID]; !ok {
		t.Fatal("reactivated operator cannot list")
	}

	// The last administrator can neither leave nor be demoted; an administrator cannot discard themself.
	wantError(t, admin.JSON(http.MethodDelete, "/manage/api/users/"+admin.UserID.String(), nil, "Accept-Language", "es"), http.StatusConflict, "user_last_administrator")
	wantError(t, admin.JSON(http.MethodPatch, "/manage/api/users/"+admin.UserID.String(), map[string]any{"role": "operator"}), http.StatusConflict, "user_last_administrator")
	one(t, admin.JSON(http.MethodPatch, "/manage/api/users/"+op.UUID, map[string]any{"role": "administrator"}), http.StatusOK)
	wantError(t, admin.JSON(http.MethodDelete, "/manage/api/users/"+admin.UserID.String(), nil), http.StatusConflict, "user_cannot_discard_self")
	checkKeto(t, s, org, "manage_users", admin.UserID, true)
}

func TestInviteExistingIdentity(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	a := s.NewOrgAdmin(t, "AR")
	b := s.NewOrgAdmin(t, "UY")
	// b's administrator (who has a password) is invited to a's organisation as a supervisor.
	u := one(t, a.JSON(http.MethodPost, "/manage/api/users", map[string]any{"email": b.Email, "first_name": "Bruno", "last_name": "Bermúdez", "role": "supervisor"}), http.StatusCreated)
	if u.UUID != b.UserID.String() || u.Role != "supervisor" {
		t.Fatalf("linked user: %+v", u)
	}
	checkKeto(t, s, a.OrgID.String(), "export_data", b.UserID, true)
	checkKeto(t, s, a.OrgID.String(), "manage_users", b.UserID, false)
	// Still administrator of their own organisation.
	checkKeto(t, s, b.OrgID.String(), "manage_users", b.UserID, true)
	// Resending the invitation puts a second e-mail in the outbox.
	one(t, a.JSON(http.MethodPost, "/manage/api/users/"+u.UUID+"/invitation", nil), http.StatusOK)
	r := a.JSON(http.MethodGet, "/dev/api/outbox?to="+url.QueryEscape(b.Email), nil)
	var box struct {
		Messages []struct {
			TemplateType string `json:"template_type"`
		} `json:"messages"`
	}
	r.Decode(t, &box)
	n := 0
	for _, m := range box.Messages {
		if m.TemplateType == "user_invitation" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("invitations in outbox: %d: %s", n, r.Body)
	}
}

func checkKeto(t *testing.T, s *apitest.Stack, org, permit string, userID uuid.UUID, want bool) {
	t.Helper()
	ok, err := s.Keto.Check(context.Background(), identity.NamespaceOrganization, org, permit, userID.String())
	if err != nil {
		t.Fatalf("keto: %v", err)
	}
	if ok != want {
		t.Fatalf("keto %s#%s for %s = %v, want %v", org, permit, userID, ok, want)
	}
}
