package crm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Credentials are an organisation's connected app: where to log in and its client id and secret
// (the OAuth 2.0 client credentials flow).
type Credentials struct {
	LoginURL     string `json:"login_url"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

// Operations a call is logged as.
const (
	OpToken    = "token"
	OpDescribe = "describe"
	OpUpsert   = "upsert"
	OpQuery    = "query"
	OpLimits   = "limits"
)

// Call is one HTTP call the client made, for the request log. Usage is nil when the answer did
// not report the budget (the token endpoint, a timeout).
type Call struct {
	At        time.Time
	Object    string
	Operation string
	Records   int
	Status    int // 0: no answer
	Err       error
	Usage     *Usage
	Duration  time.Duration
}

var (
	// ErrLimit is the 24-hour API budget exhausted (403 REQUEST_LIMIT_EXCEEDED).
	ErrLimit = errors.New("crm: the CRM's daily API request limit is exhausted")
	// ErrAuth is the token endpoint refusing the credentials: only the organisation can fix it.
	ErrAuth = errors.New("crm: the CRM refused the credentials")
	// ErrHost is a login or instance URL the client may not call.
	ErrHost = errors.New("crm: the CRM's address is not allowed")
)

// APIError is an answer with an error status.
type APIError struct {
	Status int
	Errors []Error
}

func (e *APIError) Error() string {
	if len(e.Errors) == 0 {
		return fmt.Sprintf("crm: HTTP %d", e.Status)
	}
	return fmt.Sprintf("crm: HTTP %d %s: %s", e.Status, e.Errors[0].Code(), e.Errors[0].Message)
}

// Transient says whether err may pass on a retry: no answer, a timeout, or a 5xx.
func Transient(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status >= 500
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF)
}

// Client calls one organisation's CRM. It logs in on first use and again when a session expires
// (401 INVALID_SESSION_ID), retrying that call once. Safe for concurrent use.
type Client struct {
	HTTP  *http.Client
	Creds Credentials
	// AllowHost says whether a login or instance URL may be called (production: Salesforce's own
	// hosts over https only, so an organisation cannot aim our servers at internal addresses).
	AllowHost func(*url.URL) bool
	OnCall    func(Call) // every call, for the request log; may be nil

	mu    sync.Mutex
	token *Token
}

// Authenticate logs in now (the setup's connection check).
func (c *Client) Authenticate(ctx context.Context) error {
	_, err := c.login(ctx)
	return err
}

func (c *Client) session(ctx context.Context) (*Token, error) {
	c.mu.Lock()
	t := c.token
	c.mu.Unlock()
	if t != nil {
		return t, nil
	}
	return c.login(ctx)
}

func (c *Client) login(ctx context.Context) (*Token, error) {
	u, err := c.checked(strings.TrimRight(c.Creds.LoginURL, "/") + "/services/oauth2/token")
	if err != nil {
		return nil, err
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {c.Creds.ClientID}, "client_secret": {c.Creds.ClientSecret}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	call := Call{At: time.Now(), Operation: OpToken}
	res, err := c.HTTP.Do(req)
	call.Duration = time.Since(call.At)
	if err != nil {
		call.Err = err
		c.report(call)
		return nil, err
	}
	defer res.Body.Close()
	call.Status = res.StatusCode
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode != http.StatusOK {
		var oe OAuthError
		_ = json.Unmarshal(body, &oe)
		if res.StatusCode >= 500 {
			call.Err = &APIError{Status: res.StatusCode, Errors: []Error{{ErrorCode: oe.Error, Message: oe.Description}}}
		} else {
			call.Err = fmt.Errorf("%w: %s", ErrAuth, strings.TrimSpace(oe.Error+" "+oe.Description))
		}
		c.report(call)
		return nil, call.Err
	}
	var t Token
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" || t.InstanceURL == "" {
		call.Err = fmt.Errorf("crm: malformed token answer")
		c.report(call)
		return nil, call.Err
	}
	if _, err := c.checked(t.InstanceURL); err != nil {
		call.Err = err
		c.report(call)
		return nil, err
	}
	c.report(call)
	c.mu.Lock()
	c.token = &t
	c.mu.Unlock()
	return &t, nil
}

func (c *Client) checked(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("%w: %q", ErrHost, raw)
	}
	if c.AllowHost != nil && !c.AllowHost(u) {
		return nil, fmt.Errorf("%w: %s", ErrHost, u.Host)
	}
	return u, nil
}

func (c *Client) report(call Call) {
	if c.OnCall != nil {
		c.OnCall(call)
	}
}

// do calls the REST API at path (below /services/data/vXX.X) and decodes a 2xx answer into out.
func (c *Client) do(ctx context.Context, method, path string, in, out any, object, op string, records int) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		t, err := c.session(ctx)
		if err != nil {
			return err
		}
		status, err := c.once(ctx, t, method, path, body, out, object, op, records)
		if status == http.StatusUnauthorized && attempt == 0 {
			// The session expired or was revoked: log in again and repeat the call once.
			c.mu.Lock()
			if c.token == t {
				c.token = nil
			}
			c.mu.Unlock()
			continue
		}
		return err
	}
}

func (c *Client) once(ctx context.Context, t *Token, method, path string, body []byte, out any, object, op string, records int) (int, error) {
	u := strings.TrimRight(t.InstanceURL, "/") + "/services/data/" + APIVersion + path
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+t.AccessToken)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	call := Call{At: time.Now(), Object: object, Operation: op, Records: records}
	res, err := c.HTTP.Do(req)
	call.Duration = time.Since(call.At)
	if err != nil {
		call.Err = err
		c.report(call)
		return 0, err
	}
	defer res.Body.Close()
	call.Status = res.StatusCode
	if u, ok := ParseUsage(res.Header.Get(LimitHeader)); ok {
		call.Usage = &u
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, 32<<20))
	if err != nil {
		call.Err = err
		c.report(call)
		return res.StatusCode, err
	}
	if res.StatusCode >= 300 {
		ae := &APIError{Status: res.StatusCode}
		_ = json.Unmarshal(data, &ae.Errors)
		call.Err = ae
		if res.StatusCode == http.StatusForbidden && len(ae.Errors) > 0 && ae.Errors[0].Code() == "REQUEST_LIMIT_EXCEEDED" {
			call.Err = fmt.Errorf("%w (%w)", ErrLimit, ae)
		}
		c.report(call)
		return res.StatusCode, call.Err
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			call.Err = fmt.Errorf("crm: malformed answer: %w", err)
		}
	}
	c.report(call)
	return res.StatusCode, call.Err
}

// Describe reads an sObject's fields.
func (c *Client) Describe(ctx context.Context, sobject string) (Describe, error) {
	var d Describe
	err := c.do(ctx, http.MethodGet, "/sobjects/"+url.PathEscape(sobject)+"/describe", nil, &d, sobject, OpDescribe, 0)
	return d, err
}

// MaxCollection is the most records one sObject Collections request takes.
const MaxCollection = 200

// Upsert creates or updates up to MaxCollection records of sobject by externalIDField in one call
// (allOrNone false: each record succeeds or fails on its own). The results are in records' order.
// Repeating it writes the same records again: the external id makes a retry harmless.
func (c *Client) Upsert(ctx context.Context, sobject, externalIDField string, records []Record) ([]SaveResult, error) {
	if len(records) == 0 || len(records) > MaxCollection {
		return nil, fmt.Errorf("crm: upsert takes 1 to %d records, not %d", MaxCollection, len(records))
	}
	for _, r := range records {
		r["attributes"] = Attributes{Type: sobject}
	}
	var out []SaveResult
	err := c.do(ctx, http.MethodPatch, "/composite/sobjects/"+url.PathEscape(sobject)+"/"+url.PathEscape(externalIDField),
		Collection{Records: records}, &out, sobject, OpUpsert, len(records))
	if err == nil && len(out) != len(records) {
		err = fmt.Errorf("crm: upsert answered %d results for %d records", len(out), len(records))
	}
	return out, err
}

// Query runs a SOQL query (one page: callers ask for at most 2,000 rows).
func (c *Client) Query(ctx context.Context, object, soql string) (QueryResult, error) {
	var q QueryResult
	err := c.do(ctx, http.MethodGet, "/query?q="+url.QueryEscape(soql), nil, &q, object, OpQuery, 0)
	return q, err
}

// Limits reads the remaining daily budget; Salesforce does not count this call against it.
func (c *Client) Limits(ctx context.Context) (Limits, error) {
	var l Limits
	err := c.do(ctx, http.MethodGet, "/limits", nil, &l, "", OpLimits, 0)
	return l, err
}

// Quote writes s as a SOQL string literal.
func Quote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
