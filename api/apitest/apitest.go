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
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api"
	"github.com/aporta/aporta/api/config"
	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// Stack is the in-process API on the test stack, with admin clients for setting up data.
type Stack struct {
	Config   *config.Config
	Tenants  *tenants.Tenants
	Kratos   *identity.Kratos
	Keto     *identity.Keto
	Temporal client.Client
	Server   *httptest.Server
}

// Password is every test user's password (Kratos's rules: 12+ characters).
const Password = "Test-Aporta-2026!"

// Start builds the router in-process against the stack; it is closed when the test ends.
func Start(t testing.TB) *Stack {
	t.Helper()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	tc, err := client.Dial(client.Options{HostPort: cfg.TemporalAddr, Namespace: cfg.TemporalNS})
	if err != nil {
		t.Fatalf("temporal: %v", err)
	}
	t.Cleanup(tc.Close)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	router, err := api.NewRouter(api.Deps{Config: cfg, Tenants: tt, Temporal: tc, Log: log})
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	hc := &http.Client{Timeout: 10 * time.Second}
	return &Stack{
		Config: cfg, Tenants: tt, Temporal: tc, Server: srv,
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

// NewOrganization registers an organisation in the directory and its country shard.
func (s *Stack) NewOrganization(t testing.TB, country string) uuid.UUID {
	t.Helper()
	id := uuid.New()
	org := tenants.Organization{ID: id, Name: "Organización " + id.String()[:8], Country: country}
	if err := s.Tenants.CreateOrganization(context.Background(), org, ""); err != nil {
		t.Fatalf("create organization: %v", err)
	}
	return id
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

// NewStaff creates a signed-in product staff member (Keto Staff:aporta#members).
func (s *Stack) NewStaff(t testing.TB) *Client {
	t.Helper()
	c := s.NewUser(t, "staff")
	if err := s.Keto.Grant(context.Background(), identity.NamespaceStaff, identity.StaffObject, identity.RelationMembers, c.UserID.String()); err != nil {
		t.Fatalf("keto: %v", err)
	}
	return c
}

// Login signs in through Kratos's browser login flow (via the API's same-origin proxy) and picks up
// a CSRF token, returning a client that sends both like the web app.
func (s *Stack) Login(t testing.TB, email, password string) *Client {
	t.Helper()
	c := &Client{t: t, base: s.Server.URL, http: HTTPClient(NewIP()), cookies: map[string]string{}, Email: email}
	kratos := s.Server.URL + "/.ory/kratos/public"

	res := c.do(http.MethodGet, kratos+"/self-service/login/browser", nil, "", map[string]string{"Accept": "application/json"})
	var flow struct {
		ID string `json:"id"`
		UI struct {
			Nodes []struct {
				Attributes struct {
					Name  string `json:"name"`
					Value any    `json:"value"`
				} `json:"attributes"`
			} `json:"nodes"`
		} `json:"ui"`
	}
	decode(t, res, http.StatusOK, &flow)
	var csrfToken string
	for _, n := range flow.UI.Nodes {
		if n.Attributes.Name == "csrf_token" {
			csrfToken, _ = n.Attributes.Value.(string)
		}
	}
	body, _ := json.Marshal(map[string]string{
		"method": "password", "identifier": email, "password": password, "csrf_token": csrfToken,
	})
	res = c.do(http.MethodPost, kratos+"/self-service/login?flow="+flow.ID, bytes.NewReader(body), "application/json",
		map[string]string{"Accept": "application/json"})
	decode(t, res, http.StatusOK, nil)
	if c.cookies["aporta_session"] == "" {
		t.Fatalf("login of %s set no aporta_session cookie", email)
	}

	// The CSRF token the page would carry in <meta name="csrf-token">.
	w := httptest.NewRecorder()
	gc, _ := gin.CreateTestContext(w)
	gc.Request = httptest.NewRequest(http.MethodGet, "/", nil)
	c.csrf = middleware.NewCSRF(s.Config.Secret, false).Token(gc)
	for _, ck := range w.Result().Cookies() {
		c.cookies[ck.Name] = ck.Value
	}
	return c
}

func decode(t testing.TB, res *http.Response, want int, v any) {
	t.Helper()
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %s", res.Request.Method, res.Request.URL.Path, res.StatusCode, want, b)
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

// ErrorCode is the error body's code ("" when none).
func (r Response) ErrorCode() string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Code
}

// ErrorMessage is the error body's message.
func (r Response) ErrorMessage() string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Message
}

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
