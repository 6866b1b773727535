package user_test

import (
	"context"
	"encoding/json"
	"fmt"
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

// invitationToken is the token of the newest invitation e-mailed to the address, read from the
// dev outbox, and checks the e-mail's body carries the accept page's link with it.
func invitationToken(t *testing.T, c *apitest.Client, email string) string {
	t.Helper()
	r := c.JSON(http.MethodGet, "/dev/api/outbox?to="+url.QueryEscape(email), nil)
	var box struct {
		Messages []struct {
			Body         string          `json:"body"`
			TemplateType string          `json:"template_type"`
			TemplateData json.RawMessage `json:"template_data"`
			Code         string          `json:"code"`
		} `json:"messages"`
	}
	r.Decode(t, &box)
	for _, m := range box.Messages { // newest first
		if m.TemplateType != "user_invitation" {
			continue
		}
		var data struct {
			URL string `json:"invitation_url"`
		}
		_ = json.Unmarshal(m.TemplateData, &data)
		u, err := url.Parse(data.URL)
		if err != nil || u.Path != "/account/invitation" || u.Query().Get("token") != m.Code || m.Code == "" || !strings.Contains(m.Body, data.URL) {
			t.Fatalf("invitation e-mail without its link: %s", r.Body)
		}
		return m.Code
	}
	t.Fatalf("no invitation e-mail for %s: %s", email, r.Body)
	return ""
}

// acceptAsNew is the accept page of a person without an account: name, password, and the token.
func acceptAsNew(visitor *apitest.Client, token, password string) apitest.Response {
	return visitor.JSON(http.MethodPost, "/internal/api/invitations/accept", map[string]any{
		"token": token, "first_name": "Olga", "last_name": "Operadora", "password": password,
	})
}

func showInvitation(t *testing.T, c *apitest.Client, token string) (int, map[string]any) {
	t.Helper()
	r := c.JSON(http.MethodPost, "/internal/api/invitations/show", map[string]any{"token": token})
	var out struct {
		Invitation map[string]any `json:"invitation"`
	}
	_ = json.Unmarshal(r.Body, &out)
	return r.Status, out.Invitation
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

	// Invite an operator: a pending invitation, no membership yet.
	email := fmt.Sprintf("op-%s@test.aporta.test", uuid.NewString()[:8])
	invite := map[string]any{"email": strings.ToUpper(email), "first_name": "Olga", "last_name": "Operadora", "role": "operator"}
	pending := one(t, admin.JSON(http.MethodPost, "/manage/api/users", invite), http.StatusCreated)
	if pending.Email != email || pending.Role != "operator" || pending.Status != "pending" || pending.FullName != "Olga Operadora" || pending.LastLoginAt != nil {
		t.Fatalf("invited user: %+v", pending)
	}
	if got := list(t, admin, "?status=pending")[pending.UUID]; got.Status != "pending" {
		t.Fatalf("pending list: %+v", got)
	}
	if _, ok := list(t, admin, "?status=active")[pending.UUID]; ok {
		t.Fatal("a pending invitation in the active list")
	}

	// Inviting again is a conflict with a clear message.
	r = admin.JSON(http.MethodPost, "/manage/api/users", invite, "Accept-Language", "en")
	wantError(t, r, http.StatusConflict, "user.invitation_pending")
	if !strings.Contains(r.ErrorMessage(), "pending") {
		t.Errorf("message: %s", r.ErrorMessage())
	}

	// The person opens the e-mailed link, chooses a password and is signed in as an operator.
	token := invitationToken(t, admin, email)
	visitor := s.Visitor(t)
	if status, inv := showInvitation(t, visitor, token); status != http.StatusOK || inv["account"] != "new" || inv["email"] != email || inv["role"] != "operator" {
		t.Fatalf("show invitation: %d %v", status, inv)
	}
	wantError(t, acceptAsNew(visitor, token, "short"), http.StatusUnprocessableEntity, "validation_failed")
	password := "Invited-Pass-2026!"
	if r := acceptAsNew(visitor, token, password); r.Status != http.StatusOK {
		t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	self := list(t, visitor, "")
	var op userJSON
	for _, u := range self {
		if u.Self {
			op = u
		}
	}
	if op.Role != "operator" || op.Email != email || op.Status != "active" {
		t.Fatalf("accepted operator sees self as %+v", op)
	}
	if _, ok := self[pending.UUID]; ok {
		t.Fatal("the accepted invitation is still listed")
	}
	opID := uuid.MustParse(op.UUID)
	// The link worked once.
	wantError(t, acceptAsNew(s.Visitor(t), token, password), http.StatusNotFound, "invitation.not_found")

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

	// Discard: Keto denies and the organisation is out of reach (the person's account stays).
	if u := one(t, admin.JSON(http.MethodDelete, "/manage/api/users/"+op.UUID, nil), http.StatusOK); u.Status != "discarded" || u.DiscardedAt == nil {
		t.Fatalf("discarded: %+v", u)
	}
	wantError(t, opc.JSON(http.MethodGet, "/manage/api/users", nil), http.StatusForbidden, "forbidden")
	checkKeto(t, s, org, "view", opID, false)
	if u, ok := list(t, admin, "?status=discarded")[op.UUID]; !ok || u.Status != "discarded" {
		t.Fatalf("discarded list: %+v", u)
	}
	if _, ok := list(t, admin, "?status=active")[op.UUID]; ok {
		t.Fatal("discarded user in the active list")
	}
	wantError(t, admin.JSON(http.MethodPost, "/manage/api/users", invite), http.StatusConflict, "user.discarded_reactivate")
	wantError(t, admin.JSON(http.MethodPatch, "/manage/api/users/"+op.UUID, map[string]any{"role": "supervisor"}), http.StatusConflict, "user.discarded")
	if ms, _ := s.Tenants.MembershipsOf(ctx, opID); len(ms) != 0 {
		t.Fatalf("discarded user still has memberships: %+v", ms)
	}

	// Reactivate restores the role.
	if u := one(t, admin.JSON(http.MethodPost, "/manage/api/users/"+op.UUID+"/reactivate", nil), http.StatusOK); u.Status != "active" || u.DiscardedAt != nil || u.Role != "operator" {
		t.Fatalf("reactivated: %+v", u)
	}
	checkKeto(t, s, org, "view", opID, true)
	if _, ok := list(t, opc, "")[op.UUID]; !ok {
		t.Fatal("reactivated operator cannot list")
	}

	// The last administrator can neither leave nor be demoted; an administrator cannot discard themself.
	wantError(t, admin.JSON(http.MethodDelete, "/manage/api/users/"+admin.UserID.String(), nil, "Accept-Language", "es"), http.StatusConflict, "user.last_administrator")
	wantError(t, admin.JSON(http.MethodPatch, "/manage/api/users/"+admin.UserID.String(), map[string]any{"role": "operator"}), http.StatusConflict, "user.last_administrator")
	one(t, admin.JSON(http.MethodPatch, "/manage/api/users/"+op.UUID, map[string]any{"role": "administrator"}), http.StatusOK)
	wantError(t, admin.JSON(http.MethodDelete, "/manage/api/users/"+admin.UserID.String(), nil), http.StatusConflict, "user.cannot_discard_self")
	checkKeto(t, s, org, "manage_users", admin.UserID, true)
}

// An address with a verified account accepts signed in as it; until then the inviting organisation
// sees only what it typed, and discarding the member later ends only this organisation's access.
func TestInviteExistingAccountAcceptsSignedIn(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	a := s.NewOrgAdmin(t, "AR")
	b := s.NewOrgAdmin(t, "UY")
	u := one(t, a.JSON(http.MethodPost, "/manage/api/users", map[string]any{"email": b.Email, "first_name": "Bruno", "last_name": "Bermúdez", "role": "supervisor"}), http.StatusCreated)
	if u.UUID == b.UserID.String() || u.Status != "pending" || u.FullName != "Bruno Bermúdez" {
		t.Fatalf("the invitation shows the existing identity: %+v", u)
	}
	checkKeto(t, s, a.OrgID.String(), "view", b.UserID, false)
	wantError(t, b.JSON(http.MethodGet, "/manage/api/users", nil, "X-Organization-Id", a.OrgID.String()), http.StatusNotFound, "not_found")

	first := invitationToken(t, a, b.Email)
	if status, inv := showInvitation(t, s.Visitor(t), first); status != http.StatusOK || inv["account"] != "existing" {
		t.Fatalf("show invitation: %d %v", status, inv)
	}
	// The token alone does not get into an account someone verified.
	wantError(t, acceptAsNew(s.Visitor(t), first, "Another-Pass-2026!"), http.StatusConflict, "invitation.sign_in_required")

	// Resending makes a new link; the first one stops working.
	one(t, a.JSON(http.MethodPost, "/manage/api/users/"+u.UUID+"/invitation", nil), http.StatusOK)
	token := invitationToken(t, a, b.Email)
	if token == first {
		t.Fatal("resend kept the token")
	}
	wantError(t, b.JSON(http.MethodPost, "/account/api/invitations/accept", map[string]any{"token": first}), http.StatusNotFound, "invitation.not_found")

	b2 := s.Login(t, b.Email, apitest.Password) // a second session of b, kept across the discard
	r := b.JSON(http.MethodPost, "/account/api/invitations/accept", map[string]any{"token": token})
	if r.Status != http.StatusOK {
		t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	checkKeto(t, s, a.OrgID.String(), "export_data", b.UserID, true)
	checkKeto(t, s, a.OrgID.String(), "manage_users", b.UserID, false)
	checkKeto(t, s, b.OrgID.String(), "manage_users", b.UserID, true)
	if got := list(t, a, "")[b.UserID.String()]; got.Role != "supervisor" || got.Status != "active" {
		t.Fatalf("accepted member: %+v", got)
	}
	wantError(t, b.JSON(http.MethodPost, "/account/api/invitations/accept", map[string]any{"token": token}), http.StatusNotFound, "invitation.not_found")

	// Discarded from a: a is out of reach, b's own organisation and sessions are not touched.
	one(t, a.JSON(http.MethodDelete, "/manage/api/users/"+b.UserID.String(), nil), http.StatusOK)
	checkKeto(t, s, a.OrgID.String(), "view", b.UserID, false)
	checkKeto(t, s, b.OrgID.String(), "manage_users", b.UserID, true)
	for _, c := range []*apitest.Client{b, b2} {
		wantError(t, c.JSON(http.MethodGet, "/manage/api/users", nil, "X-Organization-Id", a.OrgID.String()), http.StatusNotFound, "not_found")
		if _, ok := list(t, c, "")[b.UserID.String()]; !ok {
			t.Fatal("b lost their own organisation")
		}
	}
}

// Cancelling a pending invitation kills its link.
func TestCancelInvitation(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	a := s.NewOrgAdmin(t, "CL")
	email := fmt.Sprintf("cancel-%s@test.aporta.test", uuid.NewString()[:8])
	u := one(t, a.JSON(http.MethodPost, "/manage/api/users", map[string]any{"email": email, "first_name": "Carla", "last_name": "Cancelada", "role": "operator"}), http.StatusCreated)
	token := invitationToken(t, a, email)
	other := s.NewOrgAdmin(t, "CL")
	wantError(t, other.JSON(http.MethodDelete, "/manage/api/users/"+u.UUID, nil), http.StatusNotFound, "not_found")
	if got := one(t, a.JSON(http.MethodDelete, "/manage/api/users/"+u.UUID, nil), http.StatusOK); got.Status != "cancelled" {
		t.Fatalf("cancelled: %+v", got)
	}
	if _, ok := list(t, a, "")[u.UUID]; ok {
		t.Fatal("a cancelled invitation is listed")
	}
	wantError(t, acceptAsNew(s.Visitor(t), token, "Invited-Pass-2026!"), http.StatusNotFound, "invitation.not_found")
	if _, found, _ := s.Kratos.FindByEmail(context.Background(), email); found {
		t.Fatal("a cancelled invitation made an identity")
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
