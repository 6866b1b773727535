package webhooks_test

import (
	"context"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"

	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/internal/webhook/receiver"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/webhooks"
)

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute,
		32 * time.Minute, 64 * time.Minute, 128 * time.Minute, 256 * time.Minute, 6 * time.Hour, 6 * time.Hour}
	for i, d := range want {
		require.Equal(t, d, webhooks.RetryDelay(i+1), "after attempt %d", i+1)
	}
	require.Equal(t, 6*time.Hour, webhooks.RetryDelay(500))
}

func TestDisabledEmailInEachLanguage(t *testing.T) {
	t.Parallel()
	for _, l := range []i18n.Lang{i18n.ES, i18n.ESAR, i18n.EN, i18n.PT} {
		m, err := outbox.Compose("", webhooks.EmailEndpointDisabled, l, map[string]any{"Org": "Fundación Sol",
			"Endpoint": "https://hooks.example.org/aporta", "Window": 72, "URL": "https://aporta.test/manage/settings/webhooks"})
		require.NoError(t, err)
		for _, s := range []string{m.Subject, m.Body, m.HTML} {
			require.NotContains(t, s, "[missing:", l)
			require.NotContains(t, s, "%!", l)
		}
		require.Contains(t, m.Body, "https://hooks.example.org/aporta")
		require.Contains(t, m.Body, "72")
	}
}

// mails records what the administrators would be sent (the outbox's own test covers sending).
type mails struct {
	mu   sync.Mutex
	keys []string
	msgs []outbox.Message
}

func (m *mails) ToAdministrators(_ context.Context, _ uuid.UUID, key string, msg outbox.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys, m.msgs = append(m.keys, key), append(m.msgs, msg)
	return nil
}

type fixture struct {
	ctx      context.Context
	scope    tenants.Scope
	vault    webhook.Vault
	box      receiver.Box
	endpoint sharddb.WebhookEndpoint
	secret   string
	mail     *mails
	acts     *webhooks.Activities
}

// newFixture makes an organisation with an endpoint at a fresh box of the sandbox receiver, and
// queues one donation.created event for it.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	base := os.Getenv("APORTA_SANDBOX_CRM_URL")
	require.NotEmpty(t, base, "APORTA_SANDBOX_CRM_URL: run on the stack")
	box, err := secrets.Open(ctx, cfg.Secret, cfg.SecretsURL, cfg.SecretsPreviousURLs...)
	require.NoError(t, err)
	f := &fixture{ctx: ctx, scope: tenantstest.ArgentineOrganization(t, tt, "Webhooks", "enabled", "original"),
		vault: webhook.Vault{Box: box}, box: receiver.Box{BaseURL: base, Name: uuid.NewString()}, secret: webhook.NewSecret(), mail: &mails{}}
	id := uuid.New()
	sealed, err := f.vault.Seal(ctx, f.scope.OrgID, id, f.secret)
	require.NoError(t, err)
	f.endpoint, err = f.scope.Store().CreateWebhookEndpoint(ctx, sharddb.CreateWebhookEndpointParams{OrganizationID: f.scope.OrgID, ID: id,
		Url: f.box.URL(), Events: webhook.Events, Secret: sealed.Blob, KeyID: sealed.KeyID})
	require.NoError(t, err)
	donation := uuid.New()
	require.NoError(t, webhook.Enqueue(ctx, f.scope.Store(), f.scope.OrgID, webhook.EventID(donation, webhook.DonationCreated),
		webhook.DonationCreated, webhook.Donation{DonationID: donation, Status: "active", Amount: webhook.Amount{Minor: 150050, Currency: "ARS"}}))
	f.acts = &webhooks.Activities{Tenants: tt, Vault: f.vault, Guard: webhook.NewGuard(cfg), Mail: f.mail, PublicURL: cfg.PublicURL}
	return f
}

func (f *fixture) delivery(t *testing.T) sharddb.WebhookDelivery {
	t.Helper()
	ds, err := f.scope.Store().WebhookDeliveries(f.ctx, sharddb.WebhookDeliveriesParams{OrganizationID: f.scope.OrgID, EndpointID: f.endpoint.ID, Limit: 10})
	require.NoError(t, err)
	require.Len(t, ds, 1)
	return ds[0]
}

// run executes the delivery's workflow with time skipping and answers when each attempt started
// (workflow time).
func (f *fixture) run(t *testing.T, d sharddb.WebhookDelivery) []time.Time {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(webhooks.DeliveryWorkflow)
	env.RegisterActivity(f.acts)
	var attempts []time.Time
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		if info.ActivityType.Name == "Attempt" {
			attempts = append(attempts, env.Now())
		}
	})
	env.ExecuteWorkflow(webhooks.DeliveryWorkflow, webhooks.DeliveryInput{OrganizationID: f.scope.OrgID.String(), DeliveryID: d.ID.String()})
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	return attempts
}

// An endpoint that answers 500 to everything: the delivery is attempted on the backoff schedule
// (30 s, 1 min, 2 min… then every 6 h) for 72 h, 21 times, each signed; then it is given up, the
// endpoint is disabled and its administrators are e-mailed once.
func TestFailingEndpointIsRetriedFor72HoursThenDisabled(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.box.Fail(f.ctx, http.StatusInternalServerError, -1))
	d := f.delivery(t)

	attempts := f.run(t, d)
	require.Len(t, attempts, 21)
	for i := 1; i < len(attempts); i++ {
		assert.Equal(t, webhooks.RetryDelay(i), attempts[i].Sub(attempts[i-1]), "wait before attempt %d", i+1)
	}
	last := attempts[len(attempts)-1].Sub(attempts[0])
	require.LessOrEqual(t, last, webhooks.Window)
	require.Greater(t, last+webhooks.RetryDelay(len(attempts)), webhooks.Window, "the next attempt would fall outside the window")

	got, err := f.box.Deliveries(f.ctx)
	require.NoError(t, err)
	require.Len(t, got, 21, "every attempt reached the receiver")
	for _, r := range got {
		require.Equal(t, http.StatusInternalServerError, r.Status)
		require.Equal(t, "donation.created", r.Headers["Aporta-Event"])
		require.Equal(t, d.ID.String(), r.Headers["Aporta-Delivery"])
		require.NoError(t, webhook.Verify([]byte(f.secret), r.Headers["Aporta-Signature"], []byte(r.Body), r.At))
	}

	d, err = f.scope.Store().WebhookDelivery(f.ctx, sharddb.WebhookDeliveryParams{OrganizationID: f.scope.OrgID, ID: d.ID})
	require.NoError(t, err)
	require.Equal(t, "failed", d.Status)
	require.EqualValues(t, 21, d.Attempts)
	require.EqualValues(t, 500, *d.LastStatusCode)
	require.Equal(t, "HTTP 500", *d.LastError)
	e, err := f.scope.Store().WebhookEndpoint(f.ctx, sharddb.WebhookEndpointParams{OrganizationID: f.scope.OrgID, ID: f.endpoint.ID})
	require.NoError(t, err)
	require.Equal(t, "disabled", e.Status)
	require.NotNil(t, e.DisabledAt)
	require.Len(t, f.mail.msgs, 1)
	require.Equal(t, webhooks.EmailEndpointDisabled, f.mail.msgs[0].TemplateType)
	require.Contains(t, f.mail.msgs[0].Body, f.box.URL())
	require.Contains(t, f.mail.msgs[0].Body, "72")

	// Disabled, it takes no new events.
	other := uuid.New()
	require.NoError(t, webhook.Enqueue(f.ctx, f.scope.Store(), f.scope.OrgID, other, webhook.DonationUpdated, webhook.Change{DonationID: other}))
	f.delivery(t)
}

// An endpoint that fails twice and then answers: delivered on the third attempt, after 30 s and
// 1 min; nothing is disabled or e-mailed.
func TestRecoveringEndpointGetsTheDelivery(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.box.Fail(f.ctx, http.StatusServiceUnavailable, 2))
	d := f.delivery(t)

	attempts := f.run(t, d)
	require.Len(t, attempts, 3)
	require.Equal(t, 90*time.Second, attempts[2].Sub(attempts[0]))

	d, err := f.scope.Store().WebhookDelivery(f.ctx, sharddb.WebhookDeliveryParams{OrganizationID: f.scope.OrgID, ID: d.ID})
	require.NoError(t, err)
	require.Equal(t, "delivered", d.Status)
	require.EqualValues(t, 3, d.Attempts)
	require.EqualValues(t, 200, *d.LastStatusCode)
	require.Nil(t, d.LastError)
	e, err := f.scope.Store().WebhookEndpoint(f.ctx, sharddb.WebhookEndpointParams{OrganizationID: f.scope.OrgID, ID: f.endpoint.ID})
	require.NoError(t, err)
	require.Equal(t, "active", e.Status)
	require.NotNil(t, e.LastSuccessAt)
	require.Empty(t, f.mail.msgs)
}

// A delivery given up while the endpoint took other deliveries does not disable it: the endpoint
// works, that one event failed.
func TestGiveUpKeepsAnEndpointThatAnswersOthers(t *testing.T) {
	f := newFixture(t)
	d := f.delivery(t)
	first := time.Now().Add(-webhooks.Window)
	require.NoError(t, f.scope.Store().MarkWebhookEndpointSucceeded(f.ctx, sharddb.MarkWebhookEndpointSucceededParams{OrganizationID: f.scope.OrgID,
		ID: f.endpoint.ID, At: time.Now()}))
	require.NoError(t, f.acts.GiveUp(f.ctx, webhooks.DeliveryInput{OrganizationID: f.scope.OrgID.String(), DeliveryID: d.ID.String()}, first))
	e, err := f.scope.Store().WebhookEndpoint(f.ctx, sharddb.WebhookEndpointParams{OrganizationID: f.scope.OrgID, ID: f.endpoint.ID})
	require.NoError(t, err)
	require.Equal(t, "active", e.Status)
	require.Empty(t, f.mail.msgs)
	d, err = f.scope.Store().WebhookDelivery(f.ctx, sharddb.WebhookDeliveryParams{OrganizationID: f.scope.OrgID, ID: d.ID})
	require.NoError(t, err)
	require.Equal(t, "failed", d.Status)
}
