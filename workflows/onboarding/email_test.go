package onboarding_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/onboarding"
)

func TestRemindStaffOncePerReviewRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	inbox := "staff-inbox-" + uuid.NewString()[:8] + "@test.aporta.test"
	a := &onboarding.Activities{Tenants: tt, Mailer: onboarding.NewMailer(cfg, tt), StaffInbox: inbox}
	org := tenants.Organization{ID: uuid.New(), Name: "Fundación Reloj", Country: "UY"}
	require.NoError(t, tt.CreateOrganization(ctx, org, ""))
	dir := tt.Directory()
	count := func(recipient, kind string) int {
		var n int
		require.NoError(t, dir.QueryRow(ctx, `SELECT count(*) FROM outbox_messages WHERE recipient = $1 AND template_type = $2`,
			recipient, kind).Scan(&n))
		return n
	}
	reminders := func() int { return count(inbox, onboarding.EmailStaffReminder) }

	// No review yet: check again later.
	next, err := a.RemindStaff(ctx, org.ID.String())
	require.NoError(t, err)
	require.Equal(t, onboarding.ReviewPoll, next)

	// A fresh review: not due, the next check is when it will be.
	_, err = dir.Exec(ctx, `INSERT INTO document_reviews (organization_id, requested_at) VALUES ($1, now() - interval '1 hour')`, org.ID)
	require.NoError(t, err)
	next, err = a.RemindStaff(ctx, org.ID.String())
	require.NoError(t, err)
	require.InDelta(t, (39 * time.Hour).Seconds(), next.Seconds(), 60)
	require.Zero(t, reminders())

	// 41 hours in: staff are reminded, once.
	_, err = dir.Exec(ctx, `UPDATE document_reviews SET requested_at = now() - interval '41 hours' WHERE organization_id = $1`, org.ID)
	require.NoError(t, err)
	for range 2 {
		_, err = a.RemindStaff(ctx, org.ID.String())
		require.NoError(t, err)
	}
	require.Equal(t, 1, reminders())
	var subject, body string
	require.NoError(t, dir.QueryRow(ctx, `SELECT subject, body FROM outbox_messages WHERE recipient = $1`, inbox).Scan(&subject, &body))
	require.Equal(t, "Revisión pendiente: Fundación Reloj", subject)
	require.Contains(t, body, "/staff/organizations/"+org.ID.String())

	// Organisation e-mails go to its administrators, once per key, in the organisation's language.
	kratos := identity.NewKratos(cfg.KratosAdmin, http.DefaultClient)
	adminEmail := "admin-" + uuid.NewString()[:8] + "@test.aporta.test"
	adminID, err := kratos.CreateUser(ctx, identity.NewUser{Email: adminEmail, FirstName: "Ana", LastName: "Reloj", Password: "Una-Clave-Larga-2026", Verified: true})
	require.NoError(t, err)
	require.NoError(t, tt.AddMembership(ctx, adminID, org.ID, "administrator"))
	e := onboarding.Email{Key: "test/" + org.ID.String(), Kind: onboarding.EmailAccountEnabled}
	require.NoError(t, a.EmailOrganization(ctx, org.ID.String(), e))
	require.NoError(t, a.EmailOrganization(ctx, org.ID.String(), e))
	require.Equal(t, 1, count(adminEmail, onboarding.EmailAccountEnabled))
	require.NoError(t, dir.QueryRow(ctx, `SELECT subject FROM outbox_messages WHERE recipient = $1`, adminEmail).Scan(&subject))
	require.Equal(t, "Fundación Reloj: tu cuenta está habilitada", subject)
}
