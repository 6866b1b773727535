package webhook_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/webhook"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/sharddb"
	internalwebhook "github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/internal/webhook/receiver"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/webhooks"
)

func newBox(t *testing.T) receiver.Box {
	t.Helper()
	base := os.Getenv("APORTA_SANDBOX_CRM_URL")
	require.NotEmpty(t, base, "APORTA_SANDBOX_CRM_URL is not set: run on the stack (deploy/stack.sh test)")
	return receiver.Box{BaseURL: base, Name: uuid.NewString()}
}

func create(t *testing.T, c *apitest.Client, url string, events ...string) webhook.WithSecret {
	t.Helper()
	res := c.JSON(http.MethodPost, "/manage/api/webhooks", map[string]any{"url": url, "description": "CRM propio", "events": events})
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	var out webhook.WithSecret
	res.Decode(t, &out)
	return out
}

func scope(t *testing.T, s *apitest.Stack, c *apitest.Client) tenants.Scope {
	t.Helper()
	sc, err := s.Tenants.ForOrganization(context.Background(), c.OrgID)
	require.NoError(t, err)
	return sc
}

// received waits for the box to hold n deliveries.
func received(t *testing.T, box receiver.Box, n int) []receiver.Received {
	t.Helper()
	var got []receiver.Received
	require.Eventually(t, func() bool {
		var err error
		got, err = box.Deliveries(context.Background())
		return err == nil && len(got) >= n
	}, 60*time.Second, 250*time.Millisecond, "the receiver got %d deliveries", n)
	return got
}

// An endpoint is registered with a secret shown once and sealed at rest; an event queued with a
// donation change reaches it signed, shows in the log, and a resend delivers the same event again.
// A rotated secret signs the next delivery.
func TestDeliveryEndToEnd(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	box := newBox(t)
	ctx := context.Background()

	made := create(t, admin, box.URL(), "donation.cancelled", "donation.created", "donation.created")
	require.Regexp(t, `^whsec_`, made.Secret)
	require.Equal(t, []string{"donation.cancelled", "donation.created"}, made.Endpoint.Events, "sorted, once each")
	require.Equal(t, "active", made.Endpoint.Status)

	list := admin.JSON(http.MethodGet, "/manage/api/webhooks", nil)
	require.Equal(t, http.StatusOK, list.Status)
	require.NotContains(t, string(list.Body), made.Secret, "the secret is never answered again")
	var l webhook.List
	list.Decode(t, &l)
	require.Len(t, l.Endpoints, 1)
	require.Equal(t, internalwebhook.Events, l.Events)

	sc := scope(t, s, admin)
	row, err := sc.Store().WebhookEndpoint(ctx, sharddb.WebhookEndpointParams{OrganizationID: sc.OrgID, ID: made.Endpoint.ID})
	require.NoError(t, err)
	require.False(t, bytes.Contains(row.Secret, []byte(made.Secret)), "sealed at rest")

	// A cancellation as history.Record queues it, and an event the endpoint did not subscribe to.
	donation := uuid.New()
	require.NoError(t, internalwebhook.Enqueue(ctx, sc.Store(), sc.OrgID, uuid.New(), internalwebhook.DonationUpdated,
		internalwebhook.Change{DonationID: donation, Field: "amount"}))
	event := uuid.New()
	require.NoError(t, internalwebhook.Enqueue(ctx, sc.Store(), sc.OrgID, event, internalwebhook.DonationCancelled,
		internalwebhook.Change{DonationID: donation, Field: "status", After: []byte(`{"status":"discarded"}`), Actor: "donor"}))

	got := received(t, box, 1)
	require.Len(t, got, 1, "only the subscribed event")
	first := got[0]
	require.Equal(t, "donation.cancelled", first.Headers["Aporta-Event"])
	require.Equal(t, event.String(), first.Headers["Aporta-Event-Id"])
	require.NoError(t, internalwebhook.Verify([]byte(made.Secret), first.Headers["Aporta-Signature"], []byte(first.Body), time.Now()))
	require.Contains(t, first.Body, `"type": "donation.cancelled"`)
	require.Contains(t, first.Body, donation.String())

	base := "/manage/api/webhooks/" + made.Endpoint.ID.String()
	var log webhook.Deliveries
	require.Eventually(t, func() bool {
		log = apitest.OK[webhook.Deliveries](t, admin, http.MethodGet, base+"/deliveries", nil)
		return len(log.Deliveries) == 1 && log.Deliveries[0].Status == "delivered"
	}, 10*time.Second, 200*time.Millisecond)
	d := log.Deliveries[0]
	require.Equal(t, 1, d.Attempts)
	require.Equal(t, 200, *d.LastStatusCode)
	require.NotNil(t, d.LastDurationMS)

	// Rotating the secret: the resend is signed with the new one.
	rotated := apitest.OK[webhook.WithSecret](t, admin, http.MethodPost, base+"/secret", nil)
	require.NotEqual(t, made.Secret, rotated.Secret)
	res := admin.JSON(http.MethodPost, base+"/deliveries/"+d.ID.String()+"/resend", nil)
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	got = received(t, box, 2)
	again := got[1]
	require.Equal(t, event.String(), again.Headers["Aporta-Event-Id"], "the same event")
	require.NotEqual(t, first.Headers["Aporta-Delivery"], again.Headers["Aporta-Delivery"], "a new delivery")
	require.Equal(t, first.Body, again.Body)
	require.NoError(t, internalwebhook.Verify([]byte(rotated.Secret), again.Headers["Aporta-Signature"], []byte(again.Body), time.Now()))
	require.ErrorIs(t, internalwebhook.Verify([]byte(made.Secret), again.Headers["Aporta-Signature"], []byte(again.Body), time.Now()),
		internalwebhook.ErrMismatch)
	log = apitest.OK[webhook.Deliveries](t, admin, http.MethodGet, base+"/deliveries?page=1", nil)
	require.Equal(t, 2, log.Total)
	require.Equal(t, d.ID, *log.Deliveries[0].ResentFrom)
}

// URLs that point inside, and bad fields, are refused with the field's reason; nothing is saved.
func TestRefusesUnsafeURLsAndBadFields(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	for _, c := range []struct {
		body        map[string]any
		field, code string
	}{
		{map[string]any{"url": "https://169.254.169.254/latest/meta-data/", "events": []string{"charge.approved"}}, "url", "webhook.url_host_forbidden"},
		{map[string]any{"url": "https://10.0.0.8/hook", "events": []string{"charge.approved"}}, "url", "webhook.url_host_forbidden"},
		{map[string]any{"url": "https://[fd00::1]/hook", "events": []string{"charge.approved"}}, "url", "webhook.url_host_forbidden"},
		{map[string]any{"url": "https://[::ffff:10.0.0.1]/hook", "events": []string{"charge.approved"}}, "url", "webhook.url_host_forbidden"},
		{map[string]any{"url": "https://2130706433/hook", "events": []string{"charge.approved"}}, "url", "webhook.url_invalid"},
		{map[string]any{"url": "https://0177.0.0.1/hook", "events": []string{"charge.approved"}}, "url", "webhook.url_invalid"},
		{map[string]any{"url": "javascript:alert(1)", "events": []string{"charge.approved"}}, "url", "webhook.url_invalid"},
		{map[string]any{"url": "https://hooks.invalid/x", "events": []string{"charge.approved"}}, "url", "webhook.url_unresolvable"},
		{map[string]any{"url": "https://hooks.example.org/x", "events": []string{}}, "events", "webhook.events_required"},
		{map[string]any{"url": "https://hooks.example.org/x", "events": []string{"charge.disputed"}}, "events", "webhook.event_unknown"},
	} {
		for _, lang := range []i18n.Lang{i18n.EN, i18n.PT} {
			res := admin.JSON(http.MethodPost, "/manage/api/webhooks?locale="+string(lang), c.body)
			require.Equal(t, http.StatusUnprocessableEntity, res.Status, "%v: %s", c.body, res.Body)
			var invalid struct {
				Error struct {
					Fields map[string]string `json:"fields"`
				} `json:"error"`
			}
			res.Decode(t, &invalid)
			require.Equal(t, i18n.T(lang, c.code), invalid.Error.Fields[c.field], "%v", c.body)
		}
	}
	l := apitest.OK[webhook.List](t, admin, http.MethodGet, "/manage/api/webhooks", nil)
	require.Empty(t, l.Endpoints)
}

// Another organisation's endpoint is not found, whatever the call; an operator may not manage webhooks.
func TestAnotherTenantsEndpointIsNotFound(t *testing.T) {
	s := apitest.Start(t)
	admin, other := s.NewOrgAdmin(t, "AR"), s.NewOrgAdmin(t, "AR")
	made := create(t, admin, newBox(t).URL(), "charge.approved")
	sc := scope(t, s, admin)
	event := uuid.New()
	require.NoError(t, internalwebhook.Enqueue(context.Background(), sc.Store(), sc.OrgID, event, internalwebhook.ChargeApproved, map[string]any{}))
	ds, err := sc.Store().WebhookDeliveries(context.Background(), sharddb.WebhookDeliveriesParams{OrganizationID: sc.OrgID, EndpointID: made.Endpoint.ID, Limit: 1})
	require.NoError(t, err)
	require.Len(t, ds, 1)

	base := "/manage/api/webhooks/" + made.Endpoint.ID.String()
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, base + "/deliveries"},
		{http.MethodPatch, base},
		{http.MethodPost, base + "/secret"},
		{http.MethodPost, base + "/deliveries/" + ds[0].ID.String() + "/resend"},
		{http.MethodDelete, base},
	} {
		var body any
		if c.method == http.MethodPatch {
			body = map[string]any{"status": "disabled"}
		}
		res := other.JSON(c.method, c.path, body)
		assert.Equal(t, http.StatusNotFound, res.Status, "%s %s: %s", c.method, c.path, res.Body)
	}
	// Nor is another endpoint's delivery through one's own endpoint.
	mine := create(t, other, newBox(t).URL(), "charge.approved")
	res := other.JSON(http.MethodPost, "/manage/api/webhooks/"+mine.Endpoint.ID.String()+"/deliveries/"+ds[0].ID.String()+"/resend", nil)
	assert.Equal(t, http.StatusNotFound, res.Status, "%s", res.Body)

	op := s.NewUser(t, "operator")
	s.AddMember(t, op, admin.OrgID, "operator")
	res = op.JSON(http.MethodGet, "/manage/api/webhooks", nil)
	assert.Equal(t, http.StatusForbidden, res.Status, "%s", res.Body)

	l := apitest.OK[webhook.List](t, admin, http.MethodGet, "/manage/api/webhooks", nil)
	require.Len(t, l.Endpoints, 1)
	require.Equal(t, "active", l.Endpoints[0].Status, "unchanged")
}

// A delivery given up on an endpoint that answered nothing disables it and e-mails its
// administrators through the outbox, once.
func TestGiveUpDisablesAndEmailsAdministrators(t *testing.T) {
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	box := newBox(t)
	require.NoError(t, box.Fail(context.Background(), http.StatusBadGateway, -1))
	made := create(t, admin, box.URL(), "charge.declined")
	sc := scope(t, s, admin)
	ctx := context.Background()
	require.NoError(t, internalwebhook.Enqueue(ctx, sc.Store(), sc.OrgID, uuid.New(), internalwebhook.ChargeDeclined, map[string]any{}))
	ds, err := sc.Store().WebhookDeliveries(ctx, sharddb.WebhookDeliveriesParams{OrganizationID: sc.OrgID, EndpointID: made.Endpoint.ID, Limit: 1})
	require.NoError(t, err)
	require.Len(t, ds, 1)

	sealer, err := secrets.Open(ctx, s.Config.Secret, s.Config.SecretsURL, s.Config.SecretsPreviousURLs...)
	require.NoError(t, err)
	acts := &webhooks.Activities{Tenants: s.Tenants, Vault: internalwebhook.Vault{Box: sealer}, Guard: internalwebhook.NewGuard(s.Config),
		Mail: outbox.NewMailer(s.Config, s.Tenants.Directory()), PublicURL: s.Config.PublicURL}
	in := webhooks.DeliveryInput{OrganizationID: sc.OrgID.String(), DeliveryID: ds[0].ID.String()}
	for range 2 { // a retried activity e-mails once
		require.NoError(t, acts.GiveUp(ctx, in, time.Now()))
	}
	l := apitest.OK[webhook.List](t, admin, http.MethodGet, "/manage/api/webhooks", nil)
	require.Equal(t, "disabled", l.Endpoints[0].Status)
	var n int
	require.NoError(t, s.Tenants.Directory().QueryRow(ctx,
		"SELECT count(*) FROM outbox_messages WHERE recipient = $1 AND template_type = $2", admin.Email, webhooks.EmailEndpointDisabled).Scan(&n))
	require.Equal(t, 1, n)

	// Disabled: a resend is refused until it is enabled again.
	res := admin.JSON(http.MethodPost, "/manage/api/webhooks/"+made.Endpoint.ID.String()+"/deliveries/"+ds[0].ID.String()+"/resend", nil)
	require.Equal(t, http.StatusConflict, res.Status, "%s", res.Body)
	require.Equal(t, "webhook.endpoint_disabled", res.ErrorCode())
	enabled := apitest.OK[webhook.Endpoint](t, admin, http.MethodPatch, "/manage/api/webhooks/"+made.Endpoint.ID.String(), map[string]any{"status": "active"})
	require.Equal(t, "active", enabled.Status)
	require.Nil(t, enabled.DisabledAt)
}
