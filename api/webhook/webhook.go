// Package webhook is the settings of organisations' webhooks (issue #20, the page
// /manage/settings/webhooks): endpoints (URL checked against SSRF, event types, a secret made here
// and shown once, sealed at rest), the delivery log and resending a delivery. Events are queued by
// internal/webhook and delivered by workflows/webhooks.
package webhook

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/tenants"
)

// Starter starts the webhook workflows (workflows/webhooks.Client).
type Starter interface {
	Watch(ctx context.Context, orgID, endpointID uuid.UUID) error
	Deliver(ctx context.Context, orgID, deliveryID uuid.UUID) error
}

// Service serves the settings.
type Service struct {
	Vault   webhook.Vault
	Guard   webhook.Guard
	Workers Starter
}

// MaxEndpoints is how many endpoints an organisation may have.
const MaxEndpoints = 10

// PageSize is how many deliveries a page of the log shows.
const PageSize = 20

// Endpoint is an endpoint as the page shows it; its secret is never answered after creation.
type Endpoint struct {
	ID            uuid.UUID  `json:"id"`
	URL           string     `json:"url"`
	Description   string     `json:"description"`
	Events        []string   `json:"events"`
	Status        string     `json:"status"`
	DisabledAt    *time.Time `json:"disabled_at"`
	LastSuccessAt *time.Time `json:"last_success_at"`
	CreatedAt     time.Time  `json:"created_at"`
}

func present(e sharddb.WebhookEndpoint) Endpoint {
	return Endpoint{ID: e.ID, URL: e.Url, Description: e.Description, Events: e.Events, Status: e.Status, DisabledAt: e.DisabledAt,
		LastSuccessAt: e.LastSuccessAt, CreatedAt: e.CreatedAt}
}

// List is the organisation's endpoints and the event types one may take.
type List struct {
	Endpoints []Endpoint `json:"endpoints"`
	Events    []string   `json:"events"`
}

// WithSecret is an endpoint with its secret: answered once, when the secret is made.
type WithSecret struct {
	Endpoint Endpoint `json:"endpoint"`
	Secret   string   `json:"secret"`
}

// createdSecret answers 201.
type createdSecret struct{ *WithSecret }

func (createdSecret) StatusCode() int { return http.StatusCreated }

// endpointOf reads one of the organisation's endpoints; another organisation's id is not found.
func endpointOf(ctx context.Context, scope tenants.Scope, id uuid.UUID) (sharddb.WebhookEndpoint, error) {
	return scope.Store().WebhookEndpoint(ctx, sharddb.WebhookEndpointParams{OrganizationID: scope.OrgID, ID: id})
}

// ListRequest is GET /manage/api/webhooks.
type ListRequest struct{}

// List answers the organisation's endpoints.
func (s *Service) List(ctx context.Context, scope tenants.Scope, _ *ListRequest) (*List, error) {
	rows, err := scope.Store().WebhookEndpoints(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	out := &List{Endpoints: []Endpoint{}, Events: webhook.Events}
	for _, e := range rows {
		out.Endpoints = append(out.Endpoints, present(e))
	}
	return out, nil
}

// Fields are an endpoint's editable fields; a PATCH leaves out what it does not change.
type Fields struct {
	URL         *string   `json:"url"`
	Description *string   `json:"description"`
	Events      *[]string `json:"events"`
	Status      *string   `json:"status"`
}

// validate checks the fields given; fields names what a creation must give.
func (f *Fields) validate(required bool) error {
	bad := map[string]string{}
	if f.URL == nil && required {
		bad["url"] = webhook.ErrURLInvalid.Code
	}
	if f.Description != nil {
		*f.Description = strings.TrimSpace(*f.Description)
		if len([]rune(*f.Description)) > 200 {
			bad["description"] = "webhook.description_too_long"
		}
	}
	if f.Events == nil && required || f.Events != nil && len(*f.Events) == 0 {
		bad["events"] = "webhook.events_required"
	}
	if f.Events != nil {
		for _, e := range *f.Events {
			if !webhook.Known(e) {
				bad["events"] = "webhook.event_unknown"
			}
		}
		slices.Sort(*f.Events)
		*f.Events = slices.Compact(*f.Events)
	}
	if f.Status != nil && *f.Status != "active" && *f.Status != "disabled" {
		bad["status"] = "webhook.status_invalid"
	}
	return apierror.Invalid(bad)
}

// checkURL refuses a URL the guard refuses, as a validation error of the url field.
func (s *Service) checkURL(ctx context.Context, raw string) (string, error) {
	u, err := s.Guard.CheckURL(ctx, raw)
	var refused *webhook.URLError
	if errors.As(err, &refused) {
		return "", apierror.Validation(map[string]string{"url": refused.Code})
	}
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// CreateRequest is POST /manage/api/webhooks.
type CreateRequest struct{ Fields }

// Validate checks the fields.
func (r *CreateRequest) Validate() error { return r.validate(true) }

// Create registers an endpoint with a new secret, answered this once, and starts its workflow.
func (s *Service) Create(ctx context.Context, scope tenants.Scope, r *CreateRequest) (*createdSecret, error) {
	url, err := s.checkURL(ctx, *r.URL)
	if err != nil {
		return nil, err
	}
	existing, err := scope.Store().WebhookEndpoints(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	if len(existing) >= MaxEndpoints {
		return nil, apierror.New(http.StatusConflict, "webhook.too_many", MaxEndpoints)
	}
	id, secret := uuid.New(), webhook.NewSecret()
	sealed, err := s.Vault.Seal(ctx, scope.OrgID, id, secret)
	if err != nil {
		return nil, err
	}
	var description string
	if r.Description != nil {
		description = *r.Description
	}
	e, err := scope.Store().CreateWebhookEndpoint(ctx, sharddb.CreateWebhookEndpointParams{OrganizationID: scope.OrgID, ID: id, Url: url,
		Description: description, Events: *r.Events, Secret: sealed.Blob, KeyID: sealed.KeyID})
	if err != nil {
		return nil, err
	}
	if err := s.Workers.Watch(ctx, scope.OrgID, e.ID); err != nil {
		return nil, err
	}
	return &createdSecret{&WithSecret{Endpoint: present(e), Secret: secret}}, nil
}

// PatchRequest is PATCH /manage/api/webhooks/{id}.
type PatchRequest struct {
	ID uuid.UUID `path:"id" json:"-"`
	Fields
}

// Validate checks the fields given.
func (r *PatchRequest) Validate() error { return r.validate(false) }

// Patch changes an endpoint; enabling one starts its workflow again.
func (s *Service) Patch(ctx context.Context, scope tenants.Scope, r *PatchRequest) (*Endpoint, error) {
	e, err := endpointOf(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	p := sharddb.UpdateWebhookEndpointParams{OrganizationID: scope.OrgID, ID: e.ID, Url: e.Url, Description: e.Description,
		Events: e.Events, Status: e.Status}
	if r.URL != nil {
		if p.Url, err = s.checkURL(ctx, *r.URL); err != nil {
			return nil, err
		}
	}
	if r.Description != nil {
		p.Description = *r.Description
	}
	if r.Events != nil {
		p.Events = *r.Events
	}
	if r.Status != nil {
		p.Status = *r.Status
	}
	e, err = scope.Store().UpdateWebhookEndpoint(ctx, p)
	if err != nil {
		return nil, err
	}
	if e.Status == "active" {
		if err := s.Workers.Watch(ctx, scope.OrgID, e.ID); err != nil {
			return nil, err
		}
	}
	out := present(e)
	return &out, nil
}

// IDRequest names an endpoint.
type IDRequest struct {
	ID uuid.UUID `path:"id" json:"-"`
}

// Delete removes an endpoint with its deliveries; their workflows find nothing left to deliver.
func (s *Service) Delete(ctx context.Context, scope tenants.Scope, r *IDRequest) (*struct{}, error) {
	n, err := scope.Store().DeleteWebhookEndpoint(ctx, sharddb.DeleteWebhookEndpointParams{OrganizationID: scope.OrgID, ID: r.ID})
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, dberr.ErrNotFound
	}
	return nil, nil
}

// RotateSecret replaces an endpoint's secret with a new one, answered this once; deliveries are
// signed with it from their next attempt.
func (s *Service) RotateSecret(ctx context.Context, scope tenants.Scope, r *IDRequest) (*WithSecret, error) {
	e, err := endpointOf(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	secret := webhook.NewSecret()
	sealed, err := s.Vault.Seal(ctx, scope.OrgID, e.ID, secret)
	if err != nil {
		return nil, err
	}
	e, err = scope.Store().SetWebhookEndpointSecret(ctx, sharddb.SetWebhookEndpointSecretParams{OrganizationID: scope.OrgID, ID: e.ID,
		Sealed: sealed.Blob, KeyID: sealed.KeyID})
	if err != nil {
		return nil, err
	}
	return &WithSecret{Endpoint: present(e), Secret: secret}, nil
}

// Delivery is a line of the delivery log: the event, and the last attempt's outcome.
type Delivery struct {
	ID             uuid.UUID  `json:"id"`
	EventID        uuid.UUID  `json:"event_id"`
	EventType      string     `json:"event_type"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	LastAttemptAt  *time.Time `json:"last_attempt_at"`
	LastStatusCode *int       `json:"last_status_code"`
	LastDurationMS *int       `json:"last_duration_ms"`
	LastError      *string    `json:"last_error"`
	ResentFrom     *uuid.UUID `json:"resent_from"`
	CreatedAt      time.Time  `json:"created_at"`
}

// presentDelivery writes a delivery for the log; an error that is one of ours (an i18n key, such as
// a refused address) in the reader's language.
func presentDelivery(ctx context.Context, d sharddb.WebhookDelivery) Delivery {
	out := Delivery{ID: d.ID, EventID: d.EventID, EventType: d.EventType, Status: d.Status, Attempts: int(d.Attempts),
		LastAttemptAt: d.LastAttemptAt, LastError: d.LastError, ResentFrom: d.ResentFrom, CreatedAt: d.CreatedAt}
	if d.LastError != nil && strings.HasPrefix(*d.LastError, "webhook.") {
		msg := i18n.T(i18n.FromContext(ctx), *d.LastError)
		out.LastError = &msg
	}
	if d.LastStatusCode != nil {
		c := int(*d.LastStatusCode)
		out.LastStatusCode = &c
	}
	if d.LastDurationMs != nil {
		ms := int(*d.LastDurationMs)
		out.LastDurationMS = &ms
	}
	return out
}

// Deliveries is a page of the delivery log, newest first.
type Deliveries struct {
	Deliveries []Delivery `json:"deliveries"`
	Page       int        `json:"page"`
	TotalPages int        `json:"total_pages"`
	Total      int        `json:"total"`
}

// DeliveriesRequest is GET /manage/api/webhooks/{id}/deliveries?page=N.
type DeliveriesRequest struct {
	ID   uuid.UUID `path:"id" json:"-"`
	Page int       `query:"page" json:"-"`
}

// Validate refuses a page out of range; none is the first.
func (r *DeliveriesRequest) Validate() error {
	if r.Page == 0 {
		r.Page = 1
	}
	if r.Page < 1 || r.Page > 1_000_000 {
		return apierror.Validation(map[string]string{"page": "webhook.page_invalid"})
	}
	return nil
}

// Deliveries answers a page of the endpoint's delivery log.
func (s *Service) Deliveries(ctx context.Context, scope tenants.Scope, r *DeliveriesRequest) (*Deliveries, error) {
	e, err := endpointOf(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	q := scope.Store()
	total, err := q.CountWebhookDeliveries(ctx, sharddb.CountWebhookDeliveriesParams{OrganizationID: scope.OrgID, EndpointID: e.ID})
	if err != nil {
		return nil, err
	}
	rows, err := q.WebhookDeliveries(ctx, sharddb.WebhookDeliveriesParams{OrganizationID: scope.OrgID, EndpointID: e.ID,
		Limit: PageSize, Offset: int32((r.Page - 1) * PageSize)})
	if err != nil {
		return nil, err
	}
	out := &Deliveries{Deliveries: []Delivery{}, Page: r.Page, Total: int(total), TotalPages: (int(total) + PageSize - 1) / PageSize}
	for _, d := range rows {
		out.Deliveries = append(out.Deliveries, presentDelivery(ctx, d))
	}
	return out, nil
}

// ResendRequest is POST /manage/api/webhooks/{id}/deliveries/{delivery}/resend.
type ResendRequest struct {
	ID         uuid.UUID `path:"id" json:"-"`
	DeliveryID uuid.UUID `path:"delivery" json:"-"`
}

type resent struct{ *Delivery }

func (resent) StatusCode() int { return http.StatusCreated }

// Resend delivers a delivery's event again, as a new delivery with the same event id and body.
func (s *Service) Resend(ctx context.Context, scope tenants.Scope, r *ResendRequest) (*resent, error) {
	e, err := endpointOf(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	if e.Status != "active" {
		return nil, apierror.New(http.StatusConflict, "webhook.endpoint_disabled")
	}
	d, err := scope.Store().ResendWebhookDelivery(ctx, sharddb.ResendWebhookDeliveryParams{OrganizationID: scope.OrgID, EndpointID: e.ID,
		ID: r.DeliveryID, NewID: uuid.New()})
	if err != nil {
		return nil, err
	}
	// Started now rather than at the endpoint's next poll; the poll skips it then.
	if err := s.Workers.Deliver(ctx, scope.OrgID, d.ID); err != nil {
		return nil, err
	}
	if err := scope.Store().MarkWebhookDeliveryDispatched(ctx, sharddb.MarkWebhookDeliveryDispatchedParams{OrganizationID: scope.OrgID,
		ID: d.ID}); err != nil {
		return nil, err
	}
	out := presentDelivery(ctx, sharddb.WebhookDelivery(d))
	return &resent{&out}, nil
}
