// Package apitest gives integration tests a running API (the real router in-process, on the test
// stack's PostgreSQL, Temporal, Kratos and Keto) and signed-in clients: an organisation
// administrator, product staff, any user. Sessions come from Kratos's real browser login flow, and
// mutating calls carry a valid CSRF token, exactly as the web app sends them.
//
//	s := apitest.Start(t)                       // skips without the stack (see tenantstest)
//	admin := s.NewOrgAdmin(t, "AR")             // new organisation + its administrator, signed in
//	res := admin.JSON(http.MethodGet, "/manage/api/organization", nil)
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api"
	"github.com/aporta/aporta/api/gateways"
	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/gatewayrefresh"
	"github.com/aporta/aporta/workflows/onboarding"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// Stack is the in-process API on the test stack, with admin clients for setting up data.
type Stack struct {
	Config   *config.Config
	Tenants  *tenants.Tenants
	Kratos   *identity.Kratos
	Keto     *identity.Keto
	Temporal client.Client
	Server   *httptest.Server
	// Gateways connects organisations to sandbox gateway accounts as the API does.
	Gateways *gateways.Service
	logs     *syncBuffer
}

// syncBuffer is the in-process API's log, for tests that check what it logs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// Logs is everything the in-process API logged so far.
func (s *Stack) Logs() string {
	s.logs.mu.Lock()
	defer s.logs.mu.Unlock()
	return s.logs.b.String()
}

// Password is every test user's password (Kratos's rules: 12+ characters).
const Password = "Test-Aporta-2026!"

// Start builds the router in-process against the stack; it is closed when the test ends.
func Start(t testing.TB) *Stack {
	t.Helper()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	tc := workflowtest.Client(t)
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	router, err := api.NewRouter(api.Deps{Config: cfg, Tenants: tt, Temporal: tc, Log: log})
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	conns, err := connections.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("connections: %v", err)
	}
	gws, err := gateways.NewService(cfg, conns, onboarding.Client{Temporal: tc}, gatewayrefresh.Client{Temporal: tc}, log)
	if err != nil {
		t.Fatalf("gateways: %v", err)
	}
	hc := &http.Client{Timeout: 10 * time.Second}
	return &Stack{
		Config: cfg, Tenants: tt, Temporal: tc, Server: srv, Gateways: gws, logs: logs,
		Kratos: identity.NewKratos(cfg.KratosAdmin, hc),
		Keto:   identity.NewKeto(cfg.KetoRead, cfg.KetoWrite, hc),
	}
}

// Client is a signed-in browser: session cookie, CSRF cookie and token.
type Client struct {
	t       testing.TB
	base    string
	http    *http.Client
	cookies map[string]string
	csrf    string
	UserID  uuid.UUID
	Email   string
	OrgID   uuid.UUID // the organisation the user administers, if any
	// TOTPSecret is the authenticator app's secret, once EnrollTOTP or LoginAAL2 ran.
	TOTPSecret string
}

// NewUser creates a verified identity with no organisation or role, signed in.
func (s *Stack) NewUser(t testing.TB, label string) *Client {
	t.Helper()
	ctx := context.Background()
	email := fmt.Sprintf("%s-%s@test.aporta.test", label, uuid.NewString()[:8])
	id, err := s.Kratos.CreateUser(ctx, identity.NewUser{
		Email: email, FirstName: "Test", LastName: "User", Password: Password, Verified: true,
	})
	if err != nil {
		t.Fatalf("create identity: %v", err)
	}
	c := s.Login(t, email, Password)
	c.UserID = id
	return c
}

// NewOrganization registers an organisation in the directory and its country shard, connected to
// a sandbox MercadoPago account of its own through the real OAuth path (ConnectGateway).
func (s *Stack) NewOrganization(t testing.TB, country string) uuid.UUID {
	t.Helper()
	id := s.NewOrganizationWithoutGateway(t, country)
	s.ConnectGateway(t, id, "ORG"+strings.ToUpper(id.String()[:8]))
	return id
}

// NewOrganizationWithoutGateway is NewOrganization with no gateway connection: its forms are closed.
func (s *Stack) NewOrganizationWithoutGateway(t testing.TB, country string) uuid.UUID {
	t.Helper()
	id := uuid.New()
	org := tenants.Organization{ID: id, Name: "Organización " + id.String()[:8], Country: country}
	if err := s.Tenants.CreateOrganization(context.Background(), org, ""); err != nil {
		t.Fatalf("create organization: %v", err)
	}
	return id
}

// ConnectGateway connects the organisation to the sandbox MercadoPago account nickname (made on
// first use) as an administrator would: state, approval at the sandbox's authorization page,
// callback, exchange, store.
func (s *Stack) ConnectGateway(t testing.TB, orgID uuid.UUID, nickname string) {
	t.Helper()
	ctx := context.Background()
	scope, err := s.Tenants.ForOrganization(ctx, orgID)
	if err != nil {
		t.Fatalf("organization scope: %v", err)
	}
	if err := s.Gateways.ConnectSandbox(ctx, scope, uuid.New(), nickname); err != nil {
		t.Fatalf("connect the gateway: %v", err)
	}
}

// AddMember gives a user a role (administrator, operator, supervisor) in an organisation, in the
// directory and in Keto, as signup and seed do.
func (s *Stack) AddMember(t testing.TB, c *Client, orgID uuid.UUID, role string) {
	t.Helper()
	ctx := context.Background()
	if err := s.Tenants.AddMembership(ctx, c.UserID, orgID, role); err != nil {
		t.Fatalf("membership: %v", err)
	}
	if err := s.Keto.Grant(ctx, identity.NamespaceOrganization, orgID.String(), role+"s", c.UserID.String()); err != nil {
		t.Fatalf("keto: %v", err)
	}
	if c.OrgID == uuid.Nil {
		c.OrgID = orgID
	}
}

// NewOrgAdmin creates an organisation in country and its signed-in administrator.
func (s *Stack) NewOrgAdmin(t testing.TB, country string) *Client {
	t.Helper()
	c := s.NewUser(t, "admin")
	s.AddMember(t, c, s.NewOrganization(t, country), "administrator")
	return c
}

// NewStaff creates a product staff member (Keto Staff:aporta#members) who has set up an
// authenticator app, signed in with both factors (AAL2) as the staff console requires.
func (s *Stack) NewStaff(t testing.TB) *Client {
	t.Helper()
	c := s.NewStaffPasswordOnly(t)
	c.EnrollTOTP()
	return c
}

// NewStaffPasswordOnly creates a staff member without a second factor, signed in with the password
// alone (AAL1).
func (s *Stack) NewStaffPasswordOnly(t testing.TB) *Client {
	t.Helper()
	c := s.NewUser(t, "staff")
	if err := s.Keto.Grant(context.Background(), identity.NamespaceStaff, identity.StaffObject, identity.RelationMembers, c.UserID.String()); err != nil {
		t.Fatalf("keto: %v", err)
	}
	return c
}

// Login signs in through Kratos's browser login flow (via the API's same-origin proxy) and picks up
// a CSRF token, returning a client that sends both like the web app. For someone with an
// authenticator app the session stays at the first factor (AAL1): see LoginAAL2.
func (s *Stack) Login(t testing.TB, email, password string) *Client {
	t.Helper()
	c := s.Visitor(t)
	c.Email = email
	// Kratos answers 422 (browser_location_change_required) when a second factor is due.
	c.submitFlow("login", c.startFlow("login", ""), map[string]string{"method": "password", "identifier": email, "password": password},
		http.StatusOK, http.StatusUnprocessableEntity)
	if c.cookies["aporta_session"] == "" {
		t.Fatalf("login of %s set no aporta_session cookie", email)
	}
	return c
}

// Visitor is a browser that opened one of the web app's pages without signing in: it has the
// page's CSRF token (the one the page carries in <meta name="csrf-token">) and no session.
func (s *Stack) Visitor(t testing.TB) *Client {
	t.Helper()
	c := &Client{t: t, base: s.Server.URL, http: HTTPClient(NewIP()), cookies: map[string]string{}}
	w := httptest.NewRecorder()
	gc, _ := gin.CreateTestContext(w)
	gc.Request = httptest.NewRequest(http.MethodGet, "/", nil)
	c.csrf = middleware.NewCSRF(s.Config.Secret, false).Token(gc)
	for _, ck := range w.Result().Cookies() {
		c.cookies[ck.Name] = ck.Value
	}
	return c
}

// LoginAAL2 signs in with the password, then with the authenticator app's code (Kratos's login
// flow with aal=aal2, as the web app's code screen submits it).
func (s *Stack) LoginAAL2(t testing.TB, email, password, totpSecret string) *Client {
	t.Helper()
	c := s.Login(t, email, password)
	c.submitFlow("login", c.startFlow("login", "aal=aal2"), map[string]string{"method": "totp", "totp_code": c.totp(totpSecret)}, http.StatusOK)
	c.TOTPSecret = totpSecret
	return c
}

// EnrollTOTP adds an authenticator app through Kratos's settings flow, as the web app's setup screen
// does (Kratos then raises the session to AAL2), and keeps its secret in TOTPSecret.
func (c *Client) EnrollTOTP() {
	c.t.Helper()
	flow := c.startFlow("settings", "")
	secret := ""
	for _, n := range flow.UI.Nodes {
		if n.Attributes.ID == "totp_secret_key" {
			secret = n.Attributes.Text.Text
		}
	}
	if secret == "" {
		c.t.Fatalf("settings flow offers no authenticator app to %s", c.Email)
	}
	c.submitFlow("settings", flow, map[string]string{"method": "totp", "totp_code": c.totp(secret)}, http.StatusOK)
	c.TOTPSecret = secret
}

func (c *Client) totp(secret string) string {
	code, err := identity.TOTP(secret, time.Now())
	if err != nil {
		c.t.Fatalf("totp: %v", err)
	}
	return code
}

// KratosFlow is the part of a Kratos browser flow tests read.
type KratosFlow struct {
	ID string `json:"id"`
	UI struct {
		Nodes []struct {
			Attributes struct {
				Name  string `json:"name"`
				Value any    `json:"value"`
				ID    string `json:"id"`
				Text  struct {
					Text string `json:"text"`
				} `json:"text"`
			} `json:"attributes"`
		} `json:"nodes"`
	} `json:"ui"`
}

// CSRF is the flow's CSRF token, which its submission carries.
func (f KratosFlow) CSRF() string {
	for _, n := range f.UI.Nodes {
		if n.Attributes.Name == "csrf_token" {
			token, _ := n.Attributes.Value.(string)
			return token
		}
	}
	return ""
}

// startFlow starts a Kratos browser flow of kind (with query, e.g. "aal=aal2") as a single-page app
// does.
func (c *Client) startFlow(kind, query string) KratosFlow {
	c.t.Helper()
	var flow KratosFlow
	decode(c.t, c.do(http.MethodGet, c.base+"/.ory/kratos/public/self-service/"+kind+"/browser?"+query, nil, "",
		map[string]string{"Accept": "application/json"}), []int{http.StatusOK}, &flow)
	return flow
}

// submitFlow submits fields to a flow of kind with the flow's CSRF token, expecting one of the statuses.
func (c *Client) submitFlow(kind string, flow KratosFlow, fields map[string]string, want ...int) {
	c.t.Helper()
	body := map[string]string{}
	for k, v := range fields {
		body[k] = v
	}
	body["csrf_token"] = flow.CSRF()
	b, _ := json.Marshal(body)
	decode(c.t, c.do(http.MethodPost, c.base+"/.ory/kratos/public/self-service/"+kind+"?flow="+flow.ID, bytes.NewReader(b),
		"application/json", map[string]string{"Accept": "application/json"}), want, nil)
}

func decode(t testing.TB, res *http.Response, want []int, v any) {
	t.Helper()
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if !slices.Contains(want, res.StatusCode) {
		t.Fatalf("%s %s: status %d, want %v: %s", res.Request.Method, res.Request.URL.Path, res.StatusCode, want, b)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("decode %s: %v", res.Request.URL.Path, err)
		}
	}
}

func (c *Client) do(method, url string, body io.Reader, contentType string, headers map[string]string) *http.Response {
	c.t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		c.t.Fatalf("request: %v", err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	var parts []string
	for k, v := range c.cookies {
		parts = append(parts, k+"="+v)
	}
	if len(parts) > 0 {
		req.Header.Set("Cookie", strings.Join(parts, "; "))
	}
	if c.csrf != "" {
		req.Header.Set(middleware.CSRFHeader, c.csrf)
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, url, err)
	}
	for _, ck := range res.Cookies() {
		if ck.MaxAge < 0 || ck.Value == "" {
			delete(c.cookies, ck.Name)
			continue
		}
		c.cookies[ck.Name] = ck.Value
	}
	return res
}

// CSRFToken is the page's CSRF token the client holds (what a form posts as authenticity_token).
func (c *Client) CSRFToken() string { return c.csrf }

// Response is a read response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode unmarshals the body.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode: %v: %s", err, r.Body)
	}
}

// errorBody is an error answer's body.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (r Response) errorBody() (e errorBody) {
	_ = json.Unmarshal(r.Body, &e)
	return e
}

// ErrorCode is the error body's code ("" when none).
func (r Response) ErrorCode() string { return r.errorBody().Error.Code }

// ErrorMessage is the error body's message.
func (r Response) ErrorMessage() string { return r.errorBody().Error.Message }

// Do sends a request with a raw body; headers are optional key/value pairs.
func (c *Client) Do(method, path string, body io.Reader, contentType string, headers ...string) Response {
	c.t.Helper()
	h := map[string]string{}
	for i := 0; i+1 < len(headers); i += 2 {
		h[headers[i]] = headers[i+1]
	}
	res := c.do(method, c.base+path, body, contentType, h)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// JSON sends v (nil for no body) as JSON.
func (c *Client) JSON(method, path string, v any, headers ...string) Response {
	c.t.Helper()
	if v == nil {
		return c.Do(method, path, nil, "", headers...)
	}
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatalf("marshal: %v", err)
	}
	return c.Do(method, path, bytes.NewReader(b), "application/json", headers...)
}

// Multipart sends a multipart form with one file and text fields (built in memory, so the
// request has a Content-Length like a browser's).
func (c *Client) Multipart(method, path, fileField, filename string, content io.Reader, fields map[string]string) Response {
	c.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	fw, err := mw.CreateFormFile(fileField, filename)
	if err == nil {
		_, err = io.Copy(fw, content)
	}
	if err == nil {
		err = mw.Close()
	}
	if err != nil {
		c.t.Fatalf("multipart: %v", err)
	}
	return c.Do(method, path, &buf, mw.FormDataContentType())
}

// AgeSession moves the client's Kratos session's authentication time back by d, in Kratos's own
// database (the stack runs it on the same PostgreSQL as the directory), so a test can show what a
// session signed in long ago may no longer do.
func (s *Stack) AgeSession(t testing.TB, c *Client, d time.Duration) {
	t.Helper()
	var who struct {
		ID string `json:"id"`
	}
	decode(t, c.do(http.MethodGet, c.base+"/.ory/kratos/public/sessions/whoami", nil, "", map[string]string{"Accept": "application/json"}),
		[]int{http.StatusOK}, &who)
	u, err := url.Parse(s.Config.DirectoryDSN)
	if err != nil {
		t.Fatalf("directory dsn: %v", err)
	}
	u.Path = "/kratos"
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatalf("kratos database: %v", err)
	}
	defer conn.Close(ctx)
	tag, err := conn.Exec(ctx, `UPDATE sessions SET authenticated_at = authenticated_at - make_interval(secs => $2) WHERE id = $1`,
		who.ID, d.Seconds())
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("age session %s: %v (%d rows)", who.ID, err, tag.RowsAffected())
	}
}
