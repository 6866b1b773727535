package user_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/identity"
)

// Issue #11 item 1, the account pre-hijack: someone makes an identity for another person's address
// with their own password, waits for an organisation to invite that address, and reads its data.
func TestInvitePreHijackGetsNoMembership(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	ctx := context.Background()
	admin := s.NewOrgAdmin(t, "AR")
	victim := fmt.Sprintf("victim-%s@test.aporta.test", uuid.NewString()[:8])
	attackerPassword := "Attacker-Pass-2026!"

	// Kratos's own registration is closed: signup is only Aporta's two-step flow.
	visitor := s.Visitor(t)
	for _, path := range []string{"/self-service/registration/api", "/self-service/registration/browser"} {
		r := visitor.Do(http.MethodGet, "/.ory/kratos/public"+path, nil, "", "Accept", "application/json")
		if r.Status < 400 || r.Status >= 500 {
			t.Fatalf("GET %s: %d %s, want a refusal", path, r.Status, r.Body)
		}
	}

	// The identity is made another way (Aporta's signup makes one too), unverified.
	attackerID, err := s.Kratos.CreateUser(ctx, identity.NewUser{Email: victim, FirstName: "Mallory", LastName: "Attacker", Password: attackerPassword})
	if err != nil {
		t.Fatal(err)
	}
	attacker := s.Login(t, victim, attackerPassword)

	// The administrator invites the address: nothing is attached, nothing about the identity shows.
	inv := one(t, admin.JSON(http.MethodPost, "/manage/api/users", map[string]any{"email": victim, "first_name": "Victoria", "last_name": "Víctima", "role": "administrator"}), http.StatusCreated)
	if inv.Status != "pending" || inv.UUID == attackerID.String() || inv.FullName != "Victoria Víctima" {
		t.Fatalf("the invitation shows the identity: %+v", inv)
	}
	checkKeto(t, s, admin.OrgID.String(), "view", attackerID, false)
	if ms, _ := s.Tenants.MembershipsOf(ctx, attackerID); len(ms) != 0 {
		t.Fatalf("memberships before acceptance: %+v", ms)
	}
	token := invitationToken(t, admin, victim)

	// The attacker's session reaches nothing, even holding the token: the e-mail is not verified.
	for _, r := range []apitest.Response{
		attacker.JSON(http.MethodGet, "/manage/api/donations", nil, "X-Organization-Id", admin.OrgID.String()),
		attacker.JSON(http.MethodGet, "/manage/api/users", nil),
		attacker.JSON(http.MethodPost, "/account/api/invitations/accept", map[string]any{"token": token}),
	} {
		wantError(t, r, http.StatusForbidden, "account.email_not_verified")
	}
	checkKeto(t, s, admin.OrgID.String(), "view", attackerID, false)

	// The owner of the address accepts with the e-mailed link: the identity becomes theirs, the
	// attacker's password and session stop working.
	owner := s.Visitor(t)
	if r := acceptAsNew(owner, token, "Owner-Pass-2026!"); r.Status != http.StatusOK {
		t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	if r := owner.JSON(http.MethodGet, "/manage/api/users", nil); r.Status != http.StatusOK {
		t.Fatalf("owner: %d %s", r.Status, r.Body)
	}
	wantError(t, attacker.JSON(http.MethodGet, "/manage/api/users", nil), http.StatusUnauthorized, "unauthorized")
	ok, err := identity.NewFlows(s.Config.KratosPublic, &http.Client{Timeout: 30 * time.Second}).CheckPassword(ctx, s.Kratos, victim, attackerPassword)
	if err != nil || ok {
		t.Fatalf("the attacker's password still works: %v %v", ok, err)
	}
}

// A signed-in user whose e-mail is not verified reaches the verification step and nothing else.
func TestUnverifiedSessionGetsForbiddenOnManageAPI(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	ctx := context.Background()
	email := fmt.Sprintf("unverified-%s@test.aporta.test", uuid.NewString()[:8])
	id, err := s.Kratos.CreateUser(ctx, identity.NewUser{Email: email, FirstName: "Ulises", LastName: "Unverified", Password: apitest.Password})
	if err != nil {
		t.Fatal(err)
	}
	c := s.Login(t, email, apitest.Password)
	c.UserID = id
	s.AddMember(t, c, s.NewOrganization(t, "PE"), "administrator")
	if err := s.Keto.Grant(ctx, identity.NamespaceStaff, identity.StaffObject, identity.RelationMembers, id.String()); err != nil {
		t.Fatal(err)
	}

	if r := c.JSON(http.MethodGet, "/manage/api/user", nil); r.Status != http.StatusOK {
		t.Fatalf("current user: %d %s", r.Status, r.Body)
	}
	if r := c.JSON(http.MethodPost, "/manage/api/accounts/verifications/email/send_code", nil); r.Status != http.StatusOK {
		t.Fatalf("send code: %d %s", r.Status, r.Body)
	}
	for _, r := range []apitest.Response{
		c.JSON(http.MethodGet, "/manage/api/users", nil, "Accept-Language", "pt"),
		c.JSON(http.MethodGet, "/manage/api/donations", nil),
		c.JSON(http.MethodGet, "/manage/api/organization", nil),
		c.JSON(http.MethodPatch, "/manage/api/user", map[string]any{"user": map[string]any{"first_name": "Ulrico"}}),
		c.JSON(http.MethodGet, "/staff/api/organizations", nil),
	} {
		wantError(t, r, http.StatusForbidden, "account.email_not_verified")
	}
}

// An invitation link works until it expires, and an expired one changes nothing.
func TestInvitationTokenExpired(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "MX")
	email := fmt.Sprintf("late-%s@test.aporta.test", uuid.NewString()[:8])
	one(t, admin.JSON(http.MethodPost, "/manage/api/users", map[string]any{"email": email, "first_name": "Lorena", "last_name": "Tardía", "role": "operator"}), http.StatusCreated)
	token := invitationToken(t, admin, email)
	if _, err := s.Tenants.Directory().Exec(context.Background(),
		"UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE organization_id = $1 AND email = $2", admin.OrgID, email); err != nil {
		t.Fatal(err)
	}
	visitor := s.Visitor(t)
	if status, _ := showInvitation(t, visitor, token); status != http.StatusGone {
		t.Fatalf("show expired: %d", status)
	}
	wantError(t, acceptAsNew(visitor, token, "Invited-Pass-2026!"), http.StatusGone, "invitation.expired")
	wantError(t, acceptAsNew(visitor, "not-a-token", "Invited-Pass-2026!"), http.StatusNotFound, "invitation.not_found")
	if _, found, _ := s.Kratos.FindByEmail(context.Background(), email); found {
		t.Fatal("an expired invitation made an identity")
	}
}

// Identities made by the earlier invite flow have no password and an unverified e-mail: a new
// invitation's link still gives that person their account.
func TestInvitationToPasswordlessLegacyIdentity(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	ctx := context.Background()
	admin := s.NewOrgAdmin(t, "AR")
	email := fmt.Sprintf("legacy-%s@test.aporta.test", uuid.NewString()[:8])
	legacyID, err := s.Kratos.CreateWithMetadata(ctx, identity.NewUser{Email: email, FirstName: "Lena", LastName: "Legacy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	one(t, admin.JSON(http.MethodPost, "/manage/api/users", map[string]any{"email": email, "first_name": "Lena", "last_name": "Legacy", "role": "operator"}), http.StatusCreated)
	owner := s.Visitor(t)
	if r := acceptAsNew(owner, invitationToken(t, admin, email), "Legacy-Pass-2026!"); r.Status != http.StatusOK {
		t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	checkKeto(t, s, admin.OrgID.String(), "view", legacyID, true)
}
