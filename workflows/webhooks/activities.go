package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// EmailEndpointDisabled is the e-mail administrators get when an endpoint is disabled.
const EmailEndpointDisabled = "webhook_endpoint_disabled"

// Mailer e-mails an organisation's administrators once per key (outbox.Mailer).
type Mailer interface {
	ToAdministrators(ctx context.Context, orgID uuid.UUID, key string, msg outbox.Message) error
}

// Activities dispatch and deliver.
type Activities struct {
	Tenants orgscope.Organizations
	Vault   webhook.Vault
	Guard   webhook.Guard
	// Temporal starts delivery workflows on Queue (TaskQueue when empty).
	Temporal  client.Client
	Queue     string
	Mail      Mailer
	PublicURL string
	// Timeout bounds one attempt, connection included (10 s when zero): a receiver should answer
	// at once and do its work afterwards.
	Timeout time.Duration
	// Batch is how many deliveries one Dispatch starts (50 when zero).
	Batch int32
}

// Dispatch starts the workflows of the endpoint's deliveries not started yet.
func (a *Activities) Dispatch(ctx context.Context, in EndpointInput) (string, error) {
	scope, id, err := orgscope.Row(ctx, a.Tenants, in.OrganizationID, "id", in.EndpointID)
	if err != nil {
		return "", err
	}
	q := scope.Store()
	e, err := q.WebhookEndpoint(ctx, sharddb.WebhookEndpointParams{OrganizationID: scope.OrgID, ID: id})
	if errors.Is(err, dberr.ErrNotFound) || err == nil && e.Status != "active" {
		return StateGone, nil
	}
	if err != nil {
		return "", err
	}
	batch := a.Batch
	if batch == 0 {
		batch = 50
	}
	pending, err := q.UndispatchedWebhookDeliveries(ctx, sharddb.UndispatchedWebhookDeliveriesParams{OrganizationID: scope.OrgID,
		EndpointID: id, Limit: batch})
	if err != nil {
		return "", err
	}
	queue := a.Queue
	if queue == "" {
		queue = TaskQueue
	}
	for _, d := range pending {
		if err := StartDelivery(ctx, a.Temporal, queue, DeliveryInput{OrganizationID: in.OrganizationID, DeliveryID: d.String()}); err != nil {
			return "", err
		}
		if err := q.MarkWebhookDeliveryDispatched(ctx, sharddb.MarkWebhookDeliveryDispatchedParams{OrganizationID: scope.OrgID, ID: d}); err != nil {
			return "", err
		}
	}
	if int32(len(pending)) == batch {
		return StateMore, nil
	}
	return StateIdle, nil
}

// Attempt posts the delivery once and logs the attempt. A receiver's failure (no answer, not 2xx,
// a redirect, an address the guard refuses) is the outcome OutcomeFailed, not an error.
func (a *Activities) Attempt(ctx context.Context, in DeliveryInput) (string, error) {
	scope, id, err := orgscope.Row(ctx, a.Tenants, in.OrganizationID, "id", in.DeliveryID)
	if err != nil {
		return "", err
	}
	q := scope.Store()
	d, err := q.WebhookDelivery(ctx, sharddb.WebhookDeliveryParams{OrganizationID: scope.OrgID, ID: id})
	if errors.Is(err, dberr.ErrNotFound) { // its endpoint was deleted
		return OutcomeStopped, nil
	}
	if err != nil {
		return "", err
	}
	if d.Status != "pending" {
		return OutcomeStopped, nil
	}
	e, err := q.WebhookEndpoint(ctx, sharddb.WebhookEndpointParams{OrganizationID: scope.OrgID, ID: d.EndpointID})
	if errors.Is(err, dberr.ErrNotFound) {
		return OutcomeStopped, nil
	}
	if err != nil {
		return "", err
	}
	if e.Status != "active" {
		reason := "webhook.endpoint_disabled"
		return OutcomeStopped, q.GiveUpWebhookDelivery(ctx, sharddb.GiveUpWebhookDeliveryParams{OrganizationID: scope.OrgID, ID: id, Error: &reason})
	}
	secret, err := a.Vault.Secret(ctx, e)
	if err != nil {
		return "", err
	}
	at := time.Now()
	code, postErr := a.post(ctx, e.Url, secret, d)
	rec := sharddb.RecordWebhookAttemptParams{OrganizationID: scope.OrgID, ID: id, Status: "delivered", At: at,
		DurationMs: int32(time.Since(at).Milliseconds())}
	if code != 0 {
		c := int32(code)
		rec.StatusCode = &c
	}
	outcome := OutcomeDelivered
	if postErr != nil {
		msg := postErr.Error()
		if len(msg) > 500 {
			msg = msg[:500]
		}
		rec.Status, rec.Error, outcome = "pending", &msg, OutcomeFailed
	}
	if err := q.RecordWebhookAttempt(ctx, rec); err != nil {
		return "", err
	}
	if outcome == OutcomeDelivered {
		err = q.MarkWebhookEndpointSucceeded(ctx, sharddb.MarkWebhookEndpointSucceededParams{OrganizationID: scope.OrgID, ID: e.ID, At: at})
	}
	return outcome, err
}

// post sends the body signed now; it answers the status code (0 without an answer) and why the
// attempt failed (nil: a 2xx).
func (a *Activities) post(ctx context.Context, rawURL string, secret []byte, d sharddb.WebhookDelivery) (int, error) {
	// Checked again, as saved: the configuration may have changed since.
	if _, err := a.Guard.CheckURL(ctx, rawURL); err != nil {
		return 0, err
	}
	timeout := a.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(d.Body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Aporta-Webhooks/1.0")
	req.Header.Set("Aporta-Event", d.EventType)
	req.Header.Set("Aporta-Event-Id", d.EventID.String())
	req.Header.Set("Aporta-Delivery", d.ID.String())
	req.Header.Set(webhook.SignatureHeader, webhook.Header(secret, time.Now(), d.Body))
	resp, err := a.Guard.Client(timeout).Do(req)
	if resp != nil {
		resp.Body.Close()
	}
	switch {
	case errors.Is(err, webhook.ErrRedirect):
		return resp.StatusCode, webhook.ErrRedirect
	case err != nil:
		var refused *webhook.URLError
		if errors.As(err, &refused) {
			return 0, refused
		}
		return 0, err
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return resp.StatusCode, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// GiveUp marks the delivery failed and, when its endpoint answered no delivery since first (the
// first attempt), disables the endpoint and e-mails the organisation's administrators. The e-mail
// goes first, keyed by the endpoint's last change: deliveries giving up together, and a retry after
// a failed disable, send it once.
func (a *Activities) GiveUp(ctx context.Context, in DeliveryInput, first time.Time) error {
	scope, id, err := orgscope.Row(ctx, a.Tenants, in.OrganizationID, "id", in.DeliveryID)
	if err != nil {
		return err
	}
	q := scope.Store()
	d, err := q.WebhookDelivery(ctx, sharddb.WebhookDeliveryParams{OrganizationID: scope.OrgID, ID: id})
	if errors.Is(err, dberr.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := q.GiveUpWebhookDelivery(ctx, sharddb.GiveUpWebhookDeliveryParams{OrganizationID: scope.OrgID, ID: id}); err != nil {
		return err
	}
	e, err := q.WebhookEndpoint(ctx, sharddb.WebhookEndpointParams{OrganizationID: scope.OrgID, ID: d.EndpointID})
	if errors.Is(err, dberr.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if e.Status != "active" || e.LastSuccessAt != nil && !e.LastSuccessAt.Before(first) {
		return nil // disabled already, or it took another delivery meanwhile: not failing as a whole
	}
	if err := a.emailDisabled(ctx, scope, e); err != nil {
		return err
	}
	_, err = q.DisableFailingWebhookEndpoint(ctx, sharddb.DisableFailingWebhookEndpointParams{OrganizationID: scope.OrgID, ID: e.ID,
		FailingSince: first})
	return err
}

func (a *Activities) emailDisabled(ctx context.Context, scope tenants.Scope, e sharddb.WebhookEndpoint) error {
	org, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
	if err != nil {
		return err
	}
	lang, _ := i18n.Parse(org.Locale)
	msg, err := outbox.Compose("", EmailEndpointDisabled, lang, map[string]any{
		"Org": org.Name, "Endpoint": e.Url, "Window": int(Window.Hours()), "URL": a.PublicURL + "/manage/settings/webhooks"})
	if err != nil {
		return err
	}
	return a.Mail.ToAdministrators(ctx, scope.OrgID, fmt.Sprintf("%s/%s/%d", EmailEndpointDisabled, e.ID, e.UpdatedAt.UnixMicro()), msg)
}
