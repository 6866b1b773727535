// Package integration is the setup of organisations' CRM integrations (issue #16, spec §3 "CRM
// integration setup" and "CRM mapping", §7 "CRM integrations under /manage/settings/integrations/{uuid}"):
// the connection (credentials sealed at rest, checked against the CRM before saving), the mapping
// rules (checked against the CRM's describe), a full resync, and the request log. The sync itself
// is workflows/crmsync.
package integration

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/crm"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Waker tells an integration's sync workflow there is work (workflows/crmsync.Client).
type Waker interface {
	Wake(ctx context.Context, orgID, integrationID uuid.UUID) error
}

// Service serves the setup.
type Service struct {
	Vault *crmlink.Vault
	Sync  Waker
}

// Auth is the connection part of the setup (the spec's "auth"); the secret is never answered.
type Auth struct {
	LoginURL  string `json:"login_url"`
	ClientID  string `json:"client_id"`
	HasSecret bool   `json:"has_secret"`
}

// Usage is the CRM's daily budget as last reported.
type Usage struct {
	Used int       `json:"used"`
	Max  int       `json:"max"`
	At   time.Time `json:"at"`
}

// Progress is the queue: changes waiting, records the CRM refused, and the last resync.
type Progress struct {
	Pending         int        `json:"pending"`
	Failed          int        `json:"failed"`
	ResyncTotal     int        `json:"resync_total"`
	ResyncStartedAt *time.Time `json:"resync_started_at"`
}

// Setup is an integration as the setup page shows it.
type Setup struct {
	UUID            uuid.UUID            `json:"uuid"`
	Name            string               `json:"name"`
	Country         string               `json:"country"`
	Auth            Auth                 `json:"auth"`
	ExternalIDField string               `json:"external_id_field"`
	DailyCallLimit  *int32               `json:"daily_call_limit"`
	Status          string               `json:"status"`
	LastError       *string              `json:"last_error"`
	Usage           *Usage               `json:"usage"`
	ParkedUntil     *time.Time           `json:"parked_until"`
	Progress        Progress             `json:"progress"`
	Rules           []Rule               `json:"rules"`
	Attributes      []crmlink.Attribute  `json:"attributes"`
	Objects         map[string]ObjectOut `json:"objects"`
	CreatedAt       time.Time            `json:"created_at"`
}

// ObjectOut is a CRM object the mapping can write: its fields from the CRM's describe.
type ObjectOut struct {
	SObject string     `json:"sobject"`
	Label   string     `json:"label"`
	Fields  []FieldOut `json:"fields"`
}

// FieldOut is a writable field of a CRM object.
type FieldOut struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Type     string   `json:"type"`
	Picklist []string `json:"picklist,omitempty"`
}

// Rule is a stored mapping rule.
type Rule struct {
	ID uuid.UUID `json:"id"`
	crmlink.Rule
}

// setupStatus lets StatusCode answer 201 for a creation.
type created struct{ *Setup }

func (created) StatusCode() int { return http.StatusCreated }

// integrationOf reads one of the organisation's integrations; another organisation's id is not found.
func integrationOf(ctx context.Context, scope tenants.Scope, id uuid.UUID) (sharddb.CrmIntegration, error) {
	return scope.Store().CRMIntegration(ctx, sharddb.CRMIntegrationParams{OrganizationID: scope.OrgID, ID: id})
}

// present builds the setup page's view of an integration.
func present(ctx context.Context, scope tenants.Scope, in sharddb.CrmIntegration) (*Setup, error) {
	q := scope.Store()
	rules, err := q.CRMRules(ctx, sharddb.CRMRulesParams{OrganizationID: scope.OrgID, IntegrationID: in.ID})
	if err != nil {
		return nil, err
	}
	counts, err := q.CRMQueueCounts(ctx, sharddb.CRMQueueCountsParams{OrganizationID: scope.OrgID, IntegrationID: in.ID})
	if err != nil {
		return nil, err
	}
	s := &Setup{UUID: in.ID, Name: in.Name, Country: scope.Country, ExternalIDField: in.ExternalIDField,
		Auth:           Auth{LoginURL: in.LoginUrl, ClientID: in.ClientID, HasSecret: len(in.ClientSecret) > 0},
		DailyCallLimit: in.DailyCallLimit, Status: in.Status, ParkedUntil: in.ParkedUntil, CreatedAt: in.CreatedAt,
		Progress:   Progress{Pending: int(counts.Pending), Failed: int(counts.Failed), ResyncTotal: int(in.ResyncTotal), ResyncStartedAt: in.ResyncStartedAt},
		Rules:      []Rule{},
		Attributes: crmlink.Attributes, Objects: map[string]ObjectOut{},
	}
	if in.LastError != nil {
		msg := i18n.T(i18n.FromContext(ctx), *in.LastError)
		s.LastError = &msg
	}
	if in.UsageUsed != nil && in.UsageMax != nil && in.UsageAt != nil {
		s.Usage = &Usage{Used: int(*in.UsageUsed), Max: int(*in.UsageMax), At: *in.UsageAt}
	}
	for _, r := range rules {
		s.Rules = append(s.Rules, Rule{ID: r.ID, Rule: crmlink.FromRow(r)})
	}
	for object, d := range describes(in) {
		o := ObjectOut{SObject: d.Name, Label: d.Label, Fields: []FieldOut{}}
		for _, f := range d.Fields {
			if !f.Createable || !f.Updateable || f.Type == "reference" || f.Type == "id" || strings.EqualFold(f.Name, in.ExternalIDField) {
				continue
			}
			fo := FieldOut{Name: f.Name, Label: f.Label, Type: f.Type}
			for _, p := range f.PicklistValues {
				if p.Active {
					fo.Picklist = append(fo.Picklist, p.Value)
				}
			}
			o.Fields = append(o.Fields, fo)
		}
		s.Objects[object] = o
	}
	return s, nil
}

func describes(in sharddb.CrmIntegration) map[string]crm.Describe {
	out := map[string]crm.Describe{}
	_ = json.Unmarshal(in.Describes, &out) // written by us
	return out
}

// connect logs in with creds and reads the describes of the objects the mapping writes: the
// check a setup passes before it is saved. The calls it made are returned for the request log.
func (s *Service) connect(ctx context.Context, creds crm.Credentials, externalID string) (map[string]crm.Describe, []crm.Call, error) {
	var calls []crm.Call
	c := s.Vault.Client(creds, func(call crm.Call) { calls = append(calls, call) })
	out := map[string]crm.Describe{}
	for object, sobject := range crm.SObjects {
		d, err := c.Describe(ctx, sobject)
		var ae *crm.APIError
		if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			continue // the org lacks the object (no Nonprofit Success Pack, say): it cannot be mapped
		}
		if err != nil {
			return nil, calls, connectError(err)
		}
		if f, ok := d.Field(externalID); !ok || !f.ExternalID {
			return nil, calls, invalid("external_id_field", "crm.external_id_missing", externalID, sobject)
		}
		out[object] = d
	}
	return out, calls, nil
}

// invalid is a 422 naming the field at fault. A message with parameters is the error's own: a
// field's message is rendered without them.
func invalid(field, code string, params ...any) *apierror.Error {
	e := &apierror.Error{Status: http.StatusUnprocessableEntity, Code: code, Params: params}
	if len(params) == 0 {
		e.Fields = map[string]string{field: code}
	}
	return e
}

func connectError(err error) error {
	switch {
	case errors.Is(err, crm.ErrAuth):
		e := invalid("client_secret", "crm.credentials_refused")
		e.Err = err
		return e
	case errors.Is(err, crm.ErrHost):
		e := invalid("login_url", "crm.login_url_invalid")
		e.Err = err
		return e
	case errors.Is(err, crm.ErrLimit):
		return &apierror.Error{Status: http.StatusServiceUnavailable, Code: "crm.limit_exceeded", Err: err}
	}
	return &apierror.Error{Status: http.StatusBadGateway, Code: "crm.unreachable", Err: err}
}

// logCalls writes calls made outside the sync (the setup's checks) to the request log.
func logCalls(ctx context.Context, q *sharddb.Queries, orgID, integrationID uuid.UUID, calls []crm.Call) error {
	for _, c := range calls {
		outcome := "ok"
		var msg *string
		if c.Err != nil {
			outcome = "failed"
			m := c.Err.Error()
			msg = &m
		}
		row := sharddb.LogCRMRequestParams{OrganizationID: orgID, IntegrationID: integrationID, ID: uuid.New(), At: c.At,
			Object: c.Object, Operation: c.Operation, Records: int32(c.Records), Status: int32(c.Status), Outcome: outcome,
			Error: msg, DurationMs: int32(c.Duration.Milliseconds())}
		if c.Usage != nil {
			used, limit := int32(c.Usage.Used), int32(c.Usage.Max)
			row.UsageUsed, row.UsageMax = &used, &limit
		}
		if err := q.LogCRMRequest(ctx, row); err != nil {
			return err
		}
	}
	return nil
}

var apiName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,79}$`)

// SetupFields are the setup's editable fields; nil leaves a field as it is (PATCH).
type SetupFields struct {
	Name            *string `json:"name"`
	LoginURL        *string `json:"login_url"`
	ClientID        *string `json:"client_id"`
	ClientSecret    *string `json:"client_secret"`
	ExternalIDField *string `json:"external_id_field"`
	DailyCallLimit  *int32  `json:"daily_call_limit"`
	Status          *string `json:"status"`
}

func (f *SetupFields) validate(creating bool) error {
	fields := map[string]string{}
	trim := func(p *string) {
		if p != nil {
			*p = strings.TrimSpace(*p)
		}
	}
	trim(f.Name)
	trim(f.LoginURL)
	trim(f.ClientID)
	trim(f.ExternalIDField)
	required := func(name string, p *string, maxLen int) {
		if (p == nil && creating) || (p != nil && (*p == "" || len(*p) > maxLen)) {
			fields[name] = "crm." + name + "_required"
		}
	}
	required("name", f.Name, 80)
	required("login_url", f.LoginURL, 300)
	required("client_id", f.ClientID, 255)
	required("client_secret", f.ClientSecret, 255)
	if f.LoginURL != nil && fields["login_url"] == "" {
		if u, err := url.Parse(*f.LoginURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
			fields["login_url"] = "crm.login_url_invalid"
		}
	}
	if f.ExternalIDField != nil && !apiName.MatchString(*f.ExternalIDField) {
		fields["external_id_field"] = "crm.external_id_missing"
	}
	if f.DailyCallLimit != nil && (*f.DailyCallLimit < 1 || *f.DailyCallLimit > 10_000_000) {
		fields["daily_call_limit"] = "crm.daily_call_limit_invalid"
	}
	if f.Status != nil && *f.Status != "active" && *f.Status != "paused" {
		fields["status"] = "crm.status_invalid"
	}
	return apierror.Invalid(fields)
}

// CreateRequest is POST /manage/api/integrations (the page /manage/settings/integrations is the web app's).
type CreateRequest struct{ SetupFields }

// Validate checks the fields a new integration needs.
func (r *CreateRequest) Validate() error { return r.validate(true) }

// Create connects a new integration: the CRM must accept the credentials and have the external
// id field before anything is saved.
func (s *Service) Create(ctx context.Context, scope tenants.Scope, r *CreateRequest) (*created, error) {
	ext := "Aporta_Id__c"
	if r.ExternalIDField != nil {
		ext = *r.ExternalIDField
	}
	creds := crm.Credentials{LoginURL: *r.LoginURL, ClientID: *r.ClientID, ClientSecret: *r.ClientSecret}
	ds, calls, err := s.connect(ctx, creds, ext)
	if err != nil {
		return nil, err
	}
	id := uuid.New()
	sealed, err := s.Vault.Seal(ctx, scope.OrgID, id, creds.ClientSecret)
	if err != nil {
		return nil, err
	}
	dsJSON, err := json.Marshal(ds)
	if err != nil {
		return nil, err
	}
	var in sharddb.CrmIntegration
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		if in, err = q.CreateCRMIntegration(ctx, sharddb.CreateCRMIntegrationParams{OrganizationID: scope.OrgID, ID: id, Name: *r.Name,
			LoginUrl: creds.LoginURL, ClientID: creds.ClientID, ClientSecret: sealed.Blob, KeyID: sealed.KeyID,
			ExternalIDField: ext, DailyCallLimit: r.DailyCallLimit, Describes: dsJSON}); err != nil {
			return err
		}
		return logCalls(ctx, q, scope.OrgID, id, calls)
	})
	if err != nil {
		return nil, err
	}
	if err := s.Sync.Wake(ctx, scope.OrgID, id); err != nil {
		return nil, err
	}
	out, err := present(ctx, scope, in)
	return &created{out}, err
}

// ListRequest is GET /manage/api/integrations.
type ListRequest struct{}

// Summary is an integration in the list.
type Summary struct {
	UUID      uuid.UUID `json:"uuid"`
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	LoginURL  string    `json:"login_url"`
	CreatedAt time.Time `json:"created_at"`
}

// List answers {"integrations": [...]}.
type List struct {
	Integrations []Summary `json:"integrations"`
}

// List lists the organisation's integrations.
func (s *Service) List(ctx context.Context, scope tenants.Scope, _ *ListRequest) (*List, error) {
	rows, err := scope.Store().CRMIntegrations(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	out := &List{Integrations: []Summary{}}
	for _, r := range rows {
		out.Integrations = append(out.Integrations, Summary{UUID: r.ID, Name: r.Name, Status: r.Status, LoginURL: r.LoginUrl, CreatedAt: r.CreatedAt})
	}
	return out, nil
}

// SetupRequest names an integration.
type SetupRequest struct {
	ID uuid.UUID `path:"uuid" json:"-"`
}

// GetSetup is GET …/{uuid}/setup.
func (s *Service) GetSetup(ctx context.Context, scope tenants.Scope, r *SetupRequest) (*Setup, error) {
	in, err := integrationOf(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	return present(ctx, scope, in)
}

// PatchSetupRequest is PATCH …/{uuid}/setup.
type PatchSetupRequest struct {
	ID uuid.UUID `path:"uuid" json:"-"`
	SetupFields
}

// Validate checks the fields given.
func (r *PatchSetupRequest) Validate() error { return r.validate(false) }

// PatchSetup changes the setup. New credentials or another external id field are checked against
// the CRM first (and its describes read again); a secret left out keeps the sealed one.
func (s *Service) PatchSetup(ctx context.Context, scope tenants.Scope, r *PatchSetupRequest) (*Setup, error) {
	in, err := integrationOf(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	p := sharddb.UpdateCRMIntegrationParams{OrganizationID: scope.OrgID, ID: in.ID, Name: in.Name, LoginUrl: in.LoginUrl,
		ClientID: in.ClientID, ClientSecret: in.ClientSecret, KeyID: in.KeyID, ExternalIDField: in.ExternalIDField,
		DailyCallLimit: in.DailyCallLimit, Status: in.Status, Describes: in.Describes}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Name, r.Name)
	set(&p.LoginUrl, r.LoginURL)
	set(&p.ClientID, r.ClientID)
	set(&p.ExternalIDField, r.ExternalIDField)
	set(&p.Status, r.Status)
	if r.DailyCallLimit != nil {
		p.DailyCallLimit = r.DailyCallLimit
	}
	if p.Status == "needs_attention" {
		p.Status = "active" // saving the setup is the organisation's answer to the error
	}
	var calls []crm.Call
	if r.LoginURL != nil || r.ClientID != nil || r.ClientSecret != nil || r.ExternalIDField != nil || in.Status == "needs_attention" {
		creds, err := s.Vault.Credentials(ctx, in)
		if err != nil {
			return nil, err
		}
		creds.LoginURL, creds.ClientID = p.LoginUrl, p.ClientID
		if r.ClientSecret != nil {
			creds.ClientSecret = *r.ClientSecret
			sealed, err := s.Vault.Seal(ctx, scope.OrgID, in.ID, creds.ClientSecret)
			if err != nil {
				return nil, err
			}
			p.ClientSecret, p.KeyID = sealed.Blob, sealed.KeyID
		}
		var ds map[string]crm.Describe
		if ds, calls, err = s.connect(ctx, creds, p.ExternalIDField); err != nil {
			_ = logCalls(ctx, scope.Store(), scope.OrgID, in.ID, calls)
			return nil, err
		}
		if p.Describes, err = json.Marshal(ds); err != nil {
			return nil, err
		}
	}
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		if in, err = q.UpdateCRMIntegration(ctx, p); err != nil {
			return err
		}
		return logCalls(ctx, q, scope.OrgID, in.ID, calls)
	})
	if err != nil {
		return nil, err
	}
	if err := s.Sync.Wake(ctx, scope.OrgID, in.ID); err != nil {
		return nil, err
	}
	return present(ctx, scope, in)
}

// Resync is POST …/{uuid}/setup/sync: everything the organisation has goes to the queue, and the
// workflow sends it within the budget; the setup's progress shows how far it got.
func (s *Service) Resync(ctx context.Context, scope tenants.Scope, r *SetupRequest) (*Setup, error) {
	in, err := integrationOf(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		n, err := q.EnqueueCRMResync(ctx, sharddb.EnqueueCRMResyncParams{OrganizationID: scope.OrgID, IntegrationID: in.ID})
		if err != nil {
			return err
		}
		return q.StartCRMResync(ctx, sharddb.StartCRMResyncParams{OrganizationID: scope.OrgID, ID: in.ID, ResyncTotal: n.Total})
	})
	if err != nil {
		return nil, err
	}
	if err := s.Sync.Wake(ctx, scope.OrgID, in.ID); err != nil {
		return nil, err
	}
	if in, err = scope.Store().CRMIntegration(ctx, sharddb.CRMIntegrationParams{OrganizationID: scope.OrgID, ID: in.ID}); err != nil {
		return nil, err
	}
	return present(ctx, scope, in)
}

// RuleRequest is POST …/{uuid}/rules.
type RuleRequest struct {
	IntegrationID uuid.UUID `path:"uuid" json:"-"`
	crmlink.Rule
}

// PatchRuleRequest is PATCH …/{uuid}/rules/{id}.
type PatchRuleRequest struct {
	IntegrationID uuid.UUID `path:"uuid" json:"-"`
	ID            uuid.UUID `path:"id" json:"-"`
	crmlink.Rule
}

type createdRule struct{ *Rule }

func (createdRule) StatusCode() int { return http.StatusCreated }

// check validates the rule against the CRM's describe of its object.
func check(r *crmlink.Rule, in sharddb.CrmIntegration) error {
	r.Attribute, r.Field = strings.TrimSpace(r.Attribute), strings.TrimSpace(r.Field)
	var d *crm.Describe
	if x, ok := describes(in)[r.Object]; ok {
		d = &x
	}
	err := r.Check(d, in.ExternalIDField)
	var re *crmlink.RuleError
	if errors.As(err, &re) {
		return invalid(re.Field, re.Code, re.Params...)
	}
	return err
}

func valueMap(r crmlink.Rule) ([]byte, error) {
	if r.ValueMap == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(r.ValueMap)
}

func fieldTaken(err error) error {
	if dberr.IsConflict(err, "crm_rules_field_key") {
		return &apierror.Error{Status: http.StatusConflict, Code: "crm.field_taken", Fields: map[string]string{"field": "crm.field_taken"}, Err: err}
	}
	return err
}

// CreateRule adds a mapping rule.
func (s *Service) CreateRule(ctx context.Context, scope tenants.Scope, r *RuleRequest) (*createdRule, error) {
	in, err := integrationOf(ctx, scope, r.IntegrationID)
	if err != nil {
		return nil, err
	}
	if err := check(&r.Rule, in); err != nil {
		return nil, err
	}
	vm, err := valueMap(r.Rule)
	if err != nil {
		return nil, err
	}
	row, err := scope.Store().CreateCRMRule(ctx, sharddb.CreateCRMRuleParams{OrganizationID: scope.OrgID, IntegrationID: in.ID, ID: uuid.New(),
		ClassName: r.Class, Attribute: r.Attribute, CrmObject: r.Object, Field: r.Field, SyncRule: r.SyncRule, ValueMap: vm})
	if err != nil {
		return nil, fieldTaken(err)
	}
	return &createdRule{&Rule{ID: row.ID, Rule: crmlink.FromRow(row)}}, nil
}

// PatchRule replaces a rule's mapping (its class stays).
func (s *Service) PatchRule(ctx context.Context, scope tenants.Scope, r *PatchRuleRequest) (*Rule, error) {
	in, err := integrationOf(ctx, scope, r.IntegrationID)
	if err != nil {
		return nil, err
	}
	cur, err := scope.Store().CRMRule(ctx, sharddb.CRMRuleParams{OrganizationID: scope.OrgID, IntegrationID: in.ID, ID: r.ID})
	if err != nil {
		return nil, err
	}
	r.Class = cur.ClassName
	if err := check(&r.Rule, in); err != nil {
		return nil, err
	}
	vm, err := valueMap(r.Rule)
	if err != nil {
		return nil, err
	}
	row, err := scope.Store().UpdateCRMRule(ctx, sharddb.UpdateCRMRuleParams{OrganizationID: scope.OrgID, IntegrationID: in.ID, ID: r.ID,
		Attribute: r.Attribute, CrmObject: r.Object, Field: r.Field, SyncRule: r.SyncRule, ValueMap: vm})
	if err != nil {
		return nil, fieldTaken(err)
	}
	return &Rule{ID: row.ID, Rule: crmlink.FromRow(row)}, nil
}

// RuleIDRequest names a rule.
type RuleIDRequest struct {
	IntegrationID uuid.UUID `path:"uuid" json:"-"`
	ID            uuid.UUID `path:"id" json:"-"`
}

// DeleteRule removes a rule.
func (s *Service) DeleteRule(ctx context.Context, scope tenants.Scope, r *RuleIDRequest) (*struct{}, error) {
	in, err := integrationOf(ctx, scope, r.IntegrationID)
	if err != nil {
		return nil, err
	}
	n, err := scope.Store().DeleteCRMRule(ctx, sharddb.DeleteCRMRuleParams{OrganizationID: scope.OrgID, IntegrationID: in.ID, ID: r.ID})
	if err == nil && n == 0 {
		err = dberr.ErrNotFound
	}
	return nil, err
}

// PageSize is the request log's page size.
const PageSize = 25

// RequestsRequest is GET …/{uuid}/requests/page/{page}.
type RequestsRequest struct {
	ID   uuid.UUID `path:"uuid" json:"-"`
	Page int       `path:"page" json:"-"`
}

// Validate refuses a page below 1.
func (r *RequestsRequest) Validate() error {
	if r.Page < 1 || r.Page > 1_000_000 {
		return apierror.Validation(map[string]string{"page": "crm.page_invalid"})
	}
	return nil
}

// Request is one logged call.
type Request struct {
	ID         uuid.UUID `json:"id"`
	At         time.Time `json:"at"`
	Object     string    `json:"object"`
	Operation  string    `json:"operation"`
	Records    int       `json:"records"`
	Failed     int       `json:"failed"`
	Status     int       `json:"status"`
	Outcome    string    `json:"outcome"`
	Error      *string   `json:"error"`
	Remaining  *int      `json:"remaining"`
	Limit      *int      `json:"limit"`
	Retryable  int       `json:"retryable"`
	DurationMS int       `json:"duration_ms"`
}

// Requests is a page of the log; the counts also go in the spec's pagination headers.
type Requests struct {
	Requests []Request `json:"requests"`
	page     int
	total    int
}

// Headers are current-page, page-items, total-count and total-pages.
func (r *Requests) Headers() http.Header {
	pages := (r.total + PageSize - 1) / PageSize
	return http.Header{"Current-Page": {strconv.Itoa(r.page)}, "Page-Items": {strconv.Itoa(PageSize)},
		"Total-Count": {strconv.Itoa(r.total)}, "Total-Pages": {strconv.Itoa(pages)}}
}

// Requests answers a page of the request log, newest first.
func (s *Service) Requests(ctx context.Context, scope tenants.Scope, r *RequestsRequest) (*Requests, error) {
	in, err := integrationOf(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	q := scope.Store()
	total, err := q.CountCRMRequests(ctx, sharddb.CountCRMRequestsParams{OrganizationID: scope.OrgID, IntegrationID: in.ID})
	if err != nil {
		return nil, err
	}
	rows, err := q.CRMRequests(ctx, sharddb.CRMRequestsParams{OrganizationID: scope.OrgID, IntegrationID: in.ID,
		Limit: PageSize, Offset: int32((r.Page - 1) * PageSize)})
	if err != nil {
		return nil, err
	}
	out := &Requests{Requests: []Request{}, page: r.Page, total: int(total)}
	for _, x := range rows {
		req := Request{ID: x.ID, At: x.At, Object: x.Object, Operation: x.Operation, Records: int(x.Records), Failed: int(x.Failed),
			Status: int(x.Status), Outcome: x.Outcome, Error: x.Error, Retryable: int(x.Retryable), DurationMS: int(x.DurationMs)}
		if x.UsageUsed != nil && x.UsageMax != nil {
			left, limit := int(*x.UsageMax-*x.UsageUsed), int(*x.UsageMax)
			req.Remaining, req.Limit = &left, &limit
		}
		out.Requests = append(out.Requests, req)
	}
	return out, nil
}

// RetryRequest is POST …/{uuid}/requests/{id}/retry.
type RetryRequest struct {
	IntegrationID uuid.UUID `path:"uuid" json:"-"`
	ID            uuid.UUID `path:"id" json:"-"`
}

// Retried answers how many records went back to the queue.
type Retried struct {
	Retried int `json:"retried"`
}

// Retry puts the records a request failed back in the queue.
func (s *Service) Retry(ctx context.Context, scope tenants.Scope, r *RetryRequest) (*Retried, error) {
	in, err := integrationOf(ctx, scope, r.IntegrationID)
	if err != nil {
		return nil, err
	}
	n, err := scope.Store().RetryCRMChanges(ctx, sharddb.RetryCRMChangesParams{OrganizationID: scope.OrgID, IntegrationID: in.ID, RequestID: &r.ID})
	if err != nil {
		return nil, err
	}
	if err := s.Sync.Wake(ctx, scope.OrgID, in.ID); err != nil {
		return nil, err
	}
	return &Retried{Retried: int(n)}, nil
}
