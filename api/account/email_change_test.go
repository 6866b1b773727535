package account_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/account"
	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/outbox"
)

func newAddress(label string) string {
	return fmt.Sprintf("%s-%s@test.aporta.test", label, uuid.NewString()[:8])
}

// mails is what the outbox holds for an address, newest first.
func mails(t *testing.T, s *apitest.Stack, to string) []outbox.Message {
	t.Helper()
	ms, err := outbox.New(s.Tenants.Directory(), s.Config).List(context.Background(), to, 50)
	require.NoError(t, err)
	return ms
}

func templates(ms []outbox.Message) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.TemplateType)
	}
	return out
}

func currentUser(t *testing.T, c *apitest.Client) account.CurrentUser {
	t.Helper()
	return apitest.OK[account.CurrentUser](t, c, http.MethodGet, "/manage/api/user", nil)
}

// Someone at a session signed in long ago (a shared computer) cannot move the account's e-mail.
func TestEmailChangeWithoutRecentLoginIsRefused(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	s.AgeSession(t, admin, 20*time.Minute)
	target := newAddress("attacker")

	res := admin.JSON(http.MethodPut, "/manage/api/user", map[string]any{"user": map[string]any{"email": target}})
	require.Equal(t, http.StatusForbidden, res.Status, string(res.Body))
	require.Equal(t, "session.reauth_required", res.ErrorCode())
	require.NotEmpty(t, res.ErrorMessage())
	u := currentUser(t, admin)
	require.Equal(t, admin.Email, u.Email)
	require.Nil(t, u.PendingEmail)
	require.Empty(t, mails(t, s, target), "no code goes to the new address")

	// Signing in again (the password re-entered) allows it.
	fresh := s.Login(t, admin.Email, apitest.Password)
	res = fresh.JSON(http.MethodPut, "/manage/api/user", map[string]any{"user": map[string]any{"email": target}})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
}

// The login e-mail stays the old one until the code sent to the new address comes back; the old
// address hears of the request and of the change.
func TestEmailChangeSwitchesLoginOnlyAfterVerification(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	ctx := context.Background()
	admin := s.NewOrgAdmin(t, "AR")
	old, next := admin.Email, newAddress("new")

	u := apitest.OK[account.CurrentUser](t, admin, http.MethodPut, "/manage/api/user", map[string]any{"user": map[string]any{"email": next}})
	require.Equal(t, old, u.Email)
	require.NotNil(t, u.PendingEmail)
	require.Equal(t, next, *u.PendingEmail)

	// Still the old login: the new address is no identifier yet.
	_, found, err := s.Kratos.FindByEmail(ctx, next)
	require.NoError(t, err)
	require.False(t, found, "the new address became the login before it was verified")
	id, found, err := s.Kratos.FindByEmail(ctx, old)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, admin.UserID, id)
	require.Equal(t, []string{account.TemplateEmailChangeRequested}, templates(mails(t, s, old)))
	sent := mails(t, s, next)
	require.Len(t, sent, 1)
	require.Equal(t, account.TemplateEmailChangeCode, sent[0].TemplateType)
	code := sent[0].Code
	require.Len(t, code, 6)

	// A wrong code changes nothing.
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	res := admin.JSON(http.MethodPost, "/manage/api/accounts/verifications/email/verify", map[string]string{"code": wrong})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	require.Equal(t, old, currentUser(t, admin).Email)

	res = admin.JSON(http.MethodPost, "/manage/api/accounts/verifications/email/verify", map[string]string{"code": code})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	u = currentUser(t, admin)
	require.Equal(t, next, u.Email)
	require.Nil(t, u.PendingEmail)
	require.True(t, u.Verifications.EmailVerified)
	id, found, err = s.Kratos.FindByEmail(ctx, next)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, admin.UserID, id)
	_, found, err = s.Kratos.FindByEmail(ctx, old)
	require.NoError(t, err)
	require.False(t, found)
	require.Equal(t, []string{account.TemplateEmailChanged, account.TemplateEmailChangeRequested}, templates(mails(t, s, old)))
	s.Login(t, next, apitest.Password) // the new address signs in
}

// Changing the password signs out every other session (whoever else knew the old one), not this one.
func TestPasswordChangeRevokesOtherSessions(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	other := s.Login(t, admin.Email, apitest.Password)
	require.Equal(t, http.StatusOK, other.JSON(http.MethodGet, "/manage/api/user", nil).Status)

	res := admin.JSON(http.MethodPut, "/manage/api/user/password", map[string]string{
		"current_password": apitest.Password, "password": "Otra-Clave-Segura-2026",
	})
	require.Equal(t, http.StatusNoContent, res.Status, string(res.Body))
	require.Equal(t, http.StatusUnauthorized, other.JSON(http.MethodGet, "/manage/api/user", nil).Status)
	require.Equal(t, http.StatusOK, admin.JSON(http.MethodGet, "/manage/api/user", nil).Status)
}
